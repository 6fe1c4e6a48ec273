"""The app's PIX client: what an integrator's own code does against the contract's base_url,
with httpx and HTTP Basic, whatever server answers (the sandbox in tests, the real one live)."""

from __future__ import annotations

from typing import Any, Literal, TypedDict, cast

import httpx

PixType = Literal["CPF", "CNPJ", "EMAIL", "PHONE"]


class Charge(TypedDict):
    status: str
    transaction_id: str
    qr_code: str
    qr_code_name: str
    expiration_date: str


class Transfer(TypedDict):
    status: Literal["success", "pending", "failed"]
    transaction_id: str
    message: str


class PixError(Exception):
    """The API refused a call: its status and ``detail``."""

    def __init__(self, status: int, detail: object) -> None:
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail


class PixClient:
    def __init__(self, base_url: str, client_id: str, client_secret: str) -> None:
        self._http = httpx.Client(
            base_url=base_url,
            auth=(client_id, client_secret),
            headers={"accept": "application/json"},
            timeout=30,
        )

    def _post(self, path: str, body: dict[str, object]) -> Any:
        response = self._http.post(path, json=body)
        if response.is_error:
            raise PixError(response.status_code, response.json().get("detail"))
        return response.json()

    def create_charge(self, amount: int, description: str | None = None) -> Charge:
        """A charge of ``amount`` cents: its copy-and-paste ``qr_code`` for the payer."""
        body: dict[str, object] = {"amount": amount}
        if description is not None:
            body["description"] = description
        return cast(Charge, self._post("/hub/transactions/in", body))

    def send_transfer(self, amount: int, pix_key: str, pix_type: PixType) -> Transfer:
        """Pays ``amount`` cents out to a PIX key."""
        body: dict[str, object] = {"amount": amount, "pix_key": pix_key, "pix_type": pix_type}
        return cast(Transfer, self._post("/hub/transactions/out", body))

    def close(self) -> None:
        self._http.close()
