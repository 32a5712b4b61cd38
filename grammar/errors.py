"""Errors that point at the text: file, line, column, what was found, what was expected.

The classes are the core's error family (`dipsolve.core.errors`); two of them are about text,
as python-chess and godip tell them apart:

- `DipsolveSyntaxError`: the text is not understood (a stray character, a missing
  comma, a phase that is not a phase, a name that names nothing: an unknown province,
  power, coast or unit kind);
- `DipsolveRuleError`: the text is understood but cannot stand on the board (an army
  at sea, two units in one province, an order for a unit that is not there); its
  ``rule`` names the rule broken (``"army-at-sea"``, ``"one-unit-per-province"``,
  ``"unit"``, ...).

Both are `ValueError`\\ s and format the same way::

    start.dip:5:10: unknown province 'Pariss' (did you mean PAR, Paris?)
    units: A Pariss, A BUD
             ^^^^^^

Each carries ``filename``, ``line``, ``column`` (1-based), ``found`` (the offending text
as written, or "end of line" / "end of file"), ``expected`` (what would have been right,
in words), ``message`` (what is wrong) and ``source_line``.

When several things are wrong at once (every bad line of an orders file, every board
problem of a position), one error is raised whose ``errors`` lists them all in text
order and whose message is theirs one after another; its own ``line``, ``column`` …
are those of the first, and so is its class.

Lark's exceptions become these in one place, `lark_errors`.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping, TypeVar

from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import Token

from dipsolve.core.bounds import LIMITS, limit_error
from dipsolve.core.errors import (DipsolveError, DipsolveInternalError, DipsolveLimitError,
                             DipsolveRuleError, DipsolveSyntaxError, DipsolveUnavailable)

__all__ = ["DipsolveError", "DipsolveSyntaxError", "DipsolveLimitError", "DipsolveRuleError",
           "DipsolveUnavailable", "DipsolveInternalError", "Source", "Span", "check_units",
           "lark_errors", "placed", "placed_at"]

E = TypeVar("E", bound=DipsolveError)


# The classes live in the core (``dipsolve.core.errors``), which never imports the grammar;
# this module adds what turning text into them needs: spans, sources and Lark's errors.


@dataclass(frozen=True, slots=True)
class Span:
    """Where a piece of the text was written (1-based, as Lark counts), and the text."""
    line: int
    column: int
    text: str


class Source:
    """The text being read, to make errors that quote the offending line.

    ``line_offset`` is added to the line numbers a parser reports, for a piece of a
    larger text parsed alone (one line of an orders file).
    """

    def __init__(self, text: str, filename: str = "<string>", line_offset: int = 0) -> None:
        self.text = text
        self.filename = filename
        self.line_offset = line_offset
        self._lines: list[str] | None = None

    def _split(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text.split("\n")
        return self._lines

    def line_text(self, line: int) -> str:
        lines = self._split()
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def shifted(self, line_offset: int) -> "Source":
        """The same text for a piece of it read alone from line ``line_offset + 1``
        on, sharing its lines: a file of many lines, each read alone and each wrong,
        is split once, not once a line (which was quadratic in time and memory)."""
        piece = Source(self.text, self.filename, line_offset)
        piece._lines = self._split()
        return piece

    def error(self, cls: type[E], message: str, line: int, column: int, *,
              found: str | None = None, expected: str | None = None,
              width: int | None = None, **extra: Any) -> E:
        """An error of class ``cls`` at ``line`` and ``column`` of the text (``extra``:
        the class's own fields, a `DipsolveRuleError`'s ``rule``)."""
        line += self.line_offset
        if width is None:
            width = len(found) if found else 1
        return cls(message, filename=self.filename, line=line, column=column, found=found,
                   expected=expected, source_line=self.line_text(line), width=width, **extra)

    def at(self, cls: type[E], message: str, span: Span, expected: str | None = None,
           **extra: Any) -> E:
        """An error whose found text is the span's."""
        return self.error(cls, message, span.line, span.column, found=span.text,
                          expected=expected, **extra)


def placed(e: E, **where: Any) -> E:
    """The same error (its class, its rule and other fields) at another place:
    ``where`` sets ``filename``, ``line``, ``column``, ``source_line`` ..."""
    moved = type(e).__new__(type(e))
    moved.__dict__.update(e.__dict__, **where)
    moved.errors = [moved]
    Exception.__init__(moved, str(moved))
    return moved


def placed_at(e: E, source: Source, span: Span) -> E:
    """The error ``e`` (raised where the place was not known: a bound of the core) at
    ``span`` of ``source``."""
    line = span.line + source.line_offset
    return placed(e, filename=source.filename, line=line, column=span.column,
                  source_line=source.line_text(line), width=max(1, len(span.text)))


def check_units(spans: list[Span], source: Source) -> None:
    """Raise `DipsolveLimitError` at the first unit past ``max_units`` (``spans``: where
    each unit of a position was written, dislodged ones too)."""
    limit = int(LIMITS["max_units"].value)
    if len(spans) > limit:
        first = sorted(spans, key=lambda s: (s.line, s.column))[limit]
        raise placed_at(limit_error("max_units", f"a position of {len(spans)} units"),
                        source, first)


# ------------------------------------------------------------ from Lark, in one place
def _found(token: Token | None, text: str, pos: int | None) -> tuple[str, str]:
    """What was found: the text as written (or "end of line", "end of file" where there
    is none) and how the message names it."""
    if token is None:  # a character no terminal starts with
        ch = text[pos] if pos is not None and pos < len(text) else "\n"
    elif token.type == "$END":
        return "end of file", "end of file"
    else:
        ch = str(token.value)
    if ch.startswith(("\n", "#")):  # a newline, or the comment that ends a line
        return "end of line", "end of line"
    return ch, repr(ch)


def _describe_expected(expected: Iterable[str], labels: Mapping[str, str],
                       order: list[str]) -> str:
    seen: list[str] = []
    for name in expected:
        label = labels.get(name, labels.get(name.lstrip("_"), name))
        if label and label not in seen:
            seen.append(label)
    seen.sort(key=lambda s: order.index(s) if s in order else len(order))
    if not seen:
        return "nothing more"
    if len(seen) == 1:
        return seen[0]
    return ", ".join(seen[:-1]) + " or " + seen[-1]


@contextmanager
def lark_errors(source: Source, labels: Mapping[str, str], *, text: str | None = None,
                hidden_if: Mapping[str, str] = {},
                refine: Callable[[Token | None, set[str], dict[str, str]], str | None] | None = None,
                ) -> Iterator[None]:
    """Turn Lark's exceptions into `DipsolveSyntaxError`, and unwrap ``VisitError``.

    ``text`` is what was handed to the parser when it is a piece of ``source`` (one line
    of it, numbered ``source.line_offset + 1``).

    ``labels`` names each terminal for people (``"_DASH": "'-'"``); ``hidden_if`` leaves
    a terminal unnamed when another one is expected too (``{"_RETREATS": "_R"}``);
    ``refine(last_token, expected, labels)`` may change the expected terminals and their
    labels in place, knowing the token read before the error, and return a word of
    advice for the message (or None).
    """
    try:
        yield
    except VisitError as e:
        if isinstance(e.orig_exc, DipsolveError):
            raise e.orig_exc from None
        raise
    except UnexpectedInput as e:
        raise _from_lark(e, source, source.text if text is None else text, labels, hidden_if,
                         refine) from None


def _from_lark(e: UnexpectedInput, source: Source, text: str, labels: Mapping[str, str],
               hidden_if: Mapping[str, str], refine) -> DipsolveSyntaxError:
    labels = dict(labels)
    last: Token | None = None
    if isinstance(e, UnexpectedToken):
        token: Token | None = e.token
        expected = set(e.expected)
        last = _last_token(e)
    elif isinstance(e, UnexpectedCharacters):
        token = None
        expected = set(e.allowed or ())
        last = _last_token(e)
    else:  # UnexpectedEOF
        token = Token("$END", "")
        expected = set(getattr(e, "expected", ()))
    ip = getattr(e, "interactive_parser", None)
    if ip is not None:
        # what the parser can really take here: an LALR state merges the lookaheads of
        # every context it serves, and the lexer's set misses keywords
        try:
            expected = set(ip.accepts())
        except Exception:  # pragma: no cover  (keep the plainer set)
            pass
    expected = {t for t in expected if not (t in hidden_if and hidden_if[t] in expected)}
    advice = refine(last, expected, labels) if refine is not None else None
    order = list(dict.fromkeys(labels.values()))
    found, named = _found(token, text, getattr(e, "pos_in_stream", None))
    want = _describe_expected(expected, labels, order)
    line = getattr(e, "line", None)
    column = getattr(e, "column", None)
    if (token is not None and token.type == "$END") or line in (None, -1):
        # the end of the text: point just past its last character
        stripped = text.rstrip("\n")
        line = stripped.count("\n") + 1
        column = len(stripped) - (stripped.rfind("\n") + 1) + 1
    message = f"expected {want}, found {named}" + (f" ({advice})" if advice else "")
    width = 1 if found in ("end of line", "end of file") else len(found)
    return source.error(DipsolveSyntaxError, message, line or 1, column or 1,
                        found=found, expected=want, width=width)


def _last_token(e: UnexpectedInput) -> Token | None:
    """The token read just before the unexpected one, when Lark can tell (None at the
    start of the text, or after a reduced rule)."""
    ip = getattr(e, "interactive_parser", None)
    state = ip.parser_state if ip is not None else getattr(e, "state", None)
    stack = getattr(state, "value_stack", None)
    if stack is not None:
        return stack[-1] if stack and isinstance(stack[-1], Token) else None
    history = getattr(e, "token_history", None)
    return history[-1] if history else None
