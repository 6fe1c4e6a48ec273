"""What the package raises: a refused control call, a sandbox that cannot be found or started."""

from __future__ import annotations


class SandboxError(Exception):
    """Every error of this package: catch this to catch them all."""


class SandboxRequestError(SandboxError):
    """A control call the sandbox refused: its HTTP ``status`` and the ``detail`` it answered."""

    def __init__(self, status: int, detail: str, what: str) -> None:
        super().__init__(f"{what}: {status} {detail}")
        self.status = status
        self.detail = detail


class CliNotFoundError(SandboxError, FileNotFoundError):
    """``start()`` found no ``pix-sandbox`` command; the message names every place it looked."""


class SandboxStartError(SandboxError):
    """The ``pix-sandbox`` command ran but no sandbox answered; the message carries its output."""
