"""start() and close(): a sandbox of its own on a free port, and nothing left running after it,
checked by the server's pid and its process group."""

from __future__ import annotations

import math
import os
import shutil
from datetime import datetime
from pathlib import Path

import httpx
import pytest

import pix_sandbox
from pix_sandbox import SandboxError, SandboxStartError
from pix_sandbox.schemas import ChargeRecord

from .support import charge, group_running, running

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios"


def test_start_answers_on_a_free_port_and_close_leaves_no_process() -> None:
    sandbox = pix_sandbox.start()
    pid = sandbox.pid
    assert pid is not None
    assert running(pid)
    pgid = os.getpgid(pid)
    assert pgid != os.getpgid(0)  # its own group: the terminal's Ctrl-C is pytest's to handle
    assert sandbox.url.startswith("http://127.0.0.1:")
    assert httpx.get(f"{sandbox.url}/_sandbox/health").json()["status"] == "ok"
    sandbox.close()
    assert not running(pid)
    assert not group_running(pgid)
    sandbox.close()  # a second close is harmless
    with pytest.raises(
        SandboxError, match=r"health: this sandbox \(http://127.0.0.1:\d+\) was closed"
    ):
        sandbox.control.health()


def test_the_context_manager_stops_it_even_when_the_block_raises() -> None:
    pids: list[int | None] = []

    def fail_inside() -> None:
        with pix_sandbox.start() as sandbox:
            pids.append(sandbox.pid)
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        fail_inside()
    assert pids[0] is not None
    assert not running(pids[0])


def test_two_sandboxes_are_two_servers_with_their_own_state() -> None:
    with pix_sandbox.start() as one, pix_sandbox.start() as two:
        assert one.url != two.url
        assert one.pid != two.pid
        shop = one.tenant(balance=10)
        assert two.control.call("GET", "/charges")["data"] == []
        with pytest.raises(pix_sandbox.SandboxRequestError) as refused:
            two.control.balance(shop.user_id)
        assert refused.value.status == 404


def _ttl(record: ChargeRecord) -> float:
    """Seconds from a charge's creation to its expiry (which counts whole seconds)."""
    at = [
        datetime.fromisoformat(record[k].replace("Z", "+00:00"))
        for k in ("created_at", "expiration")
    ]
    return math.ceil((at[1] - at[0]).total_seconds())


def test_a_scenario_and_settings_that_reset_keeps() -> None:
    with pix_sandbox.start(scenario="many-users", settings={"charge_ttl_seconds": 60}) as sandbox:
        assert sandbox.control.health()["scenario"] == "many-users"
        assert _ttl(sandbox.control.charges.get(charge(sandbox.tenant(), 100))) == 60
        sandbox.reset()
        assert sandbox.control.health()["scenario"] == "many-users"
        assert _ttl(sandbox.control.charges.get(charge(sandbox.tenant(), 100))) == 60
    with pix_sandbox.start() as default:
        assert default.control.health()["scenario"] == "default"
        assert _ttl(default.control.charges.get(charge(default.tenant(), 100))) == 3600


def test_a_seed_gives_the_same_ids_run_after_run() -> None:
    def first_ids(seed: str) -> tuple[str, str, str]:
        with pix_sandbox.start(seed=seed) as sandbox:
            shop = sandbox.tenant()
            return shop.company_id, shop.user_id, shop.client_secret

    assert first_ids("py-1") == first_ids("py-1")
    assert first_ids("py-1") != first_ids("py-2")


def test_a_scenario_that_does_not_exist_stops_the_start_with_the_servers_words() -> None:
    with pytest.raises(SandboxStartError) as failed:
        pix_sandbox.start(scenario="no-such-scenario")
    message = str(failed.value)
    assert "pix-sandbox exited before it listened" in message
    assert "no-such-scenario" in message


def test_server_settings_in_the_environment_are_not_this_sandboxs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A CI job's settings, meant for a service container: start() passes what its call asks for.
    for name, value in {
        "SCENARIO": "many-users",
        "SEED": "ci",
        "START_TIME": "2020-01-01T00:00:00Z",
        "PUBLIC_URL": "http://ci-service.example:8080",
        "WEBHOOK_ALLOWED_HOSTS": "ci-receiver.example",
        "SCENARIOS_DIR": str(tmp_path),
        "MAX_COMPANIES": "100",
        "LOG_LEVEL": "debug",
    }.items():
        monkeypatch.setenv(name, value)
    with pix_sandbox.start() as one, pix_sandbox.start() as two:
        health = one.control.health()
        assert health["scenario"] == "default"
        assert not health["now"].startswith("2020-")  # not frozen at START_TIME
        assert one.tenant().company_id != two.tenant().company_id  # no SEED
        shop = one.tenant()
        location = one.control.charges.get(charge(shop, 100))["location"]
        assert "ci-service.example" not in location
        assert one.control.webhooks.subscribe("http://127.0.0.1:9/hooks")["url"]
        assert one._process is not None
        assert any("log level warn (--log-level)" in line for line in one._process.output)


def test_scenarios_dir_names_a_folder_of_your_own(tmp_path: Path) -> None:
    shutil.copy(SCENARIOS / "many-users.yaml", tmp_path / "mine.yaml")
    with pix_sandbox.start(scenario="mine", scenarios_dir=tmp_path) as sandbox:
        assert sandbox.control.health()["scenario"] == "mine"
