"""The watchdog between ``start()`` and the server, run as ``python _guard.py OWNER COMMAND...``.

``start()`` (in the process OWNER, its parent) runs it as the leader of a new process group
with a pipe on its stdin. It starts COMMAND (the ``pix-sandbox`` CLI) in that group, prints
``pix-sandbox-guard <pid>`` (the server's pid) before the server can print anything, then reads
its stdin. The end of that stdin is the cue to stop: ``close()`` closes the pipe, and the kernel
closes it when the Python process that started the sandbox ends, however it ends (``kill -9``
included, which no ``atexit`` or signal handler sees). A child forked from OWNER holds the pipe
too, and would keep it open after OWNER's death (the package closes it in children that
``os.fork()`` makes, but a fork from C runs no Python hook): so the guard also stops when its
parent is no longer OWNER. It then stops the group: SIGTERM (the server finishes what it is
answering and exits), SIGKILL after five seconds. If the server exits first, so does it.

Standard library only, and run without ``site`` (``-I -S``), so that it starts in ~20 ms.
"""

import os
import select
import signal
import sys
import threading

GRACE_SECONDS = 5.0
# How often the guard checks that its parent is still the owner (a check is one getppid()).
WATCH_SECONDS = 0.25


class _Stop(Exception):
    pass


def _raise_stop(signum: int, frame: object) -> None:
    raise _Stop


def _owner_gone(owner: int) -> bool:
    """Waits for input on stdin, at most WATCH_SECONDS; True when it ended or OWNER is gone."""
    if select.select([0], [], [], WATCH_SECONDS)[0] and not os.read(0, 4096):
        return True
    return os.getppid() != owner


def main(argv: list[str]) -> int:
    owner, argv = int(argv[0]), argv[1:]
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the server: wait until its pid is announced, then become the CLI
        os.close(ready_w)
        os.read(ready_r, 1)
        os.close(ready_r)
        for ignored in ("SIGPIPE", "SIGXFSZ"):  # Python ignores them; as subprocess, undo that
            if hasattr(signal, ignored):
                signal.signal(getattr(signal, ignored), signal.SIG_DFL)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)  # the server reads nothing; the cue is the guard's alone
        try:
            os.execvp(argv[0], argv)  # noqa: S606 (the command start() found)
        except OSError as err:
            os.write(2, f"pix-sandbox: cannot run {argv[0]}: {err}\n".encode())
        os._exit(127)
    os.close(ready_r)
    sys.stdout.write(f"pix-sandbox-guard {pid}\n")
    sys.stdout.flush()
    os.write(ready_w, b"x")
    os.close(ready_w)

    exited = threading.Event()
    stopping = threading.Event()
    status = [0]

    def follow() -> None:  # the server's end is the guard's: exit with its code
        # SIGTERM and SIGHUP are the main thread's: delivered here, they would not wake its read.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGHUP})
        _, code = os.waitpid(pid, 0)
        status[0] = os.waitstatus_to_exitcode(code)
        exited.set()
        if not stopping.is_set():
            os._exit(status[0] if status[0] >= 0 else 128 - status[0])

    threading.Thread(target=follow, daemon=True).start()
    # SIGTERM or SIGHUP to the guard itself stops the group the same way; SIGINT is the
    # terminal's, and this group has no terminal.
    signal.signal(signal.SIGTERM, _raise_stop)
    signal.signal(signal.SIGHUP, _raise_stop)
    try:
        while not _owner_gone(owner):
            pass
    except _Stop:
        pass
    stopping.set()
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if not exited.is_set():
        os.killpg(0, signal.SIGTERM)  # the server, and anything it started in the group
        if not exited.wait(GRACE_SECONDS):
            os.killpg(0, signal.SIGKILL)  # the guard too: nothing is left
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
