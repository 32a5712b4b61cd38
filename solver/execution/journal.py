"""A results file that a run appends to as jobs finish, and that a rerun resumes from.

    journal = Journal.open("results.jsonl", {"command": "batch", "task": "solve", ...})
    journal.done                       # key -> its line, for the jobs already finished
    journal.append({"id": "a.dip", "status": "ok", ...})

The file is JSON lines.  Its first line says what run wrote it (``{"dipsolve":
"results", "run": {...}}``: the command and every setting that changes an answer); each
other line is one job's result, with its ``id``.  A line is appended in one ``write`` of
a file opened for appending, then synced to the disk (`dipsolve.core.files.append`): a run
killed at any moment leaves every finished line whole, and at worst the end of one
line, which the next run cuts off (and says so) before it appends.

A rerun with the same settings skips every job whose id has a line (`Journal.done`;
``status`` ``failed`` — a worker died every time — is run again, and its new line
follows the old: the last line of an id is its result).  A rerun with other settings is
refused: its answers would be mixed with the first run's.

A pipe or a device (``batch -o FIFO``) is no file to read back: `Journal.stream` writes
the same lines to it as they finish, through the writer it is given (the command line's
`dipsolve.cli.output.open_journal`: it never waits forever for a reader), and resumes
nothing.
"""

from __future__ import annotations

import functools
import json
import os
from typing import Any, Callable

from ..core import files
from ..core.bounds import loads_json
from ..core.errors import DipsolveLimitError, DipsolveSyntaxError

__all__ = ["Journal", "JournalError", "RETRIED", "read_results"]

#: the statuses of a line that a rerun runs again
RETRIED = ("failed",)


class JournalError(DipsolveSyntaxError):
    """A results file that cannot be opened, read or written (``PATH: cannot write: No
    space left on device``), or that is not this run's."""

    kind = "file"


def _error(path: str, message: str, line: int | None = None, text: str | None = None) -> JournalError:
    shown = None if text is None else (text if len(text) <= 80 else text[:77] + "...")
    return JournalError(message, filename=path, line=line, column=1 if line else None,
                        found=shown, source_line=None)


def _reason(e: OSError) -> str:
    text = e.strerror or str(e)
    return text[:1].lower() + text[1:]


def _json(text: str) -> Any:
    try:
        return loads_json(text)
    except (json.JSONDecodeError, DipsolveLimitError):   # not JSON, or past the bounds
        return _BAD


_BAD = object()


def read_results(text: str, path: str, run: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The results a file's ``text`` holds (whole lines), by id: the last line of each,
    but for those run again (`RETRIED`); a `DipsolveSyntaxError` naming ``path`` and the
    line for a file that is no results file, or one that run ``run`` did not write."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    first = _json(lines[0]) if lines else None
    if not isinstance(first, dict) or first.get("dipsolve") != "results":
        raise _error(path, "not a dipsolve results file (its first line is no "
                           "{\"dipsolve\": \"results\", ...} object): give a new file or one "
                           "a run of the same command wrote", 1, lines[0] if lines else "")
    if first.get("run") != run:
        raise _error(path, f"written by another run ({json.dumps(first.get('run'))[:200]}); this one "
                           f"is {json.dumps(run)}: give another results file, or "
                           f"the same settings to resume", 1, lines[0])
    done: dict[str, dict[str, Any]] = {}
    for n, line in enumerate(lines[1:], 2):
        item = _json(line)
        if item is _BAD:
            raise _error(path, "not a JSON object; expected one result a line", n, line)
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise _error(path, "a line without an \"id\"; expected one result a line", n, line)
        if item.get("status") in RETRIED:
            done.pop(item["id"], None)
        else:
            done[item["id"]] = item
    return done


def _line(item: dict[str, Any]) -> bytes:
    """One line of a results file: the JSON of ``item``."""
    return (json.dumps(item) + "\n").encode()


class Journal:
    """An open results file: the lines finished before (`done`) and `append`."""

    def __init__(self, path: str, fd: int, done: dict[str, dict[str, Any]], cut: int,
                 write: Callable[[bytes], None] | None = None, close: Callable[[], None] | None = None) -> None:
        self.path = path
        self._fd = fd
        self._write = write if write is not None else functools.partial(files.append, fd)
        self._close = close
        #: the last line of each id already in the file, but for those run again (`RETRIED`)
        self.done = done
        #: bytes of a torn last line cut off when the file was opened (a killed run)
        self.cut = cut

    @classmethod
    def stream(cls, path: str, run: dict[str, Any], write: Callable[[bytes], None],
               close: Callable[[], None]) -> Journal:
        """The results of a run with settings ``run`` written as they finish to ``path``, a
        pipe or a device that ``write`` writes each line to in turn (the run's first line
        now) and ``close`` closes: nothing is read back, so nothing is resumed; an error
        of ``write`` is the caller's (an `OSError` becomes a `JournalError`)."""
        journal = cls(path, -1, {}, 0, write, close)
        try:
            journal._put(_line({"dipsolve": "results", "run": run}))
        except BaseException:
            close()
            raise
        return journal

    @classmethod
    def open(cls, path: str, run: dict[str, Any]) -> Journal:
        """Open (or make) the results file ``path`` of a run with settings ``run``; a
        `DipsolveSyntaxError` naming the file and line for a file that is not one, or
        one written with other settings."""
        header = {"dipsolve": "results", "run": run}
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o666)
        except OSError as e:
            raise _error(path, f"cannot open: {_reason(e)}") from None
        try:
            done, cut = cls._read(path, fd, header)
        except OSError as e:
            os.close(fd)
            raise _error(path, f"cannot read or write: {_reason(e)}") from None
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, done, cut)

    @staticmethod
    def _read(path: str, fd: int, header: dict[str, Any]) -> tuple[dict[str, dict[str, Any]], int]:
        size = os.fstat(fd).st_size
        data = b""
        while len(data) < size:
            chunk = os.pread(fd, size - len(data), len(data))
            if not chunk:
                break
            data += chunk
        first = _line(header)
        end = data.rfind(b"\n") + 1
        whole, torn = data[:end], data[end:]
        if not whole:                 # new, or a run killed while it wrote the first line
            if not first.startswith(torn):
                read_results(torn.decode("utf-8", errors="replace"), path, header["run"])
            if torn:
                os.ftruncate(fd, 0)
            files.append(fd, first)
            return {}, len(torn)
        # every whole line is checked before the file is touched: a file that is not
        # this run's is refused as it is
        done = read_results(whole.decode("utf-8", errors="replace"), path, header["run"])
        if torn:                      # a line torn by a killed run: cut it off
            os.ftruncate(fd, end)
        return done, len(torn)

    def append(self, item: dict[str, Any]) -> None:
        """Append one result (it has an ``id``) as one line, synced to the disk; a
        `JournalError` if it cannot be written (a full disk)."""
        self._put(_line(item))

    def _put(self, data: bytes) -> None:
        try:
            self._write(data)
        except OSError as e:
            raise _error(self.path, f"cannot write: {_reason(e)}") from None

    def close(self) -> None:
        if self._close is not None:
            close, self._close = self._close, None
            close()
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
