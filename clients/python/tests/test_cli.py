"""Where start() finds the pix-sandbox command: PIX_SANDBOX_BIN, else
./node_modules/.bin/pix-sandbox, else pix-sandbox on PATH; a message naming all three when
none is there."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

import pix_sandbox
from pix_sandbox import CliNotFoundError
from pix_sandbox.cli import find_cli

REAL = find_cli()  # as the session found it (CI: PIX_SANDBOX_BIN, the project's built CLI)


def wrapper(path: Path, marker: Path) -> Path:
    """A pix-sandbox command at ``path`` that notes its use in ``marker``, then runs the real."""
    path.parent.mkdir(parents=True, exist_ok=True)
    real = " ".join(shlex.quote(a) for a in REAL)
    path.write_text(f'#!/bin/sh\necho "$0" >> {shlex.quote(str(marker))}\nexec {real} "$@"\n')
    path.chmod(0o755)
    return path


@pytest.fixture
def nowhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No PIX_SANDBOX_BIN, an empty working directory, a PATH without pix-sandbox."""
    monkeypatch.delenv("PIX_SANDBOX_BIN", raising=False)
    (tmp_path / "work").mkdir()
    (tmp_path / "bin").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    return tmp_path


def test_none_found_names_the_three_places_it_looked(nowhere: Path) -> None:
    with pytest.raises(CliNotFoundError) as missing:
        pix_sandbox.start()
    message = str(missing.value)
    assert "PIX_SANDBOX_BIN: not set" in message
    assert f"./node_modules/.bin/pix-sandbox: not in {nowhere / 'work'}" in message
    assert "pix-sandbox on PATH: not found" in message
    assert isinstance(missing.value, FileNotFoundError)


def test_none_found_says_how_to_install_it_as_install_md_does(nowhere: Path) -> None:
    """Pinned to this package's own version (one version for both packages), and the route
    before the first release on npm: the tarball a clone packs, or a commit (docs/INSTALL.md)."""
    with pytest.raises(CliNotFoundError) as missing:
        pix_sandbox.start()
    message = str(missing.value)
    ours = pix_sandbox.__version__
    assert f"\n  npm install --save-dev --save-exact pix-sandbox@{ours}\n" in message
    assert f"\n  npm install --save-dev <clone>/pix-sandbox-{ours}.tgz\n" in message
    assert "npm ci && npm run package" in message
    assert "docs/INSTALL.md" in message
    assert "npm install --global" not in message


def test_a_pix_sandbox_bin_that_is_no_command_is_named(
    nowhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PIX_SANDBOX_BIN", "/no/such/pix-sandbox")
    with pytest.raises(
        CliNotFoundError,
        match=r"PIX_SANDBOX_BIN is '/no/such/pix-sandbox', which is no file or command",
    ):
        pix_sandbox.start()


def test_the_order_bin_then_node_modules_then_path(
    nowhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = nowhere / "used"
    on_path = wrapper(nowhere / "bin" / "pix-sandbox", marker)
    local = wrapper(nowhere / "work" / "node_modules" / ".bin" / "pix-sandbox", marker)
    given = wrapper(nowhere / "given" / "pix-sandbox", marker)

    def start_one() -> None:
        with pix_sandbox.start() as sandbox:
            assert sandbox.control.health()["status"] == "ok"

    monkeypatch.setenv("PIX_SANDBOX_BIN", str(given))
    start_one()
    monkeypatch.delenv("PIX_SANDBOX_BIN")
    start_one()
    local.unlink()
    start_one()
    assert marker.read_text().split() == [str(given), str(local), str(on_path)]
