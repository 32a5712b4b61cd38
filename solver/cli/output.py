"""The one way the command line writes a file: destinations checked before the work,
every file of a run written whole, together, at the end, or not at all.

    outputs = Outputs()
    outputs.plan(args.output)          # before any work: a bad -o fails at once
    ...                                # the work (seconds, minutes)
    outputs.put(args.output, text)     # kept in memory
    outputs.commit()                   # every file written, or none (a FileError)

`plan` checks a destination as the system will see it when the file is written: a
folder that exists and takes a new file (a temporary file is made there and removed),
a target that is not a folder and, if it exists, may be written.  It also refuses a
run that would write one file twice (two outputs of one run never collide).  ``-``
is standard output.

`commit` writes nothing once a stop was requested (Ctrl-C, SIGTERM: an interrupted run
prints what it finished and writes no file; it says which it did not write); otherwise
it writes each file to a temporary file beside it (synced to the disk: a full
disk is found here), and only when all are complete renames them into place, each in
one step, with signals held off; on an error every temporary file is removed and no
target has changed.  A file that exists is replaced only when the user named it (``-o
OUT``, ``--render OUT``, ``--out-dir DIR``'s ``NAME.next.dip``), as Unix tools do; a
symbolic link is written through, a device or a pipe (``/dev/null``, ``/dev/stdout``,
``-``, a FIFO) written in place, first, without blocking: a FIFO that no process
reads is waited for `DEVICE_TIMEOUT` seconds and then refused, a reader that takes
nothing for as long too, and a signal is answered meanwhile (nothing is held off).

A results file (``batch -o``, ``play --results``: `open_journal`) is appended to line by
line as the work finishes (`dipsolve.execution.journal`); a device or a pipe given as one
is written in place as above, a line at a time, its reader waited for once, at the start.

Every `OSError` becomes ``PATH: cannot write: REASON`` (a `FileError`: exit status 2).
"""

from __future__ import annotations

import errno
import functools
import os
import stat
import sys
import tempfile
from typing import TYPE_CHECKING, Any, Callable

from ..core import files
from .errors import FileError, UserError

if TYPE_CHECKING:
    from ..execution.journal import Journal

#: seconds a device or pipe may keep a write waiting (no reader yet, or one that takes
#: nothing) before the write is given up
DEVICE_TIMEOUT = 10.0
#: seconds between two looks at a device that is not ready, and at the stop flag
_DEVICE_POLL = 0.05


def reason(e: OSError) -> str:
    """The system's words for ``e`` (``No space left on device``), lower-cased first."""
    text = e.strerror or str(e)
    return text[:1].lower() + text[1:]


def _cannot(path: str, why: str) -> FileError:
    return FileError(f"cannot write: {why}", filename=path)


def _key(path: str) -> str:
    """One name for one file, however it is spelled (``./a``, ``a``, a link to it)."""
    return os.path.normcase(os.path.realpath(path))


def _probe(folder: str, path: str) -> None:
    """Make and remove a file in ``folder``: the question the system answers at write
    time (permissions, a read-only file system), asked now."""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".dipsolve-probe.", suffix=".tmp")
    except OSError as e:
        raise _cannot(path, reason(e)) from None
    os.close(fd)
    files.discard(tmp)


def check_folder(folder: str, path: str, *, create: bool = False) -> None:
    """Raise `FileError` about ``path`` unless a file can be made in ``folder`` (or, with
    ``create``, ``folder`` can be made: its parent exists and takes it)."""
    if os.path.isdir(folder):
        _probe(folder, path)
        return
    if os.path.lexists(folder):
        raise _cannot(path, f"{folder} is not a directory")
    parent = os.path.dirname(folder.rstrip(os.sep)) or "."
    if not create:
        raise _cannot(path, f"no such directory {folder}")
    if not os.path.isdir(parent):
        raise _cannot(path, f"no such directory {parent}"
                      if not os.path.lexists(parent) else f"{parent} is not a directory")
    _probe(parent, path)


def _folder(path: str) -> str:
    """The folder of ``path`` as the user would write it (``.`` for a bare name)."""
    return os.path.dirname(files.target_of(path)) or "."


def check_destination(path: str, *, create_folder: bool = False, made: frozenset[str] = frozenset()) -> None:
    """Raise `FileError` (``PATH: cannot write: REASON``) unless ``path`` can be written
    now: not a folder, a writable file if it exists, in a folder that takes a new file
    (made at `Outputs.commit` with ``create_folder``, or already to be made: ``made``)."""
    if not path:
        raise UserError("an empty output file name")
    if path == "-":
        return                          # standard output: written in place
    target = files.target_of(path)
    if os.path.isdir(target):
        raise _cannot(path, "is a directory")
    if os.path.exists(target):
        try:
            mode = os.stat(target).st_mode
        except OSError as e:
            raise _cannot(path, reason(e)) from None
        if not os.access(target, os.W_OK):
            raise _cannot(path, reason(PermissionError(errno.EACCES, os.strerror(errno.EACCES))))
        if not stat.S_ISREG(mode):
            return                      # a device or a pipe: written in place
    folder = _folder(path)
    if os.path.abspath(folder) not in made:
        check_folder(folder, path, create=create_folder)


class Outputs:
    """The files one run writes: planned (checked) before the work, kept in memory as
    it produces them, written together by `commit`."""

    def __init__(self) -> None:
        self._planned: dict[str, str] = {}          # key -> the path as the user gave it
        self._folders: set[str] = set()             # folders to make at commit
        self._staged: dict[str, tuple[str, bytes | str]] = {}
        self.written: list[str] = []

    def plan(self, path: str, *, folder: bool = False) -> None:
        """Check ``path`` now (see `check_destination`) and reserve it: a second
        output of this run with the same file is refused.  ``folder``: its folder may
        be missing and is made at commit (``--out-dir DIR``)."""
        key = _key(path)
        if key in self._planned:
            first = self._planned[key]
            raise UserError(f"{path} would be written twice in one run"
                            + (f" (also as {first})" if first != path else "")
                            + ": the first would be lost")
        check_destination(path, create_folder=folder, made=frozenset(self._folders))
        self._planned[key] = path
        if folder:
            self._folders.add(os.path.abspath(_folder(path)))

    def planned(self, path: str) -> bool:
        return _key(path) in self._planned

    def put(self, path: str, data: bytes | str) -> None:
        """Keep ``data`` for ``path`` (planned now if it was not) until `commit`."""
        if not self.planned(path):
            self.plan(path)
        self._staged[_key(path)] = (path, data)

    def discard(self) -> None:
        """Forget every file kept: nothing is written (an interrupted run)."""
        self._staged.clear()

    def commit(self, *, finished: bool = False) -> list[str]:
        """Write every file kept, all or none; returns their paths in the order given.
        Signals wait until the renames are done; returns the files this call wrote.  Once
        a stop was requested nothing is written, unless the files are ``finished`` work that a stop does not make less
        whole (a game played to its end, saved as it ends)."""
        from ..core.results import stop_requested
        from .interrupt import held
        if stop_requested() and not finished:   # interrupted: printed, not written
            if self._staged:
                names = ", ".join(p for p, _ in self._staged.values())
                print(f"dipsolve: interrupted: not written: {names}", file=sys.stderr)
            self.discard()
            return []
        before = len(self.written)
        devices = {k: (p, d) for k, (p, d) in self._staged.items() if p == "-" or files.is_device(p)}
        for key, (path, data) in devices.items():
            write_device(path, data.encode("utf-8") if isinstance(data, str) else data,
                         done=self.written[before:])
            self.written.append(path)
            del self._staged[key]
        with held():
            for folder in sorted(self._folders):
                if any(os.path.abspath(_folder(p)) == folder for p, _ in self._staged.values()):
                    try:
                        os.makedirs(folder, exist_ok=True)
                    except OSError as e:
                        raise _cannot(folder, reason(e)) from None
            staged: list[tuple[str, str, bytes | str]] = []
            try:
                for path, data in self._staged.values():
                    staged.append((files.stage(path, data), path, data))
            except OSError as e:
                for tmp, _, _ in staged:
                    if tmp:
                        files.discard(tmp)
                others = len(self._staged) - 1
                raise _cannot(path, reason(e) + (f" (none of the {others} other files written "
                                                 f"either)" if others else "")) from None
            for n, (tmp, path, data) in enumerate(staged):
                try:
                    files.commit(tmp, path)
                except OSError as e:
                    for later, _, _ in staged[n:]:
                        if later:
                            files.discard(later)
                    done = f"written: {', '.join(self.written)}" if self.written else "nothing written"
                    raise _cannot(path, f"{reason(e)} ({done})") from None
                self.written.append(path)
            self._staged.clear()
        return self.written[before:]



def open_journal(path: str, run: dict[str, Any]) -> Journal:
    """The results file ``path`` of a run with settings ``run``, open
    (`dipsolve.execution.journal.Journal`: its lines of an earlier run read); a device or a
    pipe (``-``: standard output) is opened as `write_device` opens it (a FIFO that no
    process reads is refused after `DEVICE_TIMEOUT` seconds) and each line written to it
    as `write_device` writes (a reader that takes nothing is given up; a signal ends the
    wait), never opened for reading: nothing in it is resumed."""
    from ..execution.journal import Journal
    if path != "-" and not files.is_device(path):
        return Journal.open(path, run)
    fd = open_device(path)
    return Journal.stream(path, run, functools.partial(write_open, fd, path),
                          lambda: os.close(fd) if fd is not None else None)


def write_device(path: str, data: bytes, *, done: list[str] = [],
                 timeout: float | None = None, clock: Callable[[], float] | None = None) -> None:
    """Write ``data`` to the device or pipe ``path`` (``-``: standard output) in place,
    never blocking: the opening of a FIFO that no process reads yet (`open_device`) and
    every write to a reader that takes nothing (`write_open`) are retried every few
    milliseconds, each kind of wait given up after ``timeout`` seconds (`DEVICE_TIMEOUT`;
    ``clock``: `time.monotonic`) with a `FileError`; a stop request (a signal) meanwhile
    ends the wait at once (`dipsolve.cli.interrupt.Interrupted`)."""
    fd = open_device(path, done=done, timeout=timeout, clock=clock)
    try:
        write_open(fd, path, data, done=done, timeout=timeout, clock=clock)
    finally:
        if fd is not None:
            os.close(fd)


def _written(done: list[str]) -> str:
    return f" (written: {', '.join(done)})" if done else ""


def _stop() -> None:
    """`dipsolve.cli.interrupt.Interrupted` once a stop was requested (a signal)."""
    from ..core.results import stop_requested
    from . import interrupt
    if stop_requested():
        raise interrupt.Interrupted(interrupt.received() or 2)


def open_device(path: str, *, done: list[str] = [], timeout: float | None = None,
                clock: Callable[[], float] | None = None) -> int | None:
    """A descriptor open for writing on the device or pipe ``path`` (``-``: a copy of
    standard output's; None when no file is behind it, a test's capture), for
    `write_open`: a FIFO that no process reads yet is waited for, without blocking, at
    most ``timeout`` seconds (`DEVICE_TIMEOUT`) and then refused (a `FileError`); a stop
    request meanwhile ends the wait (`dipsolve.cli.interrupt.Interrupted`).  ``done``:
    the files of the run already written, said in the error."""
    import time
    limit = DEVICE_TIMEOUT if timeout is None else timeout
    now = clock or time.monotonic
    sys.stdout.flush()                  # what is printed is out before any wait
    if path == "-":
        try:
            return os.dup(sys.stdout.fileno())
        except (AttributeError, ValueError, OSError):    # no file behind it (a test's capture)
            return None
    started = now()
    while True:
        try:
            return os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as e:
            if e.errno != errno.ENXIO:           # ENXIO: a FIFO that no process reads
                raise _cannot(path, reason(e) + _written(done)) from None
        _stop()
        if now() - started >= limit:
            raise _cannot(path, f"no process reads the pipe (waited {limit:g} s)" + _written(done))
        time.sleep(_DEVICE_POLL)


def write_open(fd: int | None, path: str, data: bytes, *, done: list[str] = [],
               timeout: float | None = None, clock: Callable[[], float] | None = None) -> None:
    """Write all of ``data`` to ``fd`` (`open_device`'s, on ``path``; None: standard
    output as Python holds it) without blocking: a reader that takes nothing for
    ``timeout`` seconds (`DEVICE_TIMEOUT`) is given up (a `FileError` that says how much
    went), and a stop request ends any wait for it (`dipsolve.cli.interrupt.Interrupted`);
    what the reader takes is written, stop or not."""
    import select
    import time
    if fd is None:
        sys.stdout.write(data.decode("utf-8", "replace"))
        sys.stdout.flush()
        return
    limit = DEVICE_TIMEOUT if timeout is None else timeout
    now = clock or time.monotonic
    view = memoryview(data)
    waited_since = now()
    while view:
        try:
            _, ready, _ = select.select([], [fd], [], _DEVICE_POLL)
        except InterruptedError:
            continue
        if not ready:
            _stop()
            if now() - waited_since >= limit:
                raise _cannot(path, f"the reader took nothing for {limit:g} s "
                                    f"({len(data) - len(view):,} of {len(data):,} bytes "
                                    f"written)" + _written(done))
            continue
        try:
            n = os.write(fd, view[:select.PIPE_BUF])   # never more than a ready pipe takes
        except (BlockingIOError, InterruptedError):
            continue
        except OSError as e:
            raise _cannot(path, reason(e) + _written(done)) from None
        view = view[n:]
        waited_since = now()
