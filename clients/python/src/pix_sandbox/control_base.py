"""What the generated control client (``control.py``, from the table of helpers of the Node
package's src/client/helpers.ts) builds on: ``call``, any endpoint with the control's
credentials, and the user a balance reads when none is named."""

from __future__ import annotations

from typing import Any

from .transport import Params, Transport


class ControlBase:
    """A control client's credentials and the one client of its sandbox."""

    def __init__(self, transport: Transport, authorization: str, user_id: str | None = None):
        self._transport = transport
        self._authorization = authorization
        self._user_id = user_id

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

    def _own_user(self, user_id: str | None) -> str:
        """``user_id``, or when None the credentials' own user (asked of /whoami once)."""
        if user_id is not None:
            return user_id
        if self._user_id is None:
            self._user_id = self.call("GET", "/whoami", what="whoami")["user_id"]
        if self._user_id is None:
            raise TypeError(
                "balance(): the admin token is no user's; "
                "name one, e.g. balance('loja-exemplo-user')"
            )
        return self._user_id


class HelperGroup:
    """A group of helpers (``control.charges``): calls with its control's credentials."""

    def __init__(self, control: ControlBase) -> None:
        self._control = control
