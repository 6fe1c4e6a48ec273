"""The fixtures of the package's tests, beside the plugin's own (``pix_sandbox``, started from
PIX_SANDBOX_BIN: in CI, the project's built CLI): a webhook receiver, the control plane's paths."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from .support import Receiver


@pytest.fixture(scope="session")
def receiver() -> Iterator[Receiver]:
    """A webhook endpoint that records every request and answers 204."""
    got: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            headers = {k.lower(): v for k, v in self.headers.items()}
            got.append({"path": self.path, "headers": headers, "body": json.loads(body)})
            self.send_response(204)
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield Receiver(f"http://127.0.0.1:{server.server_address[1]}", got)
    server.shutdown()
    server.server_close()
