"""The Lark parsers of DAIDE text (one order; press levels 0-130; DPP), and their errors.

Three grammars beside this file, each read by its own `DaideLexer` (the keywords are the
grammar's ``%declare``'d tokens):

- ``daide_order.lark``: one order, ``( FRA AMY PAR ) MTO BUR`` (LALR);
- ``press.lark``: every DAIDE message, press levels 0 to 130 and daidepp's extensions
  above: LALR for every message with one reading (`press_tree`), Earley, the reference,
  for the genuinely ambiguous ones (see `press_parser`);
- ``dpp.lark``: the Diplomacy Programming Project language of the Hall & Loeb seed,
  section 5 (Earley: its optional brackets make it ambiguous, not LALR(1)).

Each is built once per process.  A Lark error becomes the project's in one place,
`syntax_error`: where, what was found, what was expected (tokens named for people)::

    <order>:1:17: expected 'BLD', 'CTO', 'CVY', 'DSB', 'HLD', 'MTO', 'REM', 'RTO' or 'SUP', found 'MTX'
"""

from __future__ import annotations

from functools import cache
from typing import Any, Iterable, TypeVar

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from dipsolve.core.map import standard_map

from .errors import DipsolveError, DipsolveSyntaxError, Source
from .tokens import POWER_TOKENS, REFEREE, DaideLexer, keywords_of

__all__ = ["DIALECTS", "daide_order_parser", "error_at", "press_parser", "press_tree",
           "syntax_error"]

#: the press dialects: DAIDE message syntax v0.18 and the 1995 DPP language
DIALECTS = ("daide", "dpp")

E = TypeVar("E", bound=DipsolveError)


class _OrderLexer(DaideLexer):
    keywords = keywords_of("daide_order.lark")


class _PressLexer(DaideLexer):
    keywords = keywords_of("press.lark")


class _DppLexer(DaideLexer):
    keywords = keywords_of("dpp.lark")
    powers = frozenset(POWER_TOKENS) | {REFEREE}


@cache
def daide_order_parser() -> Lark:
    """The LALR parser for one DAIDE order (``daide_order.lark``), built once."""
    return Lark.open("daide_order.lark", rel_to=__file__, parser="lalr", lexer=_OrderLexer,
                     start="order", propagate_positions=True)


@cache
def press_parser(dialect: str = "daide") -> Lark:
    """The parser of whole messages (``press.lark`` or ``dpp.lark``), built once.

    Earley, keeping every reading (``ambiguity="explicit"``): the lowest-level one is
    chosen by `dipsolve.grammar.levels.lowest`.  Both grammars are ambiguous on purpose
    (the spec's client commands and press overlap), so LALR cannot read them."""
    name, lexer = ("press.lark", _PressLexer) if dialect == "daide" else ("dpp.lark", _DppLexer)
    return Lark.open(name, rel_to=__file__, parser="earley", lexer=lexer,
                     ambiguity="explicit", propagate_positions=True)


@cache
def _lalr_press() -> tuple[Lark, frozenset[str]]:
    """The LALR parser of ``press.lark`` with two starts, ``fast_message`` (press,
    replies, arrangements, bare orders) and ``command`` (the client-server commands),
    each LALR(1) with no conflict (``strict``: a shift/reduce conflict would be an error,
    not resolved silently), so each reads a text in at most one way; and the tokens a
    command may start with."""
    lark = Lark.open("press.lark", rel_to=__file__, parser="lalr", lexer=_PressLexer,
                     start=["fast_message", "command"], propagate_positions=True, strict=True)
    return lark, frozenset(lark.parse_interactive("", start="command").accepts())


def press_tree(text: str, dialect: str = "daide", *, reference: bool = False) -> Tree:
    """The parse of one message, every reading kept, for
    `dipsolve.grammar.levels.lowest` to choose from.

    DAIDE: LALR first.  The two LALR starts cover the grammar's top rule, ``message``,
    and each reads a text in at most one way, so a text that one of them reads has that
    one reading in the whole grammar, and a text both read (``NOT (DRW)``: the client's
    command and the arrangement) has those two, returned as Earley returns readings,
    under an ``_ambig`` node.  A text neither reads goes to Earley, the reference parser,
    so that its error is reported as before.  DPP, and ``reference=True``: Earley
    alone.  Raises Lark's `UnexpectedInput`."""
    if dialect == "daide" and not reference:
        lark, command_start = _lalr_press()
        first = next(iter(_PressLexer().lex(text)), None)
        trees: list[Tree] = []
        for start in ("command", "fast_message"):
            if start == "command" and (first is None or first.type not in command_start):
                continue
            try:
                trees.append(lark.parse(text, start=start))
            except UnexpectedInput:
                pass
        if len(trees) == 1:
            return trees[0]
        if trees:
            return Tree("start", [Tree("_ambig", trees)])
    return press_parser(dialect).parse(text)


# ---------------------------------------------------------------- errors
_LABELS: dict[str, str] = {
    "LP": "'('", "RP": "')'", "POWER": "a power (AUS, ENG, FRA, GER, ITA, RUS, TUR)",
    "PROVINCE": "a province", "COAST": "a coast (NCS, SCS, ECS, WCS)",
    "SEASON": "a season (SPR, SUM, FAL, AUT, WIN)", "INTEGER": "a number",
    "DECIMAL": "a decimal number", "TEXT": "a text in quotes", "DASH": "'-'",
}
#: past this many, the expected tokens are summed up
_MAX_NAMED = 12


def _describe(expected: Iterable[str]) -> str:
    kinds = [_LABELS[t] for t in ("LP", "RP", "POWER", "PROVINCE", "COAST", "SEASON",
                                  "INTEGER", "DECIMAL", "TEXT", "DASH") if t in expected]
    words = sorted(f"'{t}'" for t in expected if t not in _LABELS and t != "$END")
    if len(words) > _MAX_NAMED + 1:
        words = words[:_MAX_NAMED] + [f"{len(words) - _MAX_NAMED} more keywords"]
    names = kinds + words + (["end of message"] if "$END" in expected else [])
    if not names:
        return "end of message"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _advice(word: str, kind: str) -> str:
    """A word on a token the grammar does not know, or knows as something else."""
    if kind != "UNKNOWN":
        return ""
    m = standard_map()
    prov = m.province(word)
    if prov is not None:
        return f" (not a DAIDE token: {m.provinces[prov].name} is {m.provinces[prov].daide})"
    return " (not a DAIDE token)"


def syntax_error(e: UnexpectedInput, src: Source, what: str) -> DipsolveSyntaxError:
    """A Lark error as the project's: where, what was found, what was expected.
    ``what`` names the text at its end ("order": "found end of order")."""
    expected: set[str] = set(getattr(e, "expected", None) or getattr(e, "allowed", None) or ())
    token: Token | None = getattr(e, "token", None)
    if isinstance(e, UnexpectedEOF) or token is None or token.type == "$END":
        stripped = src.text.rstrip()
        line = stripped.count("\n") + 1
        column = len(stripped) - (stripped.rfind("\n") + 1) + 1
        want = _describe(expected)
        return src.error(DipsolveSyntaxError, f"expected {want}, found end of {what}", line,
                         column, found=f"end of {what}", expected=want, width=1)
    if isinstance(e, UnexpectedCharacters):  # pragma: no cover  (the lexer takes every character)
        raise e
    assert isinstance(e, UnexpectedToken)
    want = _describe(expected)
    message = f"expected {want}, found {token.value!r}{_advice(token.value, token.type)}"
    return error_at(src, DipsolveSyntaxError, message, token, want)


def error_at(src: Source, cls: type[E], message: str, at: Token, expected: str | None = None,
             /, **extra: Any) -> E:
    """An error of class ``cls`` found at the token ``at`` (``extra``: the class's own
    fields, a `DipsolveRuleError`'s ``rule``, a `PressLevelError`'s ``token`` ...)."""
    return src.error(cls, message, at.line or 1, at.column or 1, found=str(at.value),
                     expected=expected, width=len(at.value), **extra)
