"""connect(): a sandbox that is already running (Docker, a CI service, pix-sandbox exec)."""

from __future__ import annotations

import socket

import pytest

from pix_sandbox import Sandbox, SandboxError, SandboxRequestError, connect


def test_connect_drives_a_running_sandbox_and_close_leaves_it_running(pix_sandbox: Sandbox) -> None:
    with connect(pix_sandbox.url + "/", pix_sandbox.admin_token) as remote:
        assert (remote.url, remote.base_url) == (pix_sandbox.url, pix_sandbox.base_url)
        assert remote.pid is None
        shop = remote.tenant(balance=123)
        assert pix_sandbox.control.balance(shop.user_id) == 123
    assert pix_sandbox.control.health()["status"] == "ok"  # still running
    with pytest.raises(SandboxError, match="was closed"):
        remote.control.health()


def test_connect_refuses_a_wrong_admin_token(pix_sandbox: Sandbox) -> None:
    with pytest.raises(SandboxRequestError) as refused:
        connect(pix_sandbox.url, "not-the-admin-token")
    assert (refused.value.status, refused.value.detail) == (401, "Not authenticated")
    assert str(refused.value).startswith(f"connect to {pix_sandbox.url}: 401")


def test_connect_says_when_nothing_answers() -> None:
    with socket.socket() as s:  # a port that was free a moment ago
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(SandboxError, match=rf"no answer from http://127.0.0.1:{port}"):
        connect(f"http://127.0.0.1:{port}", "x" * 16)
