"""One HTTP client per sandbox, shared by its controls (the admin's and every tenant's), so a
suite that makes a tenant per test opens no connection per test. Refusals become
``SandboxRequestError``; a sandbox that does not answer, a ``SandboxError`` saying why."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote

import httpx

from .errors import SandboxError, SandboxRequestError

Params = Mapping[str, str | int | float | None]


def segment(value: str) -> str:
    """An id as one path segment, whatever it holds."""
    return quote(value, safe="")


def _detail(response: httpx.Response) -> str:
    """The ``detail`` of a ``{detail}`` body; otherwise the body as it came."""
    try:
        body = response.json()
    except ValueError:
        return response.text or response.reason_phrase
    if isinstance(body, dict) and isinstance(body.get("detail"), str):
        return str(body["detail"])
    return json.dumps(body, ensure_ascii=False)


class Transport:
    """The control plane of the sandbox at ``url`` over one ``httpx.Client``."""

    def __init__(self, url: str, *, why_silent: Callable[[], str] | None = None) -> None:
        self.url = url.rstrip("/")
        self._why_silent = why_silent
        self._closed = False
        # A control call waits for what it asks (clock/advance runs every due piece of work).
        self._http = httpx.Client(base_url=f"{self.url}/_sandbox", timeout=60.0)

    def call(
        self,
        method: str,
        path: str,
        authorization: str,
        what: str,
        *,
        json: object = None,
        params: Params | None = None,
    ) -> Any:
        """The JSON answer of a 2xx (``None`` for an empty one); raises on anything else."""
        if self._closed:
            raise SandboxError(f"{what}: this sandbox ({self.url}) was closed")
        query = {k: v for k, v in (params or {}).items() if v is not None}
        try:
            response = self._http.request(
                method,
                path,
                json=json,
                params=query,
                headers={"authorization": authorization},
            )
        except httpx.TransportError as err:
            why = self._why_silent() if self._why_silent else ""
            raise SandboxError(f"{what}: no answer from {self.url} ({err}){why}") from err
        if response.is_success:
            return response.json() if response.content else None
        raise SandboxRequestError(response.status_code, _detail(response), what)

    def close(self) -> None:
        self._closed = True
        self._http.close()
