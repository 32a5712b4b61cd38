"""Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal closed) at the command line: stop
the work, keep what is finished, exit 130, 143 or 129, never a traceback.

`Signals` (installed by `dipsolve.cli.main` around every command) handles the three
signals alike:

- a command that stops by itself (``solve``, ``path``, ``adjust``, ``play``,
  ``adjudicate``, ``analyze``: they run inside `cooperative`, and say so to `dipsolve.cli.main` with
  ``stops_by_itself``, so that a signal while the command line is read reaches them
  too) is asked to stop
  (`dipsolve.core.results.request_stop`: every deadline expires, a CP-SAT search stops at
  once), prints what it finished (an answer so far has status ``interrupted``) and
  returns;
- any other command (or a second signal) is stopped where it is (`Interrupted`);
- either way no file is written (`dipsolve.cli.output.Outputs.commit` writes nothing
  once a stop was requested, and holds signals off while it renames), and the exit
  status is 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP
  (after a SIGHUP the terminal may be gone: what cannot be printed any more is dropped
  without a traceback, `dipsolve.cli.main`).

The signal is seen at once even while the main thread is inside a solver's C++ code
(where Python runs no handler until it returns): Python's own low-level handler writes
the signal's number to a socket (`signal.set_wakeup_fd`), and a thread waiting on it
calls `request_stop`.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
from types import FrameType
from typing import Any, Iterator

from ..core.results import request_stop, reset_stop

#: the signals handled, with their names: SIGHUP (the terminal closed) as SIGTERM
SIGNALS: dict[int, str] = {int(signal.SIGINT): "SIGINT", int(signal.SIGTERM): "SIGTERM",
                           **({int(signal.SIGHUP): "SIGHUP"} if hasattr(signal, "SIGHUP") else {})}


class Interrupted(BaseException):
    """Raised in the main thread to stop a command where it is (a BaseException, as
    KeyboardInterrupt is, so that no ``except Exception`` swallows it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(SIGNALS.get(signum, str(signum)))
        self.signum = signum


_received: list[int] = []      # the signals received this run, in order
_cooperative = [0]             # depth of `cooperative` blocks
_held = [0]                    # depth of `held` blocks
_pending: list[int] = []       # a signal to raise when `held` ends
_closing = [False]             # the run is over: a late signal is recorded, not raised


def received() -> int | None:
    """The first signal received this run, or None."""
    return _received[0] if _received else None


def exit_status() -> int | None:
    """128 + the first signal's number (130, 143), or None when none came."""
    return 128 + int(_received[0]) if _received else None


def name() -> str:
    return SIGNALS.get(_received[0], "a signal") if _received else ""


def _handler(signum: int, frame: FrameType | None) -> None:
    first = not _received
    _received.append(signum)
    request_stop()
    if _closing[0]:
        return                          # the command is done: nothing left to stop
    if _cooperative[0] and first:
        return                          # the command stops by itself
    if _held[0]:
        _pending.append(signum)
        return
    raise Interrupted(signum)


@contextlib.contextmanager
def cooperative() -> Iterator[None]:
    """The block stops by itself on a signal (it polls `dipsolve.core.results.stop_requested`
    or runs solvers that do); a second signal still stops it where it is."""
    _cooperative[0] += 1
    try:
        yield
    finally:
        _cooperative[0] -= 1


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Signals wait until the block is done (the renames of `Outputs.commit`)."""
    _held[0] += 1
    try:
        yield
    finally:
        _held[0] -= 1
        if not _held[0] and _pending:
            signum = _pending[-1]
            _pending.clear()
            if not _cooperative[0] or len(_received) > 1:
                raise Interrupted(signum)


class Signals:
    """Install the handlers and the watcher thread for one run (main thread only; in
    any other thread, or where signals cannot be set, it does nothing)."""

    def __init__(self) -> None:
        self._old: dict[int, Any] = {}
        self._old_fd: int | None = None
        self._sockets: tuple[socket.socket, socket.socket] | None = None
        #: the watcher acts only while this is set, under its lock: a signal's byte read
        #: after the run ended must not stop the next run in this process
        self._active = [False]
        self._lock = threading.Lock()

    def __enter__(self) -> "Signals":
        _received.clear()
        _pending.clear()
        _closing[0] = False
        reset_stop()
        if threading.current_thread() is not threading.main_thread():
            return self
        for signum in SIGNALS:
            self._old[signum] = signal.signal(signum, _handler)
        reader, writer = socket.socketpair()
        writer.setblocking(False)
        try:
            self._old_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
        except ValueError:
            reader.close()
            writer.close()
            return self
        self._sockets = (reader, writer)
        self._active[0] = True
        threading.Thread(target=_watch, args=(reader, self._active, self._lock),
                         name="dipsolve-signals", daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        _closing[0] = True                  # from here the handler raises nothing
        with self._lock:
            self._active[0] = False
        if self._sockets is not None:
            signal.set_wakeup_fd(self._old_fd if self._old_fd is not None else -1)
            reader, writer = self._sockets
            writer.close()
            try:
                reader.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            reader.close()
        for signum, old in self._old.items():
            signal.signal(signum, old)
        reset_stop()


def _watch(reader: socket.socket, active: list[bool], lock: threading.Lock) -> None:
    """Wait for a signal's byte; ask the work to stop (the main thread's handler runs
    too, when the main thread next runs Python), while the run is ``active``."""
    while True:
        try:
            data = reader.recv(16)
        except OSError:
            return
        if not data:
            return
        if any(b in SIGNALS for b in data):
            with lock:
                if active[0]:
                    request_stop()
