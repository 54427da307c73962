"""Run a check in a child made by a real ``os.fork()``, with a deadline.

``in_child(check)`` forks; the child runs ``check()`` and leaves with ``os._exit``: 0 when
it returned, 1 when an assertion failed, 2 on any other exception (the traceback goes to
stderr). The parent waits at most ``timeout`` seconds, kills a child that is still
running (a deadlock) and returns its exit code, or ``None`` when it had to kill it.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["PASSED", "held_by_a_thread", "in_child", "start_child", "wait_child"]

PASSED = 0


def start_child(check: Callable[[], object]) -> int:
    """Fork; the child runs ``check`` and exits (see the module doc). Returns its pid."""
    pid = os.fork()
    if pid:
        return pid
    code = 2
    try:
        check()
        code = PASSED
    except AssertionError:
        traceback.print_exc()
        code = 1
    except BaseException:
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def wait_child(pid: int, timeout: float = 15.0) -> int | None:
    """The exit code of child ``pid``, or ``None`` if it was still running after
    ``timeout`` seconds (it is killed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.01)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None


def in_child(check: Callable[[], object], timeout: float = 15.0) -> int | None:
    """Run ``check`` in a forked child; its exit code (``None``: killed, it hung)."""
    return wait_child(start_child(check), timeout)


@contextmanager
def held_by_a_thread(*locks: Any) -> Iterator[None]:
    """A parent thread takes ``locks`` and keeps them until the block ends."""
    taken, release = threading.Event(), threading.Event()

    def holder() -> None:
        for lock in locks:
            lock.acquire()
        taken.set()
        release.wait(30)
        for lock in reversed(locks):
            lock.release()

    thread = threading.Thread(target=holder, daemon=True)
    thread.start()
    try:
        assert taken.wait(5)
        yield
    finally:
        release.set()
        thread.join(5)
