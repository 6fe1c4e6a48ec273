"""The control client: the Node package's helpers in Python's spelling, over the control plane
(``/_sandbox``). Built with the admin token (``sandbox.control``) it sees every company; built
with a company's credentials (``tenant.control``) it sees that company only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from .schemas import (
    ChargeRecord,
    ClockAdvanced,
    FaultRequest,
    Health,
    OutcomeRequest,
    Payer,
    PostTransfersTransactionIdSettleBody,
    Queued,
    Readiness,
    TransferRecord,
)
from .transport import Params, Transport, segment
from .webhooks import WebhookHelpers

if TYPE_CHECKING:
    from typing_extensions import Unpack


class Control:
    """The control plane as one set of credentials sees it."""

    def __init__(self, transport: Transport, authorization: str, user_id: str | None = None):
        self._transport = transport
        self._authorization = authorization
        self._user_id = user_id
        self.charges = ChargeHelpers(self)
        self.transfers = TransferHelpers(self)
        self.clock = ClockHelpers(self)
        self.outcomes = OutcomeHelpers(self)
        self.faults = FaultHelpers(self)
        self.requests = RequestHelpers(self)
        self.webhooks = WebhookHelpers(self)

    def call(
        self,
        method: str,
        path: str,
        *,
        json: object = None,
        params: Params | None = None,
        what: str | None = None,
    ) -> Any:
        """Any control endpoint (``call("GET", "/charges", params={"status": "paid"})``): its JSON
        answer, or ``SandboxRequestError`` with the status and ``detail`` of a refusal."""
        return self._transport.call(
            method, path, self._authorization, what or f"{method} {path}", json=json, params=params
        )

    def health(self) -> Health:
        result: Health = self.call("GET", "/health", what="health")
        return result

    def reset(self, scenario: str | None = None) -> None:
        """Back to a fresh start (admin token): state, clock, journal, outcomes, faults and
        webhooks; ``scenario`` loads another than the one the sandbox started with."""
        self.call(
            "POST", "/reset", json={} if scenario is None else {"scenario": scenario}, what="reset"
        )

    def balance(self, user_id: str | None = None) -> int:
        """A user's balance in cents. Company credentials read their own user's by default; the
        admin token names the user: ``balance("loja-exemplo-user")``."""
        if user_id is None:
            if self._user_id is None:
                self._user_id = self.call("GET", "/whoami", what="whoami")["user_id"]
            if self._user_id is None:
                raise TypeError(
                    "balance(): the admin token is no user's; "
                    "name one, e.g. balance('loja-exemplo-user')"
                )
            user_id = self._user_id
        answer = self.call(
            "GET", f"/users/{segment(user_id)}/balance", what=f"balance of {user_id}"
        )
        return int(answer["balance"])

    def readiness(self, company_id: str | None = None) -> Readiness:
        """The readiness report (docs/READINESS.md): behaviours met and findings. A company's
        credentials see their own; the admin sees every company's, or ``company_id``'s."""
        result: Readiness = self.call(
            "GET", "/readiness", params={"company_id": company_id}, what="readiness"
        )
        return result


class ChargeHelpers:
    def __init__(self, control: Control) -> None:
        self._control = control

    def _post(self, transaction_id: str, action: str, body: object = None) -> ChargeRecord:
        path = f"/charges/{segment(transaction_id)}/{action}"
        result: ChargeRecord = self._control.call(
            "POST", path, json=body, what=f"{action} {transaction_id}"
        )
        return result

    def get(self, transaction_id: str) -> ChargeRecord:
        path = f"/charges/{segment(transaction_id)}"
        result: ChargeRecord = self._control.call("GET", path, what=f"charge {transaction_id}")
        return result

    def pay(self, transaction_id: str, payer: Payer | None = None) -> ChargeRecord:
        """Pays a pending charge as the payer's bank would: ``paid``, the balance credited."""
        return self._post(transaction_id, "pay", {} if payer is None else {"payer": payer})

    def expire(self, transaction_id: str) -> ChargeRecord:
        return self._post(transaction_id, "expire")

    def cancel(self, transaction_id: str) -> ChargeRecord:
        return self._post(transaction_id, "cancel")


class TransferHelpers:
    def __init__(self, control: Control) -> None:
        self._control = control

    def get(self, transaction_id: str) -> TransferRecord:
        path = f"/transfers/{segment(transaction_id)}"
        result: TransferRecord = self._control.call("GET", path, what=f"transfer {transaction_id}")
        return result

    def settle(
        self,
        transaction_id: str,
        status: Literal["success", "failed"],
        message: str | None = None,
    ) -> TransferRecord:
        """Settles a pending transfer; ``failed`` refunds it."""
        body: PostTransfersTransactionIdSettleBody = {"status": status}
        if message is not None:
            body["message"] = message
        path = f"/transfers/{segment(transaction_id)}/settle"
        result: TransferRecord = self._control.call(
            "POST", path, json=body, what=f"settle {transaction_id}"
        )
        return result


class ClockHelpers:
    def __init__(self, control: Control) -> None:
        self._control = control

    def advance(self, seconds: float) -> ClockAdvanced:
        """Moves virtual time, running every expiry, payment, settlement and retry due."""
        result: ClockAdvanced = self._control.call(
            "POST", "/clock/advance", json={"seconds": seconds}, what="clock advance"
        )
        return result


class OutcomeHelpers:
    def __init__(self, control: Control) -> None:
        self._control = control

    def next(self, **outcome: Unpack[OutcomeRequest]) -> Queued:
        """Queues what the next matching transfers answer: ``next(status="failed", times=2)``."""
        result: Queued = self._control.call("POST", "/outcomes", json=outcome, what="outcome")
        return result

    def clear(self) -> None:
        self._control.call("DELETE", "/outcomes", what="clear outcomes")


class FaultHelpers:
    def __init__(self, control: Control) -> None:
        self._control = control

    def add(self, **fault: Unpack[FaultRequest]) -> Queued:
        """Injects a failure or latency: ``add(operation="transfer", status=503, times=1)``;
        ``when="after"`` lets the operation take effect first and then answers ``status`` (the
        lost answer of a real payment API), ``drop=True`` closes the connection without one."""
        result: Queued = self._control.call("POST", "/faults", json=fault, what="fault")
        return result

    def clear(self) -> None:
        self._control.call("DELETE", "/faults", what="clear faults")


class RequestHelpers:
    def __init__(self, control: Control) -> None:
        self._control = control

    def count(
        self, *, path: str | None = None, method: str | None = None, status: int | None = None
    ) -> int:
        """How many journaled requests match: ``count(path="/api/v1/hub/transactions/out")``."""
        params = {"path": path, "method": method, "status": status}
        return int(
            self._control.call("GET", "/requests/count", params=params, what="count")["count"]
        )
