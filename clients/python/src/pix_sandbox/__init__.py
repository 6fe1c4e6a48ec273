"""pix-sandbox for Python test suites: start or connect to a PIX sandbox, make tenants, drive
it through its control plane, and the pytest fixtures (``pix_sandbox``, ``pix_tenant``,
``pix_tenant_factory``)."""

from importlib.metadata import PackageNotFoundError, version

from .control import Control
from .errors import CliNotFoundError, SandboxError, SandboxRequestError, SandboxStartError
from .sandbox import (
    DEFAULT_CREDENTIALS,
    Credential,
    Sandbox,
    Tenant,
    TenantFactory,
    connect,
    start,
)
from .webhooks import WebhookEvent

try:
    __version__ = version("pix-sandbox")
except PackageNotFoundError:  # imported from the sources, not installed
    __version__ = "0.0.0"

__all__ = [
    "DEFAULT_CREDENTIALS",
    "CliNotFoundError",
    "Control",
    "Credential",
    "Sandbox",
    "SandboxError",
    "SandboxRequestError",
    "SandboxStartError",
    "Tenant",
    "TenantFactory",
    "WebhookEvent",
    "__version__",
    "connect",
    "start",
]
