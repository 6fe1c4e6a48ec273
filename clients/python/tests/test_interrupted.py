"""A sandbox never outlives the Python process that started it, however that process ends:
a script or a pytest run, stopped by SIGINT (Ctrl-C), SIGTERM (a CI cancel), SIGHUP (a closed
terminal) or SIGKILL (a CI timeout, the OOM killer). Checked by the server's pid."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import suppress
from pathlib import Path

import pytest

import pix_sandbox

from .support import group_running, running

SCRIPT = """
import sys, time, pix_sandbox
sandbox = pix_sandbox.start()
print(sandbox.pid, flush=True)
time.sleep(60)
"""

FROM_A_THREAD = """
import threading, time, pix_sandbox
started = []
worker = threading.Thread(target=lambda: started.append(pix_sandbox.start()))
worker.start()
worker.join()
started.append(pix_sandbox.start())  # the main thread's: signal handlers can be set here
print(started[0].pid, started[1].pid, flush=True)
time.sleep(60)
"""

# A child forked after start() holds what the process held, the guard's pipe included; the
# parent then dies of SIGKILL. Python's os.fork(), and a fork from C (an extension's), which runs
# none of Python's fork hooks.
FORKED = """
import ctypes, multiprocessing, os, sys, time, pix_sandbox
sandbox = pix_sandbox.start()
if sys.argv[1] == "multiprocessing":
    worker = multiprocessing.get_context("fork").Process(target=time.sleep, args=(60,))
    worker.start()
    child = worker.pid
else:
    child = os.fork() if sys.argv[1] == "os.fork" else ctypes.PyDLL(None).fork()
    if child == 0:
        time.sleep(60)
        os._exit(0)
print(sandbox.pid, child, flush=True)
time.sleep(60)
"""

TEST_FILE = """
import threading
import time

def test_waits(pix_sandbox):
    print(pix_sandbox.pid, flush=True)
    time.sleep(60)
"""


def _server_of(proc: subprocess.Popen[str]) -> int:
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.strip().isdigit():
            return int(line)
    raise AssertionError(f"no pid printed; exit code {proc.wait()}")


def _gone_within(pid: int, pgid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while running(pid) or group_running(pgid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _interrupt(argv: list[str], cwd: Path, signum: int) -> None:
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, text=True)
    try:
        pid = _server_of(proc)
        pgid = os.getpgid(pid)
        proc.send_signal(signum)
        proc.wait(timeout=20)
    finally:
        proc.kill()
    if signum == signal.SIGKILL:
        # No handler sees SIGKILL: the guard notices its pipe closing and stops the group
        # (SIGTERM, then SIGKILL after its 5 s grace: the wait covers both, and a loaded machine).
        assert _gone_within(pid, pgid, 15), f"server {pid} outlived a SIGKILLed parent"
    else:
        # Stopped by the dying process itself, before it exited.
        assert not running(pid), f"server {pid} outlived its parent ({signal.Signals(signum).name})"
        assert not group_running(pgid)


def by_name(*signals: signal.Signals) -> pytest.MarkDecorator:
    return pytest.mark.parametrize("signum", signals, ids=[s.name for s in signals])


@by_name(signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL)
def test_a_script_that_is_stopped_stops_its_sandbox(signum: int, tmp_path: Path) -> None:
    _interrupt([sys.executable, "-c", SCRIPT], tmp_path, signum)


@by_name(signal.SIGINT, signal.SIGTERM, signal.SIGKILL)
def test_a_pytest_run_that_is_interrupted_stops_its_sandbox(signum: int, tmp_path: Path) -> None:
    (tmp_path / "test_wait.py").write_text(TEST_FILE)
    argv = [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "test_wait.py"]
    _interrupt(argv, tmp_path, signum)


@pytest.mark.parametrize("fork", ["os.fork", "fork from C", "multiprocessing"])
def test_a_forked_child_does_not_keep_the_sandbox_of_a_killed_parent(fork: str) -> None:
    proc = subprocess.Popen([sys.executable, "-c", FORKED, fork], stdout=subprocess.PIPE, text=True)
    child: int | None = None
    try:
        assert proc.stdout is not None
        server, child = (int(p) for p in proc.stdout.readline().split())
        pgid = os.getpgid(server)
        proc.kill()
        proc.wait(timeout=20)
        assert running(child)
        # The guard's SIGTERM, then SIGKILL after its 5 s grace: the wait covers both, and load.
        assert _gone_within(server, pgid, 15), f"server {server} outlived its SIGKILLed parent"
    finally:
        proc.kill()
        if child is not None:
            with suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)


def test_sandboxes_started_from_another_thread_first_are_stopped_on_sigterm(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", FROM_A_THREAD], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        pids = [int(p) for p in proc.stdout.readline().split()]
        assert len(pids) == 2
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    finally:
        proc.kill()
    assert [running(pid) for pid in pids] == [False, False]


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
def test_only_the_main_thread_takes_the_signals_that_stop_the_sandbox() -> None:
    # A SIGTERM the kernel hands to a reader thread would not wake the main thread's sleep: the
    # handler that stops the sandbox would wait for it (a script asleep 60 s outlived a 20 s wait).
    with pix_sandbox.start():
        readers = [
            t
            for t in threading.enumerate()
            if t is not threading.main_thread() and "_read" in t.name
        ]
        assert len(readers) >= 2  # this sandbox's two, and any other still running
        for t in readers:
            status = Path(f"/proc/self/task/{t.native_id}/status").read_text()
            blocked = int(
                next(line.split()[1] for line in status.splitlines() if line.startswith("SigBlk:")),
                16,
            )
            for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                assert blocked & (1 << (signum - 1)), (
                    f"{t.name} may take {signal.Signals(signum).name}"
                )
