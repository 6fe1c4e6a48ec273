"""The app's webhook endpoint, standard library only: it verifies each delivery's Standard
Webhooks signature (https://www.standardwebhooks.com) with the subscription's secret, refuses a
stale or forged one, and acknowledges each event once (a retry or duplicate carries the same
``webhook-id``: answered 2xx, not processed again)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

TOLERANCE_SECONDS = 5 * 60


def verify(secret: str, headers: dict[str, str], body: bytes, now: float | None = None) -> bool:
    """True when one of the ``v1`` signatures is the HMAC-SHA256 of ``id.timestamp.body`` under
    the secret (``whsec_`` + base64 key) and the timestamp is within five minutes of now."""
    msg_id = headers.get("webhook-id", "")
    timestamp = headers.get("webhook-timestamp", "")
    if not msg_id or not timestamp.isdigit():
        return False
    if abs((time.time() if now is None else now) - int(timestamp)) > TOLERANCE_SECONDS:
        return False
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{msg_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    for signature in headers.get("webhook-signature", "").split():
        version, _, value = signature.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return True
    return False


class WebhookReceiver:
    """Listens at ``url`` (127.0.0.1, a free port); ``events``: the verified ones, once each."""

    def __init__(self, secret: str) -> None:
        self.secret = secret
        self.events: list[dict[str, Any]] = []
        self.refused = 0
        self._seen: set[str] = set()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/webhooks"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                headers = {k.lower(): v for k, v in self.headers.items()}
                self.send_response(receiver.receive(headers, body))
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        return Handler

    def receive(self, headers: dict[str, str], body: bytes) -> int:
        """The status to answer: 204 for a verified event (new or not), 400 otherwise."""
        if not verify(self.secret, headers, body):
            with self._lock:
                self.refused += 1
            return 400
        with self._lock:
            if headers["webhook-id"] not in self._seen:
                self._seen.add(headers["webhook-id"])
                self.events.append(json.loads(body))  # a real app marks the order paid here
        return 204

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> WebhookReceiver:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
