"""The pytest plugin, in pytest runs of their own (pytester): the fixtures, PIX_SANDBOX_URL as
`pix-sandbox exec` sets it, and pytest-xdist with two workers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pix_sandbox import Sandbox

from .support import running

RECORDING = """
import json, os

def record(sandbox, *tenants):
    with open(os.environ["RECORD"], "a") as out:
        for t in tenants:
            line = {"worker": os.environ.get("PYTEST_XDIST_WORKER", "main"), "url": sandbox.url,
                    "pid": sandbox.pid, "company": t.company_id, "user": t.user_id}
            out.write(json.dumps(line) + "\\n")
"""

FIXTURES = """
from recording import record

def test_a_fresh_tenant_per_test(pix_sandbox, pix_tenant):
    assert pix_tenant.control.balance() == 0
    record(pix_sandbox, pix_tenant)

def test_the_factory_makes_as_many_as_asked(pix_sandbox, pix_tenant, pix_tenant_factory):
    rich = pix_tenant_factory(balance=5000, name="Padaria")
    poor = pix_tenant_factory()
    assert (rich.control.balance(), poor.control.balance()) == (5000, 0)
    assert len({pix_tenant.company_id, rich.company_id, poor.company_id}) == 3
    record(pix_sandbox, pix_tenant, rich, poor)
"""


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def inner(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    pytester.makepyfile(recording=RECORDING)
    monkeypatch.setenv("RECORD", str(pytester.path / "record.jsonl"))
    monkeypatch.delenv("PIX_SANDBOX_URL", raising=False)
    monkeypatch.delenv("PIX_SANDBOX_ADMIN_TOKEN", raising=False)
    return pytester


def test_the_fixtures_start_one_sandbox_for_the_session_and_stop_it(inner: pytest.Pytester) -> None:
    inner.makepyfile(test_fixtures=FIXTURES)
    inner.runpytest_subprocess().assert_outcomes(passed=2)
    seen = records(inner.path / "record.jsonl")
    assert len(seen) == 4
    assert len({r["url"] for r in seen}) == 1  # one sandbox for the session
    assert len({r["company"] for r in seen}) == 4  # a company per tenant
    pid = seen[0]["pid"]
    assert isinstance(pid, int)
    assert not running(pid)


def test_with_pix_sandbox_url_the_fixture_connects_and_leaves_it_running(
    inner: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, pix_sandbox: Sandbox
) -> None:
    monkeypatch.setenv("PIX_SANDBOX_URL", pix_sandbox.url)
    monkeypatch.setenv("PIX_SANDBOX_ADMIN_TOKEN", pix_sandbox.admin_token)
    inner.makepyfile(test_fixtures=FIXTURES)
    inner.runpytest_subprocess().assert_outcomes(passed=2)
    seen = records(inner.path / "record.jsonl")
    assert {(r["url"], r["pid"]) for r in seen} == {(pix_sandbox.url, None)}
    rich = [r for r in seen if pix_sandbox.control.balance(r["user"]) == 5000]
    assert len(rich) == 1  # made in this sandbox, which still answers
    assert pix_sandbox.control.health()["status"] == "ok"


def test_pix_sandbox_url_without_the_admin_token_says_so(
    inner: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PIX_SANDBOX_URL", "http://127.0.0.1:9")
    inner.makepyfile(test_fixtures=FIXTURES)
    result = inner.runpytest_subprocess()
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(
        ["*PIX_SANDBOX_URL is set (http://127.0.0.1:9) but PIX_SANDBOX_ADMIN_TOKEN is not*"]
    )


def test_without_a_cli_the_fixture_says_where_it_looked_without_a_traceback(
    inner: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PIX_SANDBOX_BIN", raising=False)
    monkeypatch.setenv("PATH", str(inner.path))
    inner.makepyfile(test_fixtures=FIXTURES)
    result = inner.runpytest_subprocess()
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(
        ["*pix_sandbox fixture: no pix-sandbox command found*", "*pix-sandbox on PATH: not found*"]
    )
    out = result.stdout.str()
    assert "def find_cli" not in out  # no traceback through the package
    # The short summary repeats each message, cut or not depending on the terminal's width.
    errors = out.split("short test summary info")[0]
    assert errors.count("no pix-sandbox command found") == 2  # once per test, not chained twice


def test_under_xdist_each_worker_has_its_own_sandbox_and_tenants(inner: pytest.Pytester) -> None:
    tests = "\n".join(
        f"def test_{i}(pix_sandbox, pix_tenant):\n"
        "    time.sleep(0.05)\n"
        "    pix_tenant.control.charges  # a tenant of this worker's sandbox\n"
        "    record(pix_sandbox, pix_tenant)\n"
        for i in range(8)
    )
    inner.makepyfile(test_many="import time\nfrom recording import record\n\n" + tests)
    inner.runpytest_subprocess("-n", "2").assert_outcomes(passed=8)
    seen = records(inner.path / "record.jsonl")
    by_worker: dict[str, set[tuple[str, int]]] = {}
    for r in seen:
        by_worker.setdefault(r["worker"], set()).add((r["url"], r["pid"]))
    assert sorted(by_worker) == ["gw0", "gw1"]
    assert all(len(sandboxes) == 1 for sandboxes in by_worker.values())  # one per worker
    assert len({r["url"] for r in seen}) == 2
    assert len({r["company"] for r in seen}) == 8
    assert not any(running(r["pid"]) for r in seen)
