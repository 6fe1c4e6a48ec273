"""Where ``start()`` finds the ``pix-sandbox`` command: ``PIX_SANDBOX_BIN``, else
``./node_modules/.bin/pix-sandbox``, else ``pix-sandbox`` on ``PATH``; an error naming all
three otherwise."""

from __future__ import annotations

import os
import shutil
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from .errors import CliNotFoundError

LOCAL = Path("node_modules", ".bin", "pix-sandbox")


def how_to_get_one() -> str:
    """What docs/INSTALL.md says: the npm package of this package's own version (one version for
    everything released together), pinned, in the folder pytest runs in; before its first release
    on npm, the tarball a clone packs; or a sandbox already running."""
    try:
        ours = version("pix-sandbox")
    except PackageNotFoundError:  # imported from the sources, not installed: no version to pin
        ours = "<version>"
    return (
        "Install it beside your tests, pinned, and run pytest from that folder:\n"
        f"  npm install --save-dev --save-exact pix-sandbox@{ours}\n"
        "Before its first release on npm, the tarball `npm ci && npm run package` makes in a clone "
        "of pix-sandbox, or a commit "
        "(https://github.com/pix-sandbox/pix-sandbox/blob/main/docs/INSTALL.md):\n"
        f"  npm install --save-dev <clone>/pix-sandbox-{ours}.tgz\n"
        "Or set PIX_SANDBOX_BIN to the command. For a sandbox already running (Docker, a CI "
        "service): connect(url, admin_token), or set PIX_SANDBOX_URL and PIX_SANDBOX_ADMIN_TOKEN "
        "for the pytest fixture."
    )


def _command(path: str) -> list[str]:
    """The argv that runs ``path``: a JavaScript file (dist/cli.js of a clone) runs with node."""
    if not path.endswith((".js", ".mjs", ".cjs")):
        return [path]
    node = shutil.which("node")
    if node is None:
        raise CliNotFoundError(f"{path} is a JavaScript file, and no node is on PATH to run it")
    return [node, path]


def _local() -> Path | None:
    for name in (LOCAL, LOCAL.with_suffix(".cmd")):  # npm writes a .cmd on Windows
        if (Path.cwd() / name).is_file():
            return Path.cwd() / name
    return None


def find_cli() -> list[str]:
    """The argv of the ``pix-sandbox`` command, or ``CliNotFoundError`` saying where it looked."""
    given = os.environ.get("PIX_SANDBOX_BIN")
    if given:
        found = shutil.which(given) or (given if Path(given).is_file() else None)
        if found is None:
            raise CliNotFoundError(
                f"PIX_SANDBOX_BIN is {given!r}, which is no file or command. "
                "Set it to the pix-sandbox command (or a checkout's dist/cli.js), or unset it to "
                "use ./node_modules/.bin/pix-sandbox or pix-sandbox on PATH."
            )
        return _command(found)
    local = _local()
    if local is not None:
        return _command(str(local))
    on_path = shutil.which("pix-sandbox")
    if on_path is not None:
        return _command(on_path)
    raise CliNotFoundError(
        "no pix-sandbox command found. start() looked at, in order:\n"
        "  1. PIX_SANDBOX_BIN: not set\n"
        f"  2. ./node_modules/.bin/pix-sandbox: not in {Path.cwd()}\n"
        "  3. pix-sandbox on PATH: not found\n" + how_to_get_one()
    )
