"""A sandbox and its tenants: ``connect()`` to one that runs, ``start()`` one of your own."""

from __future__ import annotations

import base64
import os
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal, Protocol

from .cli import find_cli
from .control import Control
from .errors import SandboxError, SandboxStartError
from .process import ServerProcess, server_environment
from .schemas import NewCompany, NewCompanyProviders, Readiness
from .schemas import Tenant as NewTenant
from .transport import Transport


@dataclass(frozen=True)
class Credential:
    """A client id and secret: ``auth`` for httpx or requests, ``authorization`` for a header."""

    client_id: str
    client_secret: str = field(repr=False)

    @property
    def auth(self) -> tuple[str, str]:
        return (self.client_id, self.client_secret)

    @property
    def authorization(self) -> str:
        token = base64.b64encode(f"{self.client_id}:{self.client_secret}".encode()).decode()
        return f"Basic {token}"


@dataclass(frozen=True)
class DefaultCredentials:
    """The default scenario's credentials (the project's README, "Default credentials")."""

    main: Credential = Credential("sandbox-client", "sandbox-secret")
    no_provider: Credential = Credential("no-provider", "no-provider-secret")
    charges_only: Credential = Credential("charges-only", "charges-only-secret")
    inactive: Credential = Credential("inactive", "inactive-secret")
    production: Credential = Credential("production-client", "production-secret")
    empty_balance: Credential = Credential("empty-balance", "empty-balance-secret")


DEFAULT_CREDENTIALS = DefaultCredentials()


@dataclass(frozen=True, kw_only=True)
class Tenant(Credential):
    """A company of its own: its credentials, ids, the contract's ``base_url`` and a ``control``
    that sees only this company."""

    base_url: str
    company_id: str
    user_id: str
    control: Control = field(repr=False, compare=False)


class TenantFactory(Protocol):
    """What the ``pix_tenant_factory`` fixture is: ``factory(balance=..., name=...)``."""

    def __call__(self, balance: int = 0, name: str | None = None) -> Tenant: ...


class Sandbox:
    """A running sandbox: its addresses, the admin's ``control``, and fresh tenants."""

    def __init__(
        self,
        url: str,
        admin_token: str,
        *,
        settings: Mapping[str, Any] | None = None,
        process: ServerProcess | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self.base_url = f"{self.url}/api/v1"
        self.admin_token = admin_token
        self.credentials = DEFAULT_CREDENTIALS
        self._settings = dict(settings) if settings else None
        self._process = process
        self._transport = Transport(self.url, why_silent=process.why_silent if process else None)
        self.control = Control(self._transport, f"Bearer {admin_token}")

    @property
    def pid(self) -> int | None:
        """The server's process id, for a sandbox ``start()`` started; None for ``connect()``."""
        return self._process.pid if self._process else None

    def tenant(
        self,
        balance: int = 0,
        name: str | None = None,
        *,
        api_active: bool | None = None,
        providers: NewCompanyProviders | None = None,
        permissions: list[Literal["charge", "transfer"]] | None = None,
    ) -> Tenant:
        """A fresh, isolated company (its own credentials, balance in cents, Providers)."""
        body: NewCompany = {"balance": balance}
        if name is not None:
            body["name"] = name
        if api_active is not None:
            body["api_active"] = api_active
        if providers is not None:
            body["providers"] = providers
        if permissions is not None:
            body["permissions"] = permissions
        made: NewTenant = self.control.call("POST", "/companies", json=body, what="tenant")
        return Tenant(
            client_id=made["client_id"],
            client_secret=made["client_secret"],
            base_url=self.base_url,
            company_id=made["company_id"],
            user_id=made["user_id"],
            control=Control(self._transport, f"Basic {made['token']}", made["user_id"]),
        )

    def reset(self) -> None:
        """Back to the start: state, clock, journal, outcomes, faults, webhooks (then the
        ``settings`` given to ``start()`` again). Every tenant is gone."""
        self.control.reset()
        self._apply_settings()

    def readiness(self, company_id: str | None = None) -> Readiness:
        """The readiness report of every company, or of ``company_id``'s (docs/READINESS.md)."""
        return self.control.readiness(company_id)

    def close(self) -> None:
        """Closes the connections; stops the server if ``start()`` started it."""
        self._transport.close()
        if self._process:
            self._process.stop()

    def _apply_settings(self) -> None:
        if self._settings:
            self.control.call(
                "POST",
                "/scenarios",
                json={"document": {"settings": self._settings}},
                what="settings",
            )

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Sandbox {self.url}{f' pid {self.pid}' if self.pid else ''}>"


def connect(url: str, admin_token: str) -> Sandbox:
    """The sandbox already running at ``url`` (Docker, a CI service, ``pix-sandbox exec``).
    Checks that it answers and takes the token; ``close()`` closes only the connections."""
    sandbox = Sandbox(url, admin_token)
    try:
        sandbox.control.call("GET", "/whoami", what=f"connect to {sandbox.url}")
    except BaseException:
        sandbox.close()
        raise
    return sandbox


def start(
    scenario: str | None = None,
    seed: str | None = None,
    settings: Mapping[str, Any] | None = None,
    *,
    scenarios_dir: str | os.PathLike[str] | None = None,
    timeout: float = 30,
) -> Sandbox:
    """Starts a sandbox of your own: the ``pix-sandbox`` command (``PIX_SANDBOX_BIN``, else
    ``./node_modules/.bin/pix-sandbox``, else on ``PATH``) on a free port of 127.0.0.1, in
    memory, with ``scenario`` (default ``default``) from ``scenarios_dir`` (default: the
    package's), ``seed`` and ``settings`` (scenario settings, applied again by ``reset()``).
    The server's settings in the environment (``SEED``, ``SCENARIO``...) are not read.
    ``close()`` stops it; nothing outlives this process."""
    argv = [*find_cli(), "--port", "0", "--host", "127.0.0.1", "--db", ":memory:"]
    if scenario is not None:
        argv += ["--scenario", scenario]
    if scenarios_dir is not None:
        argv += ["--scenarios-dir", os.fspath(scenarios_dir)]
    if seed is not None:
        argv += ["--seed", seed]
    argv += ["--log-level", "warn"]
    token = f"pix-sandbox-py-{secrets.token_urlsafe(24)}"
    process = ServerProcess(argv, server_environment({"SANDBOX_ADMIN_TOKEN": token}))
    try:
        url = process.wait_listening(timeout)
        sandbox = Sandbox(url, token, settings=settings, process=process)
        _wait_healthy(sandbox, time.monotonic() + timeout)
        sandbox._apply_settings()
    except BaseException:
        process.stop()
        raise
    return sandbox


def _wait_healthy(sandbox: Sandbox, deadline: float) -> None:
    while True:
        try:
            sandbox.control.health()
            return
        except SandboxError as err:
            if time.monotonic() > deadline:
                raise SandboxStartError(f"pix-sandbox listens but does not answer: {err}") from err
            time.sleep(0.01)
