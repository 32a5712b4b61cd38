"""Writing output files: all of it or nothing.

A file is written in two steps: `stage` puts the bytes into a temporary file beside the
target (flushed and synced to the disk), `commit` renames it into place, which replaces
the target in one step.  An error, a full disk or an interrupt between the two leaves
the target as it was and no temporary file behind (`discard`); `write_atomic` does both
for one file.  The command line plans, stages and commits all of a run's files through
`dipsolve.cli.output`.  The one file a run adds to as it goes, a results file of line
after line (`dipsolve.execution.journal`), is written by `append`: each line whole.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def target_of(path: str | os.PathLike[str]) -> str:
    """The file a write to ``path`` replaces: the file a symbolic link points to (as
    Unix tools write through a link), otherwise ``path`` itself.  A link to what is no
    regular file (``/dev/stdout``, a link to a pipe or a terminal, whose target
    ``/proc/self/fd/1`` names ``pipe:[...]``, no file) is ``path`` itself: it is
    written in place, through the link."""
    if not os.path.islink(path):
        return os.fspath(path)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return os.fspath(path)
    except OSError:
        pass
    return os.path.realpath(path)


def is_device(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` (followed through links) exists and is no regular file: a
    device, a pipe, a socket, written in place rather than replaced."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode) and not stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False


def stage(path: str | os.PathLike[str], data: bytes | str) -> str:
    """Write all of ``data`` (str as UTF-8) to a new temporary file in the folder of
    ``path``, synced to the disk, with the mode the target has (or the usual one for a
    new file: ``mkstemp`` would leave 0600).  Returns the temporary file's path; on any
    error nothing is left behind."""
    target = Path(target_of(path))
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
    except BaseException:
        discard(tmp)
        raise
    return tmp


def commit(tmp: str, path: str | os.PathLike[str]) -> None:
    """Rename the staged ``tmp`` onto ``path`` (one step) and sync the folder."""
    target = target_of(path)
    os.replace(tmp, target)
    try:
        fd = os.open(os.path.dirname(os.path.abspath(target)) or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:     # some file systems cannot sync a folder: the rename stands
        pass
    finally:
        os.close(fd)


def discard(tmp: str) -> None:
    """Remove a staged file that will not be committed (if it is still there)."""
    try:
        os.unlink(tmp)
    except OSError:
        pass


def write_atomic(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Write all of ``data`` (str as UTF-8) to ``path`` or nothing, making its folder if
    need be (the library's `dipsolve.render_to`; the command line makes no folder)."""
    Path(target_of(path)).parent.mkdir(parents=True, exist_ok=True)
    tmp = stage(path, data)
    try:
        commit(tmp, path)
    except BaseException:
        discard(tmp)
        raise


def append(fd: int, data: bytes) -> None:
    """Append all of ``data`` to the file open on ``fd`` (opened with ``O_APPEND``) in
    one ``write``, then sync it to the disk: a results file that a run adds to line by
    line (`dipsolve.execution.journal`) never holds half of a line but, after a crash in
    this very call, at its end (which the journal's reader cuts off)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
    try:
        os.fsync(fd)
    except OSError as e:
        if e.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EROFS):   # not a disk file
            raise
