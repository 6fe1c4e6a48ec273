"""A sandbox server this process started, and the promise that none outlives it.

Four layers, each for what the others cannot see: ``close()`` (and the context manager and the
pytest fixture that call it); an ``atexit`` hook for every sandbox still running when Python
exits (Ctrl-C included: pytest turns it into an exit); SIGTERM and SIGHUP handlers, which Python
by default dies of without running ``atexit``; and, for ``kill -9`` and crashes, the guard
(``_guard.py``), which stops the server's process group when this process's pipe to it closes
or this process is gone.
"""

from __future__ import annotations

import atexit
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from contextlib import suppress
from pathlib import Path
from typing import IO

from .errors import SandboxStartError

GUARD = Path(__file__).with_name("_guard.py")
LISTENING = re.compile(r" listening on (http://\S+)")

# The variables the server reads its settings from (README.md, Configuration): a CI job's,
# meant for a service container, are not this sandbox's, so they are left out of its environment
# and start() passes what its call asks for as flags. test/package/python-settings.test.ts keeps
# this list the server's.
SERVER_SETTINGS = frozenset(
    {
        "PORT",
        "HOST",
        "DATABASE",
        "SCENARIO",
        "SCENARIOS_DIR",
        "PUBLIC_URL",
        "SANDBOX_ADMIN_TOKEN",
        "LOG_LEVEL",
        "SEED",
        "START_TIME",
        "WEBHOOK_ALLOWED_HOSTS",
        "MAX_COMPANIES",
        "ALLOWED_HOSTS",
    }
)


def server_environment(given: dict[str, str]) -> dict[str, str]:
    """This process's environment (PATH, HOME, NODE_OPTIONS...) less the server's settings,
    plus ``given``."""
    return {**{k: v for k, v in os.environ.items() if k not in SERVER_SETTINGS}, **given}


class ServerProcess:
    """The running CLI: its address once it listens, its pid, its last lines of output."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.owner = os.getpid()
        self.output: deque[str] = deque(maxlen=100)
        self.pid: int | None = None
        self.url: str | None = None
        self._changed = threading.Condition()
        self._stopped = False
        if sys.platform == "win32":  # no process groups to stop: the server is the child itself
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env=env, creationflags=subprocess.CREATE_NEW_PROCESS_GROUP,
            )  # fmt: skip
            self.pid = self.proc.pid
        else:
            # -I -S: no site, no environment variables of Python's: the guard starts in ~20 ms.
            guarded = [sys.executable, "-I", "-S", str(GUARD), str(self.owner), *argv]
            self.proc = subprocess.Popen(
                guarded, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env=env, start_new_session=True,
            )  # fmt: skip
        assert self.proc.stdout is not None
        assert self.proc.stderr is not None
        for stream in (self.proc.stdout, self.proc.stderr):
            threading.Thread(target=self._read, args=(stream,), daemon=True).start()
        _register(self)

    def _read(self, stream: IO[bytes]) -> None:
        # Only the main thread may take the signals the package handles: one delivered to this
        # thread would not wake the main thread from a sleep, and its handler would wait for it.
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_BLOCK, _HANDLED)
        for raw in stream:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            with self._changed:
                if self.pid is None and line.startswith("pix-sandbox-guard "):
                    self.pid = int(line.split()[1])
                    continue
                found = LISTENING.search(line)
                if self.url is None and found:
                    self.url = found.group(1)
                self.output.append(line)
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def wait_listening(self, timeout: float) -> str:
        """The server's address, once its banner names it."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while self.url is None:
                left = deadline - time.monotonic()
                if self.proc.poll() is not None or left <= 0:
                    break
                self._changed.wait(min(left, 0.1))
            url = self.url
        if url is None:
            self.stop()
            happened = (
                f"did not listen within {timeout:g} s"
                if self.proc.returncode is None or self.proc.returncode < 0
                else "exited before it listened"
            )
            raise SandboxStartError(f"pix-sandbox {happened}{self.why_silent()}")
        return url

    def why_silent(self) -> str:
        """What to add to an error when the server does not answer: that it is gone, and why."""
        code = self.proc.poll()
        if code is None and not self._stopped:
            return ""
        last = "\n".join(list(self.output)[-20:]) or "(no output)"
        return f"; the sandbox process has exited (code {code}); its last output:\n{last}"

    def stop(self) -> None:
        """Stops the server and waits until it is gone. Idempotent; a no-op in a forked child."""
        if self._stopped or os.getpid() != self.owner:
            return
        self._stopped = True
        _unregister(self)
        if sys.platform == "win32":
            self.proc.terminate()
            self.proc.wait()
            return
        assert self.proc.stdin is not None
        with suppress(OSError):
            self.proc.stdin.close()  # the guard's cue: it stops the server and waits for it
        with suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)
        if self.proc.returncode != 0:  # not a clean stop: leave nothing of the group behind
            with suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


_HANDLED = {signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)}

_running: set[ServerProcess] = set()
_lock = threading.Lock()
_hooked = {"atexit": False, "signals": False}


def _register(process: ServerProcess) -> None:
    with _lock:
        _running.add(process)
        hook_atexit = not _hooked["atexit"]
        # Signal handlers can only be set from the main thread: a start() from another one
        # leaves them to the next start() from the main thread.
        hook_signals = (
            not _hooked["signals"] and threading.current_thread() is threading.main_thread()
        )
        _hooked["atexit"] = True
        _hooked["signals"] = _hooked["signals"] or hook_signals
    if hook_atexit:
        atexit.register(stop_all)
    if hook_signals:
        for name in ("SIGTERM", "SIGHUP"):
            # Only where Python would die of it without atexit: the program's own handler stays.
            signum = getattr(signal, name, None)
            if signum is not None and signal.getsignal(signum) is signal.SIG_DFL:
                signal.signal(signum, _stop_all_then_die)


def _unregister(process: ServerProcess) -> None:
    with _lock:
        _running.discard(process)


def stop_all() -> None:
    """Stops every sandbox this process started and has not closed."""
    with _lock:
        running = list(_running)
    for process in running:
        process.stop()


def _close_in_child() -> None:
    # A forked child holding the guard's pipe would keep the server alive after this process
    # dies: the sandbox is this process's (the guard also watches its owner's pid, for forks
    # made from C, which run no Python hook).
    for process in list(_running):
        if process.proc.stdin is not None:
            with suppress(OSError):
                process.proc.stdin.close()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_in_child)


def _stop_all_then_die(signum: int, frame: object) -> None:
    stop_all()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)  # then die of it, as without the handler
