"""Helpers of the package's tests: contract calls as an app makes them, and whether a process
still runs."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from pix_sandbox import Tenant


def running(pid: int) -> bool:
    """True while ``pid`` is a live process (a zombie waiting for its parent is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return True


def group_running(pgid: int) -> bool:
    """True while any live process is in the process group ``pgid``."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            return True
    return False


def charge(tenant: Tenant, amount: int) -> str:
    """Creates a charge through the contract, as the app under test would; its transaction_id."""
    res = httpx.post(
        f"{tenant.base_url}/hub/transactions/in", auth=tenant.auth, json={"amount": amount}
    )
    assert res.status_code == 200, res.text
    return str(res.json()["transaction_id"])


def transfer(tenant: Tenant, amount: int, pix_key: str = "maria@example.com") -> httpx.Response:
    body = {"amount": amount, "pix_key": pix_key, "pix_type": "EMAIL"}
    return httpx.post(f"{tenant.base_url}/hub/transactions/out", auth=tenant.auth, json=body)


@dataclass
class Receiver:
    url: str
    received: list[dict[str, Any]] = field(default_factory=list)
