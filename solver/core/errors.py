"""The error family: one root, `DipsolveError`, and the branches a caller catches.

Every error dipsolve raises for a reason of the caller's (or of the installation's) is a
`DipsolveError`; catch the root to catch them all, or a branch to tell them apart, as
python-chess and godip tell "invalid" from "illegal":

- `DipsolveSyntaxError`: not understood (a stray character, an unknown province or
  power, a phase that is not a phase), its `DipsolveLimitError`: past one of the
  bounds of `dipsolve.core.bounds` (a year of 5,000 digits, press nested 3,000 deep),
  and its `DipsolveArgumentError`: a value of the wrong kind given to a function;
- `DipsolveRuleError`: understood but not allowed (an army at sea, two units in one
  province, an order for a unit that is not there); ``rule`` names the rule broken;
- `DipsolveUnsupported`: understood and allowed, but outside what the solver asked
  covers (a possible convoy paradox in the CP-SAT order model);
- `DipsolveUnavailable`: an optional part is not installed or cannot run here (a bot
  or method whose module is missing, no PNG converter);
- `DipsolveFileError`: a file that cannot be read or written;
- `DipsolveLostError`: work lost in another process or in a user's code (a worker
  that died, a bot that raised);
- `DipsolveInternalError`: dipsolve contradicted itself (a model disagrees with the
  adjudicator, a plan does not replay): a bug, please report it.

They are also the built-in classes code may catch: the not understood, not allowed and
unsupported ones `ValueError` (a wrong kind of value also `TypeError`), a file's
`OSError`, the others `RuntimeError`.

An error may carry a place in a text (``filename``, ``line``, ``column``, 1-based, the
offending ``source_line`` for a caret) and says ``found`` and ``expected``::

    >>> e = DipsolveSyntaxError("unknown province 'Pariss'", filename="start.dip",
    ...                         line=5, column=10, source_line="units: A Pariss, A BUD",
    ...                         width=6, found="Pariss", expected="a province")
    >>> print(e)
    start.dip:5:10: unknown province 'Pariss'
    units: A Pariss, A BUD
             ^^^^^^
    >>> e.to_json()["error"], e.to_json()["line"], e.to_json()["col"]
    ('syntax', 5, 10)

When several things are wrong at once (every bad line of an orders file), one error is
raised whose ``errors`` lists them all in text order (`DipsolveError.combine`).

The text-reading side (Lark's exceptions turned into these, with spans) lives in
``dipsolve.grammar.errors``; the core never imports it.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Iterable

__all__ = ["DipsolveError", "DipsolveSyntaxError", "DipsolveLimitError", "DipsolveArgumentError",
           "DipsolveRuleError", "DipsolveUnavailable", "DipsolveUnsupported", "DipsolveFileError",
           "DipsolveLostError", "DipsolveInternalError", "QUOTE_LENGTH", "MESSAGE_LENGTH",
           "escape", "quote", "quote_line"]

# ------------------------------------------------------------------ the quoting rule
#: the most characters of the input an error (or a line from a server) repeats: longer
#: input is shortened around the place that matters (``max_quote`` in `dipsolve.LIMITS`)
QUOTE_LENGTH = 120
#: the most characters of a file's name an error repeats (a path may be long; escaped all
#: the same)
NAME_LENGTH = 4 * QUOTE_LENGTH
#: the longest message an error carries (a message quotes input, shortened: this is the
#: bound on all of it together)
MESSAGE_LENGTH = 600
#: the characters beyond ASCII that dipsolve's own words use, shown as they are
_OWN = frozenset("…§")


def _escaped_char(ch: str) -> str:
    """One character as an error shows it: printable ASCII (and dipsolve's own few
    others) as it is; a control or bidirectional character, an odd space, a letter
    of another script that may look like a Latin one (Cyrillic ``А``), anything else
    beyond ASCII, escaped (``\\x1b``, ``\\u202e``, ``\\u0410``)."""
    o = ord(ch)
    if 0x20 <= o < 0x7F or ch in _OWN:
        return ch
    if ch == "\t":
        return "\\t"
    if ch == "\n":
        return "\\n"
    if ch == "\r":
        return "\\r"
    if o < 0x100:
        return f"\\x{o:02x}"
    if o < 0x10000:
        return f"\\u{o:04x}"
    return f"\\U{o:08x}"


def _plain(text: str) -> bool:
    return all(0x20 <= ord(ch) < 0x7F or ch in _OWN for ch in text)


def escape(text: str) -> str:
    """``text`` with every character a terminal could misshow escaped (see
    `_escaped_char`): what is printed is what was read.

        >>> escape("\\u0410 PAR\\x1b[2J\\u202e")
        '\\\\u0410 PAR\\\\x1b[2J\\\\u202e'
    """
    if _plain(text):
        return text
    return "".join(_escaped_char(ch) for ch in text)


def _window(text: str, at: int, limit: int) -> tuple[int, int]:
    """The start and end of at most ``limit`` characters of ``text`` around ``at``."""
    if len(text) <= limit:
        return 0, len(text)
    start = max(0, min(at - limit // 3, len(text) - limit))
    return start, start + limit


def _shown_window(widths: list[int], at: int, limit: int) -> tuple[int, int]:
    """`_window` by the width each character takes once escaped (``widths``): at most
    ``limit`` shown characters around index ``at``, a third of them before it."""
    if sum(widths) <= limit:
        return 0, len(widths)
    start = min(max(at, 0), len(widths))
    budget = limit // 3
    while start > 0 and widths[start - 1] <= budget:
        start -= 1
        budget -= widths[start]
    end, used = start, 0
    while end < len(widths) and used + widths[end] <= limit:
        used += widths[end]
        end += 1
    while start > 0 and used + widths[start - 1] <= limit:   # the end of the line: more before
        start -= 1
        used += widths[start]
    return start, end


def quote(text: str, limit: int = QUOTE_LENGTH, at: int = 0) -> str:
    """``text`` as an error repeats it: escaped (`escape`), and when longer than
    ``limit`` characters shortened to that many around index ``at`` (the place that
    matters), with ``…`` where text was left out and the full length said.

        >>> quote("A PAR - BUR" + " BUR" * 5000, limit=24)
        'A PAR - BUR BUR BUR BUR … (20011 characters)'
    """
    if not isinstance(text, str):
        raise DipsolveArgumentError(f"quote: expected a text, not {type(text).__name__}",
                                    expected="a text")
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in (limit, at)) or limit < 1:
        raise DipsolveArgumentError(f"quote: limit and at are whole numbers, limit 1 or more, "
                                    f"not {limit!r} and {at!r}", expected="whole numbers")
    if len(text) <= limit:
        return escape(text)
    start, end = _window(text, at, limit)
    head = "…" if start else ""
    tail = "…" if end < len(text) else ""
    return f"{head}{escape(text[start:end])}{tail} ({len(text)} characters)"


def quote_line(line: str, column: int, width: int = 1,
               limit: int = QUOTE_LENGTH) -> tuple[str, str]:
    """A line of input and its caret line as an error shows them: shortened to about
    ``limit`` characters around ``column`` (1-based), escaped, and the caret still
    under the characters it points at (``width`` of them)."""
    start, end = _shown_window([1 if ch == "\t" else len(_escaped_char(ch)) for ch in line],
                               column - 1, limit)
    shown = "…" if start else ""
    pad = " " if start else ""
    for i in range(start, end):
        ch = line[i]
        piece = _escaped_char(ch) if ch != "\t" else "\t"
        if i < column - 1:
            pad += "\t" if ch == "\t" else " " * len(piece)
        shown += piece
    under = "".join(_escaped_char(ch) if ch != "\t" else "\t"
                    for ch in line[column - 1:min(end, column - 1 + width)])
    caret = "^" * max(1, len(under.replace("\t", " ")))
    if end < len(line):
        shown += "…"
    return shown, pad + caret


def clean_message(message: str, limit: int = MESSAGE_LENGTH) -> str:
    """A message as an error carries it: escaped, and no longer than ``limit``
    characters (the middle left out: the start says what is wrong, the end what was
    expected)."""
    message = escape(message)
    if len(message) <= limit:
        return message
    keep = limit - 40
    return (f"{message[:keep * 2 // 3]}… ({len(message) - keep} characters left out) …"
            f"{message[-(keep // 3):]}")



class DipsolveError(Exception):
    """The root of every error dipsolve raises for a reason outside its own code."""

    #: the branch's name in JSON (``{"error": "syntax", ...}``)
    kind = "error"

    def __init__(self, message: str, *, filename: str | None = None, line: int | None = None,
                 column: int | None = None, found: str | None = None,
                 expected: str | None = None, source_line: str | None = None,
                 width: int = 1, errors: list["DipsolveError"] | None = None) -> None:
        self.message = clean_message(message)
        self.filename = None if filename is None else quote(filename, NAME_LENGTH)
        self.line = line
        self.column = column
        self.found = None if found is None else quote(found)
        self.expected = None if expected is None else clean_message(expected)
        self.source_line = source_line
        self.width = max(1, width)
        self.errors: list[DipsolveError] = errors if errors is not None else [self]
        super().__init__(str(self))

    @property
    def location(self) -> str | None:
        """``file:line:col`` (just the file when the place in it is not known; None when
        the error is about no file)."""
        if self.filename is None:
            return None
        if self.line is None:
            return self.filename
        return f"{self.filename}:{self.line}:{self.column}"

    def _format_one(self) -> str:
        where = self.location
        out = f"{where}: {self.message}" if where else self.message
        if self.source_line is not None and self.column is not None:
            # shortened around the column and escaped; tabs kept so that the caret lines
            # up under a tab-indented line
            width = min(self.width, max(1, len(self.source_line) - self.column + 1))
            line, caret = quote_line(self.source_line, self.column, width)
            out += f"\n{line}\n{caret}"
        return out

    def __str__(self) -> str:
        if len(self.errors) > 1 or self.errors[0] is not self:
            return "\n".join(e._format_one() for e in self.errors)
        return self._format_one()

    def to_json(self) -> dict[str, Any]:
        """The error as one JSON object: ``error`` (the branch), ``file``, ``line``,
        ``col``, ``message``, ``found``, ``expected`` and, for several, ``errors``."""
        out: dict[str, Any] = {"error": self.kind, "file": self.filename, "line": self.line,
                               "col": self.column, "message": self.message,
                               "found": self.found, "expected": self.expected}
        for extra in ("rule", "limit"):
            value = getattr(self, extra, None)
            if value is not None:
                out[extra] = value
        if len(self.errors) > 1:
            out["errors"] = [e.to_json() for e in self.errors]
        return out

    def __reduce__(self):  # picklable (errors cross process pools) despite keyword arguments
        state = dict(self.__dict__)
        state["errors"] = None if self.errors == [self] else self.errors
        return (_rebuild, (type(self), state))

    @classmethod
    def combine(cls, errors: Iterable["DipsolveError"]) -> "DipsolveError":
        """One error listing several, in text order (once each); its class and place are
        the first's."""
        unique: dict[tuple, DipsolveError] = {}
        for e in errors:
            unique.setdefault((e.line, e.column, e.message), e)
        errs = sorted(unique.values(), key=lambda e: (e.line or 0, e.column or 0))
        if not errs:
            raise ValueError("no errors to combine")
        if len(errs) == 1:
            return errs[0]
        first = errs[0]
        combined = type(first).__new__(type(first))
        combined.__dict__.update(first.__dict__)
        combined.errors = errs
        Exception.__init__(combined, str(combined))
        return combined


def _rebuild(cls: type[DipsolveError], state: dict) -> DipsolveError:
    err = cls.__new__(cls)
    err.__dict__.update(state)
    if err.errors is None:
        err.errors = [err]
    Exception.__init__(err, str(err))
    return err


class DipsolveSyntaxError(DipsolveError, ValueError):
    """Not understood: the text is not in the language (or names what does not exist)."""

    kind = "syntax"


class DipsolveLimitError(DipsolveSyntaxError):
    """Past one of dipsolve's bounds (`dipsolve.core.bounds.LIMITS`: the largest year, the
    deepest nesting, the largest file, ...): ``limit`` names the bound."""

    kind = "limit"

    def __init__(self, message: str, *, limit: str | None = None, **where: Any) -> None:
        self.limit = limit
        super().__init__(message, **where)


class DipsolveArgumentError(DipsolveSyntaxError, TypeError):
    """Not understood: a value of the wrong kind given to a public function (a number
    where a power's name goes, a list where a position goes); also a `TypeError`."""


class DipsolveRuleError(DipsolveError, ValueError):
    """Understood, but not allowed by the rules of the game or of the board; ``rule``
    names the rule when there is one (``"unit-exists"``, ``"army-at-sea"``, ...)."""

    kind = "rule"

    def __init__(self, message: str, *, rule: str | None = None, **where: Any) -> None:
        self.rule = rule
        super().__init__(message, **where)


class DipsolveUnavailable(DipsolveError, RuntimeError):
    """An optional part is not installed, or cannot run in this installation."""

    kind = "unavailable"


class DipsolveUnsupported(DipsolveError, ValueError):
    """Understood and allowed, but outside what the solver asked can answer (orders that
    may form a convoy paradox, which the CP-SAT order model does not cover); another
    method, or the adjudicator, answers it."""

    kind = "unsupported"


class DipsolveFileError(DipsolveError, OSError):
    """A file that cannot be read or written (missing, a folder, not allowed): the
    operating system's reason, and the file's name."""

    kind = "file"


class DipsolveLostError(DipsolveError, RuntimeError):
    """Work handed to another process or to a user's code was lost: a worker died, or a
    bot raised (``play_series``' `GameLost`)."""

    kind = "lost"


class DipsolveInternalError(DipsolveError, RuntimeError):
    """dipsolve contradicted itself (a model against the adjudicator): a bug to report."""

    kind = "internal"
