"""A small merchant integration in Python, written from the project's docs (CONTRACT, WEBHOOKS,
READINESS) the way a shop would write it, not to pass a test: an httpx client for charges and
payouts, and a webhook receiver (the standard library's HTTP server) that checks signatures and
timestamps as docs/WEBHOOKS.md shows, takes each webhook-id once and keeps what it was told. A
payout whose answer is lost (a 5xx, its own timeout) is reconciled from its transfer.* webhook
(amount, pix_key, description), never sent again blindly. ``Bugs`` turns on one mistake at a
time: test_integration_shop.py checks that readiness catches each, and that the correct shop
raises nothing, whatever the order of its tests."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

import httpx


@dataclass(frozen=True)
class Bugs:
    """One mistake real integrators make, each a few lines away from the correct code."""

    resend_after_timeout: bool = False
    """A payout that timed out is sent again 1 s later, without reconciling."""
    retry_with_new_description: bool = False
    """A payout answered 5xx is sent again, its description saying which try it is."""
    resend_once_reconciled: bool = False
    """A payout whose answer was lost is reconciled as paid from its webhook, then sent again
    anyway, its description saying so."""
    retry_permanent: bool = False
    """A 501 is taken for a temporary failure and retried."""
    ignore_retry_after: bool = False
    """A 503 is retried at once, whatever its Retry-After says."""
    literal_key: bool = False
    """The receiver keys its HMAC with the whsec_ text, not the bytes it encodes."""
    no_verification: bool = False
    """The receiver takes whatever comes: no signature or timestamp check."""
    float_amount: bool = False
    """Amounts computed from reais as floats: 10.0 * 100 is sent as 1000.0."""
    no_content_type: bool = False
    """The body is sent as text, with no JSON content type."""


class PermanentError(Exception):
    """A refusal that no retry changes (401, 403, 422, 501)."""


class TemporaryError(Exception):
    """A failure that may pass (500, 503)."""


@dataclass(frozen=True)
class Order:
    id: str
    amount: int
    pix_key: str
    pix_type: Literal["EMAIL", "CPF", "CNPJ", "PHONE"] = "EMAIL"


PayoutResult = Literal["paid", "pending", "failed", "unknown"]


@dataclass
class Receiver:
    """The shop's webhook endpoint: ``url`` to subscribe, ``secret`` once subscribed."""

    bugs: Bugs = field(default_factory=Bugs)
    secret: str = ""
    url: str = ""
    told: dict[str, dict[str, Any]] = field(default_factory=dict)
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def verified(self, body: bytes, headers: dict[str, str]) -> bool:
        if self.bugs.no_verification:
            return True
        msg_id = headers.get("webhook-id", "")
        timestamp = headers.get("webhook-timestamp", "0")
        if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > 300:
            return False
        secret = self.secret.removeprefix("whsec_")
        key = secret.encode() if self.bugs.literal_key else base64.b64decode(secret)
        mac = hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
        expected = "v1," + base64.b64encode(mac).decode()
        given = headers.get("webhook-signature", "").split(" ")
        return any(hmac.compare_digest(expected, g) for g in given)

    def start(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                headers = {k.lower(): v for k, v in self.headers.items()}
                status = receiver.take(body, headers)
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/webhooks/pix"

    def take(self, body: bytes, headers: dict[str, str]) -> int:
        if not self.verified(body, headers):
            return 401
        with self._lock:
            msg_id = headers.get("webhook-id", "")
            if msg_id not in self.told:
                self.told[msg_id] = json.loads(body)
        return 204

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def events(self, kind: str, **match: object) -> list[dict[str, Any]]:
        with self._lock:
            found = [e for e in self.told.values() if e["type"] == kind]
        return [e for e in found if all(e["data"].get(k) == v for k, v in match.items())]

    def wait_for(
        self, kinds: list[str], timeout: float = 3.0, **match: object
    ) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for kind in kinds:
                found = self.events(kind, **match)
                if found:
                    return found[0]
            time.sleep(0.025)
        return None


class PixClient:
    """The shop's client of the PIX hub API."""

    def __init__(
        self,
        base_url: str,
        auth: tuple[str, str],
        receiver: Receiver,
        *,
        timeout: float = 5.0,
        bugs: Bugs | None = None,
    ) -> None:
        self._http = httpx.Client(
            base_url=base_url, auth=auth, headers={"accept": "application/json"}, timeout=timeout
        )
        self._receiver = receiver
        self._bugs = bugs or Bugs()

    def close(self) -> None:
        self._http.close()

    def _post(self, path: str, body: dict[str, object]) -> httpx.Response:
        if self._bugs.no_content_type:
            return self._http.post(path, content=json.dumps(body))
        return self._http.post(path, json=body)

    def _cents(self, reais: float) -> int | float:
        # 10.0 reais: 1000 cents. The bug keeps the float (1000.0), which JSON writes as such.
        return reais * 100 if self._bugs.float_amount else round(reais * 100)

    def create_charge(self, reais: float, description: str) -> dict[str, Any]:
        """A charge; a 503 is waited out as its Retry-After asks (three tries)."""
        for attempt in range(1, 4):
            r = self._post(
                "/hub/transactions/in", {"amount": self._cents(reais), "description": description}
            )
            if r.status_code == 200:
                result: dict[str, Any] = r.json()
                return result
            temporary = r.status_code in (500, 503) or (
                self._bugs.retry_permanent and r.status_code == 501
            )
            if not temporary:
                raise PermanentError(f"{r.status_code} {r.text}")
            if attempt == 3:
                break
            if not self._bugs.ignore_retry_after:
                time.sleep(max(int(r.headers.get("retry-after", "1")), 1) + 0.05)
        raise TemporaryError(f"{r.status_code} {r.text}")

    def payout(self, order: Order) -> PayoutResult:
        """Pays an order out; a payout whose answer was lost is reconciled, never sent again."""
        description = f"Pedido {order.id}"
        for attempt in range(1, 4):
            tried = description
            if self._bugs.retry_with_new_description and attempt > 1:
                tried = f"{description} (tentativa {attempt})"
            body: dict[str, object] = {
                "amount": order.amount,
                "pix_key": order.pix_key,
                "pix_type": order.pix_type,
                "description": tried,
            }
            try:
                r = self._post("/hub/transactions/out", body)
            except httpx.TimeoutException:
                if self._bugs.resend_after_timeout and attempt == 1:
                    time.sleep(1)
                    continue
                return self._reconcile(order, description)
            if r.status_code == 200:
                status = r.json()["status"]
                return (
                    "paid"
                    if status == "success"
                    else "pending"
                    if status == "pending"
                    else "failed"
                )
            if r.status_code == 501 and self._bugs.retry_permanent:
                continue
            if r.status_code < 500 or r.status_code == 501:
                raise PermanentError(f"{r.status_code} {r.text}")
            if self._bugs.retry_with_new_description and attempt == 1:
                continue
            reconciled = self._reconcile(order, description)
            if self._bugs.resend_once_reconciled and reconciled == "paid":
                again = {**body, "description": f"{description} (reenvio)"}
                self._post("/hub/transactions/out", again)
            return reconciled
        raise TemporaryError("gave up")

    def _reconcile(self, order: Order, description: str) -> PayoutResult:
        told = self._receiver.wait_for(
            ["transfer.succeeded", "transfer.pending", "transfer.failed"],
            amount=order.amount,
            pix_key=order.pix_key,
            description=description,
        )
        if told is None:
            return "unknown"
        kind = told["type"]
        return (
            "paid"
            if kind == "transfer.succeeded"
            else "pending"
            if kind == "transfer.pending"
            else "failed"
        )
