"""The pytest plugin (entry point ``pytest11``, loaded by installing the package).

``pix_sandbox`` (session): the sandbox at ``PIX_SANDBOX_URL`` with ``PIX_SANDBOX_ADMIN_TOKEN``
when they are set (``pix-sandbox exec`` sets them), else one started for the session and
stopped after it. Under pytest-xdist each worker is its own session: its own sandbox when it
starts them, and tenants of its own either way. ``pix_tenant``: a fresh company per test,
balance 0. ``pix_tenant_factory(balance=..., name=...)``: as many as a test needs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from .errors import CliNotFoundError, SandboxStartError
from .sandbox import Sandbox, Tenant, TenantFactory, connect, start


@pytest.fixture(scope="session")
def pix_sandbox() -> Iterator[Sandbox]:
    """One sandbox for the session (per xdist worker): connected, or started and stopped."""
    url = os.environ.get("PIX_SANDBOX_URL")
    if not url:
        failure: str | None = None
        try:
            started = start()
        except (CliNotFoundError, SandboxStartError) as err:
            failure = f"pix_sandbox fixture: {err}"
        if failure is not None:
            # Its message says what to do: no traceback through this package, no chained copy.
            pytest.fail(failure, pytrace=False)
        with started as sandbox:
            yield sandbox
        return
    token = os.environ.get("PIX_SANDBOX_ADMIN_TOKEN")
    if not token:
        pytest.fail(
            f"PIX_SANDBOX_URL is set ({url}) but PIX_SANDBOX_ADMIN_TOKEN is not: the pix_sandbox "
            "fixture needs the admin token of that sandbox to make tenants",
            pytrace=False,
        )
    with connect(url, token) as sandbox:
        yield sandbox


@pytest.fixture
def pix_tenant_factory(pix_sandbox: Sandbox) -> TenantFactory:
    """Makes fresh companies: ``pix_tenant_factory(balance=50_000, name="Padaria")``."""

    def make(balance: int = 0, name: str | None = None) -> Tenant:
        return pix_sandbox.tenant(balance, name)

    return make


@pytest.fixture
def pix_tenant(pix_tenant_factory: TenantFactory) -> Tenant:
    """A fresh company of its own for this test, balance 0."""
    return pix_tenant_factory()
