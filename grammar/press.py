"""DAIDE press and orders, and the 1995 DPP language: text in, typed values out.

    >>> parse_daide_order("( FRA AMY PAR ) MTO BUR")
    ('France', Move(kind='A', location='PAR', target='BUR', via_convoy=False))
    >>> p = parse_press("PRP(XDO((ENG FLT EDI) SUP (ENG AMY LVP) MTO CLY))")
    >>> p.level, p.canonical
    (20, 'PRP (XDO ((ENG FLT EDI) SUP (ENG AMY LVP) MTO CLY))')
    >>> p.english()
    'I propose that the English fleet in Edinburgh support the English army in Liverpool into Clyde.'

DAIDE is a language of three-letter tokens and brackets (message syntax v0.18,
D. Norman, 2010).  `DaideLexer` cuts the text into tokens and gives each its kind (a
power, a province, a coast, a keyword, ...); the grammars beside this file see only
those kinds: ``daide_order.lark`` (one order), ``press.lark`` (every message, press
levels 0 to 130 and the extensions above) and ``dpp.lark`` (the Diplomacy Programming
Project language of the Hall & Loeb seed, section 5).

Press levels.  ``press.lark`` gives each rule the lowest level that admits it; the
level of a message is the highest among the rules it uses (and at level 30 a message
may hold only one AND or ORR: a second one needs level 50).  Where a text parses in
more than one way (``NOT ( DRW )``: the client's "cancel my draw", level 0, or the
arrangement "no draw", level 10) the press grammar is read with Lark's Earley parser,
which keeps every reading, and the lowest-level reading is the one taken.  A parser
``parse_press(text, level=L)`` accepts a message when it is valid and its level is at
most L; one that is valid but needs a higher level raises `PressLevelError`, naming the
token that needs it:

    <press>:1:1: 'XOY' needs press level 110; this parser is at level 20

Errors are the project's: `DipsolveSyntaxError` (not understood), with the column, a
caret and the tokens that would have been accepted there, and `PressLevelError` (a
`DipsolveRuleError`: understood, but above the level allowed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Iterable, Iterator, Union

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer

from dipsolve.map import COAST_ALIASES, POWERS, Map, standard_map
from dipsolve.orders import (Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold,
                             SupportMove, Waive)

from .errors import DipsolveError, DipsolveRuleError, DipsolveSyntaxError, Source

__all__ = ["DIALECTS", "LEVELS", "Node", "OrderAt", "Press", "PressLevelError",
           "parse_daide_order", "parse_press"]

_HERE = Path(__file__).resolve().parent

#: DAIDE power token -> the power's name ("FRA" -> "France")
POWER_TOKENS: dict[str, str] = dict(zip(("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"), POWERS))
#: the power's name -> its DAIDE token
POWER_TOKEN_OF: dict[str, str] = {v: k for k, v in POWER_TOKENS.items()}
#: DAIDE coast tokens (the standard map uses the first four; the spec has eight)
COAST_TOKENS = ("NCS", "SCS", "ECS", "WCS", "NEC", "SEC", "NWC", "SWC")
SEASON_TOKENS = ("SPR", "SUM", "FAL", "AUT", "WIN")
#: the press levels of DAIDE 0.18 (0-130, 8000 free text) and daidepp's extensions
LEVELS = (0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 8000)
#: the top DAIDE level; 140-160 are daidepp's, not DAIDE's
DAIDE_TOP = 130
DIALECTS = ("daide", "dpp")


# ================================================================ tokens
_PIECE = re.compile(r"\(|\)|'[^']*'?|[^\s()']+")
_INTEGER = re.compile(r"-?\d+\Z")
_DECIMAL = re.compile(r"-?\d*\.\d+\Z")


def _declared(name: str) -> frozenset[str]:
    """The keywords of a grammar: its ``%declare``'d terminals that are DAIDE tokens
    (three capitals), read from the .lark file and the ones it imports, so that the
    grammar is their one list."""
    text = (_HERE / name).read_text(encoding="utf-8")
    words: set[str] = set()
    for line in re.findall(r"^%declare\s+(.*)$", text, re.M):
        words.update(w for w in line.split() if re.fullmatch(r"[A-Z]{3}", w))
    for imported in set(re.findall(r"^%import\s+\.(\w+)", text, re.M)):
        words |= _declared(f"{imported}.lark")
    return frozenset(words)


@cache
def province_tokens() -> dict[str, str]:
    """DAIDE province token -> province abbreviation on the standard map ("ECH" -> "ENG")."""
    return {p.daide.upper(): p.abbr for p in standard_map().provinces.values()}


class DaideLexer(Lexer):
    """Cuts DAIDE text into tokens and names each token's kind.

    Brackets are ``LP``/``RP``; ``'text'`` is ``TEXT``; numbers are ``INTEGER`` or
    ``DECIMAL``; a word is its keyword (``MTO``), or ``POWER``, ``PROVINCE``, ``COAST``,
    ``SEASON``, ``DASH`` (DPP's turn ranges), or ``UNKNOWN``, which no rule takes, so
    the parser reports it with what it expected there.  Subclasses set the keywords
    (and the power tokens: DPP adds REF, the referee).
    """

    keywords: frozenset[str] = frozenset()
    powers: frozenset[str] = frozenset(POWER_TOKENS)

    def __init__(self, lexer_conf: Any = None) -> None:  # Lark hands over its configuration
        self.provinces = province_tokens()

    def kind(self, word: str) -> str:
        up = word.upper()
        if up in self.keywords:
            return up
        if up in self.powers:
            return "POWER"
        if up in self.provinces:
            return "PROVINCE"
        if up in COAST_TOKENS:
            return "COAST"
        if up in SEASON_TOKENS:
            return "SEASON"
        if _INTEGER.match(word):
            return "INTEGER"
        if _DECIMAL.match(word):
            return "DECIMAL"
        if word == "-":
            return "DASH"
        return "UNKNOWN"

    def lex(self, text: str) -> Iterator[Token]:  # type: ignore[override]
        line, line_start, last = 1, 0, 0
        for m in _PIECE.finditer(text):
            start, piece = m.start(), m.group()
            newlines = text.count("\n", last, start)
            if newlines:
                line += newlines
                line_start = text.rfind("\n", last, start) + 1
            last = m.end()
            if piece == "(":
                kind = "LP"
            elif piece == ")":
                kind = "RP"
            elif piece.startswith("'"):
                kind = "TEXT" if len(piece) > 1 and piece.endswith("'") else "UNKNOWN"
            else:
                kind = self.kind(piece)
            column = start - line_start + 1
            yield Token(kind, piece, start, line, column, line, column + len(piece), m.end())


class _OrderLexer(DaideLexer):
    keywords = _declared("daide_order.lark")


class _PressLexer(DaideLexer):
    keywords = _declared("press.lark")


class _DppLexer(DaideLexer):
    keywords = _declared("dpp.lark")
    powers = frozenset(POWER_TOKENS) | {"REF"}


# ================================================================ grammars
@cache
def daide_order_parser() -> Lark:
    """The LALR parser for one DAIDE order (``daide_order.lark``), built once."""
    return Lark.open("daide_order.lark", rel_to=__file__, parser="lalr", lexer=_OrderLexer,
                     start="order", propagate_positions=True)


@cache
def press_parser(dialect: str = "daide") -> Lark:
    """The parser of whole messages (``press.lark`` or ``dpp.lark``), built once.

    Earley, keeping every reading (``ambiguity="explicit"``): the lowest-level one is
    chosen by `_lowest`.  Both grammars are ambiguous on purpose (the spec's client
    commands and press overlap), so LALR cannot read them."""
    name, lexer = ("press.lark", _PressLexer) if dialect == "daide" else ("dpp.lark", _DppLexer)
    return Lark.open(name, rel_to=__file__, parser="earley", lexer=lexer,
                     ambiguity="explicit", propagate_positions=True)


_LEVEL_NOTE = re.compile(r"//\s*level\s+(\d+)")
_ALIAS = re.compile(r"->\s*(\w+)")
_RULE_HEAD = re.compile(r"^\??(\w+)\s*:")


@cache
def rule_levels() -> dict[str, int]:
    """Rule (or alias) name -> the lowest press level that admits it, read from the
    ``// level N`` notes of ``press.lark``."""
    levels: dict[str, int] = {}
    for line in (_HERE / "press.lark").read_text(encoding="utf-8").splitlines():
        note = _LEVEL_NOTE.search(line)
        if note is None or line.lstrip().startswith("//"):
            continue
        alias = _ALIAS.search(line)
        head = _RULE_HEAD.match(line)
        name = alias.group(1) if alias else head.group(1) if head else None
        if name is None:
            raise RuntimeError(f"press.lark: a level note on no rule: {line.strip()!r}")
        levels[name] = int(note.group(1))
    return levels


# ================================================================ errors
class PressLevelError(DipsolveRuleError):
    """The message is understood, but needs a higher press level than the parser's.

    ``token`` is the token that needs it, ``needed`` its level, ``level`` the parser's."""

    def __init__(self, message: str, *, token: str = "", needed: int = 0, level: int = 0,
                 **kw: Any) -> None:
        self.token = token
        self.needed = needed
        self.level = level
        super().__init__(message, **kw)


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


def _syntax_error(e: UnexpectedInput, src: Source, what: str) -> DipsolveSyntaxError:
    """A Lark error as the project's: where, what was found, what was expected."""
    expected: set[str] = set(getattr(e, "expected", None) or getattr(e, "allowed", None) or ())
    token = getattr(e, "token", None)
    if isinstance(e, UnexpectedEOF) or token is None or token.type == "$END":
        stripped = src.text.rstrip()
        line = stripped.count("\n") + 1
        column = len(stripped) - (stripped.rfind("\n") + 1) + 1
        want = _describe(expected)
        message = f"expected {want}, found end of {what}"
        return src.error(DipsolveSyntaxError, message, line, column,  # type: ignore[return-value]
                         found=f"end of {what}", expected=want, width=1)
    if isinstance(e, UnexpectedCharacters):  # pragma: no cover  (the lexer takes every character)
        raise e
    assert isinstance(e, UnexpectedToken)
    want = _describe(expected)
    message = f"expected {want}, found {token.value!r}{_advice(token.value, token.type)}"
    return src.error(DipsolveSyntaxError, message, token.line, token.column,  # type: ignore[return-value]
                     found=token.value, expected=want, width=len(token.value))


def _error_at(src: Source, cls: type[DipsolveError], message: str, token: Token,
              expected: str | None = None) -> DipsolveError:
    return src.error(cls, message, token.line, token.column, found=str(token.value),
                     expected=expected, width=len(token.value))


# ================================================================ orders
def _daide_names(m: Map | None) -> dict[str, str]:
    """DAIDE province token -> province abbreviation on ``m`` (the standard map if None)."""
    if m is None or m is standard_map():
        return province_tokens()
    return {p.daide.upper(): p.abbr for p in m.provinces.values()}


def _location(t: Tree, src: Source, m: Map | None = None) -> str:
    """A ``location`` subtree as the map's location ("STP/SC"); a coast the province
    does not have is not understood."""
    tokens = [c for c in t.children if isinstance(c, Token) and c.type in ("PROVINCE", "COAST")]
    prov = _daide_names(m)[tokens[0].value.upper()]
    if len(tokens) == 1:
        return prov
    coast_token = tokens[1]
    coast = COAST_ALIASES.get(coast_token.value.upper())
    province = (m or standard_map()).provinces[prov]
    if coast not in province.coasts:
        want = (" or ".join(f"{k}S" for k in province.coasts) if province.coasts
                else f"{tokens[0].value.upper()} alone ({province.name} has no coasts)")
        raise _error_at(src, DipsolveSyntaxError, f"expected {want}, found {coast_token.value!r}",
                        coast_token, want)
    return f"{prov}/{coast}"


def _unit(t: Tree, src: Source, m: Map | None = None) -> tuple[str | None, str, str]:
    """(the power's name, None for DPP's referee; "A" or "F"; the location)."""
    power, kind = t.children[0], t.children[1]
    loc = next(c for c in t.children if isinstance(c, Tree) and c.data == "location")
    return (POWER_TOKENS.get(power.value.upper()), "A" if kind.type == "AMY" else "F",
            _location(loc, src, m))


ORDER_RULES = frozenset({"hld", "mto", "sup_hld", "sup_mto", "cvy", "cto", "rto", "dsb",
                         "bld", "rem", "wve", "cnv", "cto_dpp", "wve_dpp"})


def _order(t: Tree, src: Source, m: Map | None = None) -> tuple[str | None, Order]:
    """An order subtree (``daide_order.lark``, or DPP's) -> (the power's name, `Order`).
    DPP's lone ``(WVE)`` in a SUB has no power: None."""
    rule = t.data
    if rule == "wve":
        return POWER_TOKENS.get(t.children[0].value.upper()), Waive()
    if rule == "wve_dpp":
        return None, Waive()
    subtrees = [c for c in t.children if isinstance(c, Tree)]
    units = [c for c in subtrees if c.data == "unit"]
    power, kind, loc = _unit(units[0], src, m)
    places = [c for c in t.children if isinstance(c, Token) and c.type == "PROVINCE"]
    target = (_daide_names(m)[places[0].value.upper()] if places else None)
    dest = next((_location(c, src, m) for c in subtrees if c.data == "location"), None)
    if rule == "hld":
        return power, Hold(kind, loc)
    if rule == "mto":
        return power, Move(kind, loc, dest or "")
    if rule in ("sup_hld", "sup_mto"):
        _, skind, sloc = _unit(units[1], src, m)
        if rule == "sup_hld":
            return power, SupportHold(kind, loc, skind, sloc)
        return power, SupportMove(kind, loc, skind, sloc, target or "")
    if rule in ("cvy", "cnv"):
        _, ckind, cloc = _unit(units[1], src, m)
        return power, Convoy(loc, ckind, cloc, dest or target or "", kind)
    if rule in ("cto", "cto_dpp"):
        return power, Move(kind, loc, dest or target or "", via_convoy=True)
    if rule == "rto":
        return power, Retreat(kind, loc, dest or "")
    if rule in ("dsb", "rem"):
        return power, Disband(kind, loc)
    if rule == "bld":
        return power, Build(kind, loc)
    raise AssertionError(f"not an order rule: {rule}")  # pragma: no cover


def parse_daide_order(text: str, *, source: str = "<order>",
                      game_map: Map | None = None) -> tuple[str, Order]:
    """One order in DAIDE token syntax -> (the power's name, the `Order`).

    ``( ENG FLT ( STP SCS ) ) MTO GOB``, ``( FRA AMY PAR ) SUP ( FRA FLT BRE ) MTO PIC``,
    ``( ITA AMY TUN ) CTO SYR VIA ( ION EAS )`` (the route is read, then left to the
    adjudicator: `Move` keeps only ``via_convoy``), ``RUS WVE``.  Locations come out
    as the map's (``ECH`` -> ``"ENG"``, ``( STP SCS )`` -> ``"STP/SC"``).  Raises
    `DipsolveSyntaxError` with the column and the tokens expected there.  ``game_map``
    is the map the locations are read on (the standard map if None; the lexer knows
    the standard map's DAIDE tokens).
    """
    src = Source(text, source)
    try:
        tree = daide_order_parser().parse(text)
    except UnexpectedInput as e:
        raise _syntax_error(e, src, "order") from None
    power, order = _order(tree, src, game_map)
    assert power is not None
    return power, order


# ================================================================ values
Part = Union["Node", str]


@dataclass(frozen=True, slots=True)
class Node:
    """One construct of a message: its grammar rule and its parts, in order: tokens
    (upper case; brackets as ``"("``/``")"``; a text as written, quotes included) and
    the constructs inside it."""

    rule: str
    parts: tuple[Part, ...]

    def tokens(self) -> Iterator[str]:
        """Every token, brackets included, in text order."""
        for p in self.parts:
            if isinstance(p, Node):
                yield from p.tokens()
            else:
                yield p

    def words(self) -> list[str]:
        """This construct's own tokens, brackets left out (``PCE``, ``AUS``, ...)."""
        return [p for p in self.parts if isinstance(p, str) and p not in "()"]

    def children(self) -> list["Node"]:
        return [p for p in self.parts if isinstance(p, Node)]

    def walk(self) -> Iterator["Node"]:
        yield self
        for c in self.children():
            yield from c.walk()

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule,
                "parts": [p.to_json() if isinstance(p, Node) else p
                          for p in self.parts if not (isinstance(p, str) and p in "()")]}

    def pretty(self, indent: str = "  ") -> str:
        """The tree as text, one construct a line, its own tokens beside it."""
        lines: list[str] = []

        def show(n: Node, depth: int) -> None:
            if n.rule in _INLINE or n.rule in ORDER_RULES:
                lines.append(f"{indent * depth}{n.rule}  {canonical_text(n.tokens())}")
                return
            own = " ".join(n.words())
            lines.append(f"{indent * depth}{n.rule}" + (f"  {own}" if own else ""))
            for c in n.children():
                show(c, depth + 1)
        show(self, 0)
        return "\n".join(lines)


#: constructs `Node.pretty` shows as their text on one line
_INLINE = frozenset({"location", "unit", "turn", "unit_on_board", "centres", "occupier", "share",
                     "order_outcome", "order_note", "order_result", "variant_option", "pda",
                     "ptl", "npr", "npb", "power_summary", "tokens", "try_token", "period",
                     "mdf_provinces", "mdf_adjacencies"})


def canonical_text(tokens: Iterable[str]) -> str:
    """Tokens joined as the DAIDE spec writes them: one space between tokens, none
    after ``(`` or before ``)``: ``PRP (PCE (AUS GER))``."""
    out: list[str] = []
    prev = None
    for t in tokens:
        if prev is not None and prev != "(" and t != ")":
            out.append(" ")
        out.append(t)
        prev = t
    return "".join(out)


@dataclass(frozen=True, slots=True)
class OrderAt:
    """An order inside a message: whose (None for DPP's bare ``(WVE)``), the `Order`,
    where it is written (line, column, width) and the construct that carries it
    (``"xdo"``, ``"sub"``, ``"ord"``, ``"bare_order"``, ...)."""

    power: str | None
    order: Order
    line: int
    column: int
    width: int
    said_in: str


@dataclass(frozen=True)
class Press:
    """A message read by `parse_press`.

    ``tree`` is what it says (a `Node`); ``dialect`` "daide" or "dpp"; ``level`` the
    lowest DAIDE press level that admits it (None in DPP, which has no levels).  Two
    messages are equal when they say the same thing: spacing and case do not count.
    """

    tree: Node
    dialect: str = "daide"
    level: int | None = 0
    #: every order in the message, in text order, with its place
    located_orders: tuple[OrderAt, ...] = field(default=(), compare=False, repr=False)

    @property
    def canonical(self) -> str:
        """The message in canonical spacing and case; it reads back as the same `Press`."""
        return canonical_text(self.tree.tokens())

    def __str__(self) -> str:
        return self.canonical

    def pretty(self) -> str:
        return self.tree.pretty()

    def orders(self) -> list[tuple[str | None, Order]]:
        """Every order in the message (in XDO, SUB, ORD, ...), with its power's name."""
        return [(o.power, o.order) for o in self.located_orders]

    def english(self) -> str:
        """The message in English, in the manner of the Hall & Loeb seed's glosses."""
        return english(self)

    def to_json(self) -> dict[str, Any]:
        return {"dialect": self.dialect, "level": self.level, "canonical": self.canonical,
                "tree": self.tree.to_json(),
                "orders": [{"power": o.power, "order": str(o.order), "line": o.line,
                            "column": o.column, "in": o.said_in} for o in self.located_orders]}


# ================================================================ reading a message
@dataclass(frozen=True, slots=True)
class _Reading:
    """One reading of a (piece of a) message: its tree without ambiguity, the level it
    needs by its rules, and its AND/ORR nodes (two or more need level 50)."""

    tree: Tree
    level: int
    logical: int


_LOGICAL = ("and", "orr")


@cache
def _rule_order(dialect: str) -> dict[str, int]:
    """Rule (and alias) name -> its place in the grammar file: of two readings that
    need the same level, the one whose rule comes first is taken (the client-server
    commands come before press, so a top-level ``DRW (ENG FRA)`` is the draw command)."""
    order: dict[str, int] = {}
    for r in press_parser(dialect).rules:
        for name in (r.alias, r.origin.name):
            if name:
                order.setdefault(str(name), len(order))
    return order


def _lowest(t: Tree, levels: dict[str, int], order: dict[str, int]) -> _Reading:
    """The reading of ``t`` that needs the lowest level (see `_rule_order` for ties)."""
    if t.data == "_ambig":
        readings = [_lowest(c, levels, order) for c in t.children if isinstance(c, Tree)]
        return min(readings, key=lambda r: (_effective(r), r.logical,
                                            order.get(str(r.tree.data), len(order))))
    children: list[Any] = []
    level = levels.get(str(t.data), 0)
    logical = 1 if t.data in _LOGICAL else 0
    for c in t.children:
        if isinstance(c, Tree):
            r = _lowest(c, levels, order)
            children.append(r.tree)
            level = max(level, r.level)
            logical += r.logical
        else:
            children.append(c)
    return _Reading(Tree(t.data, children, t.meta), level, logical)


def _effective(r: _Reading) -> int:
    return max(r.level, 50) if r.logical >= 2 else r.level


def _first_token(t: Tree) -> Token:
    for c in t.children:
        if isinstance(c, Token):
            if c.type not in ("LP", "RP"):
                return c
        else:
            return _first_token(c)
    return next(t.scan_values(lambda v: isinstance(v, Token)))  # pragma: no cover


def _level_error(t: Tree, allowed: int, src: Source, levels: dict[str, int]) -> PressLevelError | None:
    """The first token (in text order) that needs more than ``allowed``."""
    worst: list[tuple[int, int, Token]] = []   # (position, level, token)
    logical: list[Token] = []

    def visit(n: Tree) -> None:
        need = levels.get(str(n.data), 0)
        if need > allowed:
            tok = _first_token(n)
            worst.append((tok.start_pos or 0, need, tok))
        if n.data in _LOGICAL:
            logical.append(_first_token(n))
        for c in n.children:
            if isinstance(c, Tree):
                visit(c)
    visit(t)
    if len(logical) >= 2 and allowed < 50:
        second = sorted(logical, key=lambda k: k.start_pos or 0)[1]
        worst.append((second.start_pos or 0, 50, second))
    if not worst:
        return None
    _, need, tok = min(worst, key=lambda w: w[0])
    word = str(tok.value).upper()
    why = " (a second AND or ORR in one message)" if need == 50 and word in ("AND", "ORR") \
        and levels.get(word.lower(), 0) < 50 else ""
    if tok.type == "TEXT":
        message = f"free text {tok.value} needs press level {need}; this parser is at level {allowed}"
    else:
        if need > DAIDE_TOP and not why:
            why = " (a daidepp extension, not DAIDE 0.18)"
        message = f"{word!r} needs press level {need}{why}; this parser is at level {allowed}"
    err = _error_at(src, PressLevelError, message, tok, f"a message of press level {allowed} or lower")
    return PressLevelError(err.message, token=word, needed=need, level=allowed,
                           filename=err.filename, line=err.line, column=err.column,
                           found=err.found, expected=err.expected, source_line=err.source_line,
                           width=err.width)


def _check(t: Tree, src: Source, line_offset: int = 0, dialect: str = "daide") -> list[OrderAt]:
    """What the grammar leaves to be checked, in text order: coasts the province has,
    supply centres where the spec says centres, no FOR inside a FOR (outside a press
    message); and the orders of the message, built."""
    centres = standard_map().centers
    orders: list[OrderAt] = []

    def visit(n: Tree, in_for: bool, carrier: str) -> None:
        rule = str(n.data)
        if rule in ORDER_RULES:
            power, order = _order(n, src)
            m = n.meta
            width = (m.end_pos - m.start_pos) if m.line == m.end_line else len(src.line_text(m.line))
            orders.append(OrderAt(power, order, m.line + line_offset, m.column, width, carrier))
        elif rule in ("location", "unit"):
            if rule == "location":
                _location(n, src)
            else:
                _unit(n, src)
        elif rule == "centres":
            for c in n.children:
                if isinstance(c, Token) and c.type == "PROVINCE" \
                        and province_tokens()[c.value.upper()] not in centres:
                    raise _error_at(src, DipsolveSyntaxError,
                                    f"expected a supply centre, found {c.value!r}", c,
                                    "a supply centre")
        elif rule in ("for", "for_period") and dialect == "daide":
            if in_for:
                raise _error_at(src, DipsolveSyntaxError, "a FOR inside a FOR (only allowed "
                                "inside a press message it carries)", _first_token(n),
                                "an arrangement without FOR")
            in_for = True
        elif rule in _SAID:
            in_for = False
        for c in n.children:
            if isinstance(c, Tree):
                visit(c, in_for, carrier if rule in ("unit", "location") or rule in ORDER_RULES
                      else rule)
    visit(t, False, str(t.data))
    return orders


#: rules that carry a whole press message (a FOR inside it is its own)
_SAID = frozenset({"snd", "frm", "send_message", "frm_command", "iff"})


def _to_node(t: Tree) -> Node:
    parts: list[Part] = []
    for c in t.children:
        if isinstance(c, Tree):
            parts.append(_to_node(c))
        elif c.type == "LP":
            parts.append("(")
        elif c.type == "RP":
            parts.append(")")
        elif c.type == "TEXT":
            parts.append(str(c.value))
        else:
            parts.append(str(c.value).upper())
    return Node(str(t.data), tuple(parts))


def parse_press(text: str, *, level: int = DAIDE_TOP, dialect: str = "daide",
                source: str = "<press>", line: int = 1) -> Press:
    """One message -> `Press`.

    ``dialect="daide"``: DAIDE message syntax v0.18, client-server messages and press
    (bare arrangements and bare orders too); the message is accepted when its lowest
    level is at most ``level``, else `PressLevelError` names the first token above it.
    ``dialect="dpp"``: the Diplomacy Programming Project language of the Hall & Loeb
    seed (``FRM RUS (DMZ (BLA ARM))``), which has no levels (``level`` is ignored).
    Raises `DipsolveSyntaxError` for what is not understood.  Errors name ``source``
    and count lines from ``line`` (for a file read one message a line).
    """
    if dialect not in DIALECTS:
        raise ValueError(f"unknown dialect {dialect!r} (expected daide or dpp)")
    src = Source(text, source)
    try:
        return _parse_press(text, src, level, dialect, line)
    except DipsolveError as e:
        if line == 1:
            raise
        raise _shifted(e, line - 1) from None


def _shifted(e: DipsolveError, lines: int) -> DipsolveError:
    """The same error, ``lines`` further down (a message read from a line of a file)."""
    extra = ({"token": e.token, "needed": e.needed, "level": e.level}
             if isinstance(e, PressLevelError) else {})
    return type(e)(e.message, filename=e.filename, line=(e.line or 1) + lines, column=e.column,
                   found=e.found, expected=e.expected, source_line=e.source_line,
                   width=e.width, **extra)


def _parse_press(text: str, src: Source, level: int, dialect: str, line: int) -> Press:
    if not text.strip():
        raise src.error(DipsolveSyntaxError, "expected a message, found nothing", 1, 1,
                        found="end of message", expected="a message")
    try:
        parsed = press_parser(dialect).parse(text)
    except UnexpectedInput as e:
        raise _syntax_error(e, src, "message") from None
    levels = rule_levels() if dialect == "daide" else {}
    reading = _lowest(parsed, levels, _rule_order(dialect))
    tree = reading.tree.children[0] if reading.tree.data == "start" else reading.tree
    located = _check(tree, src, line - 1, dialect)
    if dialect == "dpp":
        return Press(_to_node(tree), "dpp", None, tuple(located))
    error = _level_error(tree, level, src, levels)
    if error is not None:
        raise error
    return Press(_to_node(tree), "daide", _effective(reading), tuple(located))


# ================================================================ English
# A message in English, in the manner of the glosses of the Hall & Loeb seed
# (section 5): the sender speaks ("I propose that ..."), arrangements become clauses,
# a forwarded message is reported ("Italy says Austria has declared war on him").

_ADJECTIVES = {"Austria": "Austrian", "England": "English", "France": "French",
               "Germany": "German", "Italy": "Italian", "Russia": "Russian", "Turkey": "Turkish"}
_SEASON_NAMES = {"SPR": "Spring", "SUM": "Summer (Spring retreats)", "FAL": "Fall",
                 "AUT": "Autumn (Fall retreats)", "WIN": "Winter"}
_COAST_NAMES = {"NCS": "north coast", "SCS": "south coast", "ECS": "east coast",
                "WCS": "west coast", "NEC": "north-east coast", "SEC": "south-east coast",
                "NWC": "north-west coast", "SWC": "south-west coast"}
_OUTCOMES = {
    "SUC": "succeeded", "BNC": "bounced", "CUT": "was cut", "DSR": "failed (convoy disrupted)",
    "NSO": "had no matching order", "RET": "must retreat", "MBV": "is accepted",
    "FAR": "is refused: not adjacent", "NSP": "is refused: no such province",
    "NSU": "is refused: no such unit", "NAS": "is refused: not at sea",
    "NSF": "is refused: no such fleet", "NSA": "is refused: no such army",
    "NYU": "is refused: not your unit", "NRN": "is refused: no retreat needed",
    "NVR": "is refused: not a valid retreat", "YSC": "is refused: not your supply centre",
    "ESC": "is refused: not an empty supply centre", "HSC": "is refused: not a home supply centre",
    "NSC": "is refused: not a supply centre", "CST": "is refused: no coast given",
    "NMB": "is refused: no more builds allowed", "NMR": "is refused: no more removals allowed",
    "NRS": "is refused: not the right season", "FLD": "failed", "VLD": "succeeded",
    "NST": "is refused: no such unit type"}
_IRREGULAR = {"be": "been", "win": "won", "make": "made", "keep": "kept", "send": "sent",
              "hold": "held", "give": "given", "have": "had", "build": "built", "say": "said",
              "do": "done", "tell": "told", "think": "thought"}


def _third(verb: str) -> str:
    if verb == "have":
        return "has"
    if verb == "do":
        return "does"
    if verb.endswith(("s", "sh", "ch", "x", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _participle(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


def _plural(subject: str) -> bool:
    return subject in ("I", "you", "we", "they") or " and " in subject or subject.startswith(
        ("both ", "all ", "exactly ", "between "))


def conjugate(subject: str, verb: str, mood: str = "ind", neg: bool = False) -> str:
    """``subject`` + the verb phrase ``verb`` (its first word a verb in the base form)
    in a mood: "subj" (that England *order*), "ind" (England *orders*), "perfect"
    (England *has ordered*), "inf" (*to order*, no subject)."""
    first, _, rest = verb.partition(" ")
    if mood == "inf":
        words = ("not to " if neg else "to ") + first
        return f"{words} {rest}".strip()
    if mood == "subj":
        v = ("not " if neg else "") + first
    elif mood == "perfect":
        v = ("have" if _plural(subject) else "has") + (" not " if neg else " ") + _participle(first)
    elif first == "be":
        v = "am" if subject == "I" else "are" if _plural(subject) else "is"
        v += " not" if neg else ""
    elif neg:
        v = ("do" if _plural(subject) else "does") + " not " + first
    else:
        v = first if _plural(subject) else _third(first)
    return f"{subject} {v} {rest}".strip()


def _join(items: list[str], word: str = "and") -> str:
    if not items:
        return "nobody"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


@dataclass(frozen=True)
class _Clause:
    """An arrangement as a clause: a subject, a verb phrase, and whether it is denied;
    or several clauses joined by "and"/"or"."""

    subject: str = ""
    verb: str = ""
    neg: bool = False
    parts: tuple["_Clause", ...] = ()
    joiner: str = "and"

    def render(self, mood: str = "ind") -> str:
        if self.parts:
            return _join([f"({p.render(mood)})" if p.parts else p.render(mood)
                          for p in self.parts], self.joiner)
        return conjugate(self.subject, self.verb, mood, self.neg)

    def negated(self) -> "_Clause":
        if self.parts:
            return _Clause("it", "be so that " + self.render("ind"), True)
        return _Clause(self.subject, self.verb, not self.neg)

    def then(self, tail: str) -> "_Clause":
        if self.parts:
            return _Clause("all this", f"hold {tail}", self.neg)
        return _Clause(self.subject, f"{self.verb} {tail}", self.neg)


def _still_to_order(count: int) -> str:
    """MIS (number): removals still to order (positive) or builds (negative)."""
    return (f"{count} more removals are needed" if count >= 0
            else f"{-count} more builds are to be ordered or waived")


def english(press: Press) -> str:
    """``press`` in English (see `Press.english`)."""
    return _English(press.dialect).sentence(press.tree)


class _English:
    """Renders `Node` trees; ``speaker`` and ``listener`` are who says a message to
    whom ("I" and "you" unless a FRM or SND says otherwise)."""

    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
        self.map = standard_map()
        self.mentioned: list[Node] = []

    # ---------------------------------------------------------------- words
    def power(self, token: str) -> str:
        return POWER_TOKENS.get(token, "the referee" if token == "REF" else token)

    def powers(self, tokens: list[str]) -> str:
        return _join([self.power(t) for t in tokens])

    def province(self, token: str) -> str:
        prov = self.map.provinces[province_tokens()[token]]
        return ("the " if prov.terrain == "sea" else "") + prov.name

    def provinces(self, tokens: list[str]) -> str:
        return _join([self.province(t) for t in tokens])

    def place(self, n: Node) -> str:
        words = n.words()
        name = self.province(words[0])
        return f"{name} ({_COAST_NAMES[words[1]]})" if len(words) > 1 else name

    def unit(self, n: Node, article: str = "the") -> str:
        power, kind = n.words()[:2]
        what = {"AMY": "army", "FLT": "fleet", "UNT": "unit"}[kind]
        adjective = _ADJECTIVES.get(self.power(power), "referee's")
        loc = next(c for c in n.children() if c.rule == "location")
        if article == "a":
            article = "an" if adjective[0] in "AEIOU" else "a"
        return f"{article} {adjective} {what} in {self.place(loc)}"

    def kind_in(self, n: Node) -> str:
        """ "a fleet in Edinburgh": the unit without its power."""
        kind = {"AMY": "an army", "FLT": "a fleet", "UNT": "a unit"}[n.words()[1]]
        loc = next(c for c in n.children() if c.rule == "location")
        return f"{kind} in {self.place(loc)}"

    def turn(self, n: Node) -> str:
        season, year = n.words()
        return f"{_SEASON_NAMES[season]} {year}"

    def quote(self, n: Node) -> str:
        """A message another power said or is to say, in its own words."""
        return '"' + _English(self.dialect).sentence(n) + '"'

    # ---------------------------------------------------------------- orders
    def order(self, n: Node) -> _Clause:
        rule, words = n.rule, n.words()
        units = [c for c in n.children() if c.rule == "unit"]
        places = [c for c in n.children() if c.rule == "location"]
        provinces = [w for w in words if w in province_tokens()]
        if rule in ("wve", "wve_dpp"):
            return _Clause(self.power(words[0]) if words[0] in POWER_TOKENS else "I", "waive a build")
        who = self.unit(units[0])
        if rule == "hld":
            return _Clause(who, "hold")
        if rule == "mto":
            return _Clause(who, f"move to {self.place(places[-1])}")
        if rule == "sup_hld":
            return _Clause(who, f"support {self.unit(units[1])}")
        if rule == "sup_mto":
            return _Clause(who, f"support {self.unit(units[1])} into {self.province(provinces[0])}")
        if rule in ("cvy", "cnv"):
            dest = self.place(places[-1]) if rule == "cnv" else self.province(provinces[0])
            return _Clause(who, f"convoy {self.unit(units[1])} to {dest}")
        if rule == "cto":
            return _Clause(who, f"move to {self.province(provinces[0])} by convoy through "
                                f"{self.provinces(provinces[1:])}")
        if rule == "cto_dpp":
            return _Clause(who, f"move to {self.place(places[-1])} by convoy of "
                                f"{_join([self.unit(u) for u in units[1:]])}")
        if rule == "rto":
            return _Clause(who, f"retreat to {self.place(places[-1])}")
        if rule == "dsb":
            return _Clause(who, "disband")
        power = self.power(units[0].words()[0])
        if rule == "bld":
            return _Clause(power, f"build {self.kind_in(units[0])}")
        return _Clause(power, f"remove {who}")          # rem

    # ---------------------------------------------------------------- arrangements
    def clause(self, n: Node) -> _Clause:
        """An arrangement (or, in DPP, any message) as a clause."""
        r, w, kids = n.rule, n.words(), n.children()
        if r in ORDER_RULES:
            return self.order(n)
        if r == "pce":
            return _Clause(self.powers(w[1:]) if len(w) > 1 else "you and I", "be at peace")
        if r in ("aly", "aly_versus"):
            head, _, versus = " ".join(w[1:]).partition("VSS")
            allies = self.powers(head.split()) if head.split() else "you and I"
            against = f" against {self.powers(versus.split())}" if versus.split() else ""
            return _Clause(allies, f"be allied{against}")
        if r == "drw":
            if len(w) == 2:            # DPP: a one-power draw is a victory
                return _Clause(self.power(w[1]), "win the game")
            between = f" between {self.powers(w[1:])}" if len(w) > 1 else ""
            return _Clause("the game", f"end in a draw{between}")
        if r == "slo":
            return _Clause(self.power(w[1]), "win the game alone")
        if r == "not":
            if self.dialect == "dpp" and not kids:
                return _Clause("we", "disagree")
            return self.clause(kids[0]).negated()
        if r == "nar":
            return _Clause("there", "be no agreement on whether " + self.clause(kids[0]).render("ind"))
        if r == "xdo":
            orders = [self.order(k) for k in kids]
            return orders[0] if len(orders) == 1 else _Clause(parts=tuple(orders))
        if r == "dmz":
            if self.dialect == "dpp":
                provinces = [t for t in w if t in province_tokens()]
                by = [t for t in w if t in POWER_TOKENS]
                if not provinces:
                    between = self.powers(by) if by else "you and me"
                    return _Clause("there", f"be a demilitarized zone between {between}")
                kept = f"be kept empty{' by ' + self.powers(by) if by else ''}"
                return _Clause(self.provinces(provinces), f"{kept} as a sort of Demilitarized Zone")
            powers = [t for t in w if t in POWER_TOKENS]
            provinces = [t for t in w if t in province_tokens()]
            return _Clause(self.powers(powers), f"keep {self.provinces(provinces)} demilitarized")
        if r == "dmz_listed":
            return _Clause(self.provinces(w[1:]), "be kept empty as a sort of Demilitarized Zone")
        if r in ("and", "orr", "logical"):
            joiner = "and" if r == "and" or w[0] == "AND" else "or"
            return _Clause(parts=tuple(self.clause(k) for k in kids), joiner=joiner)
        if r == "scd":
            shares = []
            for k in kids:
                owner, *rest = k.words()
                who = "nobody" if owner == "UNO" else self.power(owner)
                what = (f"{rest[0]} centre{'' if rest[0] == '1' else 's'}" if rest and rest[0] not in province_tokens()
                        else self.provinces(rest))
                shares.append(f"{who} {'gets' if owner != 'UNO' else 'keeps'} {what}")
            return _Clause("the supply centres", "be shared so that " + "; ".join(shares))
        if r == "occ":
            return _Clause(parts=tuple(_Clause(self.power(k.words()[0]), "have " + self.kind_in(k))
                                       for k in kids))
        if r == "cho":
            low, high = w[1], w[2]
            count = f"exactly {low}" if low == high else f"between {low} and {high}"
            options = [self.clause(k).render("ind") for k in kids]
            return _Clause(f"{count} of these", "come true: " + "; ".join(options))
        if r in ("for", "for_period"):
            turns = [k for k in kids if k.rule == "turn"]
            when = (f"in {self.turn(turns[0])}" if r == "for"
                    else f"from {self.turn(turns[0])} to {self.turn(turns[1])}")
            return self.clause(kids[-1]).then(when)
        if r == "xoy":
            return _Clause(self.power(w[1]), f"owe {self.power(w[2])} a favour")
        if r == "ydo":
            units = _join([self.unit(k) for k in kids if k.rule == "unit"])
            return _Clause(self.power(w[1]), f"decide the orders of {units}")
        if r == "snd":
            sender, *to = [t for t in w if t in POWER_TOKENS]
            return _Clause(self.power(sender), f"send {self.powers(to)} the message {self.quote(kids[-1])}")
        if r == "fwd":
            powers = [t for t in w if t in POWER_TOKENS]
            *senders, receiver, target = powers
            return _Clause(self.power(receiver), f"forward to {self.power(target)} every message "
                                                 f"from {self.powers(senders)}")
        if r == "bcc":
            powers = [t for t in w if t in POWER_TOKENS]
            sender, *to, target = powers
            return _Clause(self.power(sender), f"copy to {self.power(target)} every message it "
                                               f"sends to {self.powers(to)}")
        if r == "rof":
            return _Clause("you", "make me an offer")
        if r in ("ulb", "uub"):
            bound = "at least" if r == "ulb" else "at most"
            return _Clause(f"my regard for {self.power(w[1])}", f"be {bound} {w[2]}")
        # anything else, said as a message
        return _Clause("someone", f"say {self.quote(n)}")

    def infinitive(self, n: Node) -> str:
        """What a listener is asked to agree to (DPP): "ally with me against Austria"."""
        r, w = n.rule, n.words()
        if r in ("dmz", "dmz_listed"):
            return "demilitarize " + self.provinces([t for t in w if t in province_tokens()])
        if r in ("aly", "aly_versus"):
            head, _, versus = " ".join(w[1:]).partition("VSS")
            allies = self.powers(head.split()) if head.split() else "me"
            against = f" against {self.powers(versus.split())}" if versus.split() else ""
            return f"ally with {allies}{against}"
        if r == "pce":
            return "make peace" + (f" between {self.powers(w[1:])}" if len(w) > 1 else " with me")
        c = self.clause(n)
        return "agree that " + c.render("subj") if c.subject not in ("you",) else c.render("inf")

    # ---------------------------------------------------------------- messages
    def sentence(self, n: Node) -> str:
        text = self.say(n, "I", "you")
        text = text[0].upper() + text[1:]
        return text if text.endswith(("?", ".", '"')) else text + "."

    def say(self, n: Node, speaker: str, listener: str, mood: str = "ind") -> str:
        """What ``speaker`` says to ``listener`` with the message ``n`` (no final stop)."""
        r, w, kids = n.rule, n.words(), n.children()
        me = speaker

        def v(verb: str, neg: bool = False) -> str:
            return conjugate(me, verb, mood, neg)

        if self.dialect == "dpp":
            said = self._dpp_say(n, v)
            if said is not None:
                return said

        said = {"prp": ("propose that", "subj"), "ins": ("insist that", "subj"),
                "sug": ("suggest that", "subj"), "qry": ("ask whether", "ind"),
                "thk": ("think that", "ind"), "fct": ("state as a fact that", "ind")}
        if r in said and (kids and self._is_arrangement(kids[0])):
            verb, m = said[r]
            return v(f"{verb} {self.clause(kids[0]).render(m)}")
        if r == "proposal":          # DPP QRY/INS/PRP of a whole message
            verb = {"QRY": "ask whether", "INS": "insist that", "PRP": "propose that"}[w[0]]
            return v(f"{verb} {self._as_clause(kids[0], 'subj' if w[0] != 'QRY' else 'ind')}")
        if r in ("thk_query", "fct_query"):
            inner = kids[0]
            neg = inner.rule == "not_query"
            arrangement = (inner.children()[0] if neg else inner).children()[0]
            verb = "think that" if r == "thk_query" else "state as a fact that"
            return v(f"{verb} {self.clause(arrangement).render('ind') if not neg else self.clause(arrangement).negated().render('ind')}")
        if r == "idk_query":
            return v(f"do not know whether {self.clause(kids[0].children()[0]).render('ind')}")
        if r == "idk_request":
            inner = kids[0]
            if inner.rule == "wht":
                return v(f"have no suggestion for {self.unit(inner.children()[0])}")
            return v(f"have no suggestion on how to attack {self._target(inner)}")
        if r == "idk_explanation":
            return v(f"see nothing to explain in {self.turn(kids[0].children()[0])}")
        if r == "sry":
            return v(f"be sorry about {self.turn(kids[0].children()[0])}")
        if r == "why":
            inner = kids[0]
            verb = {"thk": "think", "fct": "state", "sug": "suggest", "prp": "propose",
                    "ins": "insist"}[inner.rule]
            m = "ind" if inner.rule in ("thk", "fct") else "subj"
            return v(f"ask why you {verb} that {self.clause(inner.children()[0]).render(m)}")
        if r == "pob":
            fact = kids[0].children()[0]
            return f"the position on the board implies that {self.clause(fact.children()[0]).render('ind')}"
        if r == "idk_proposal":
            inner = kids[0]
            return v(f"do not know whether to accept your {self._noun(inner)} that "
                     f"{self.clause(inner.children()[0]).render('subj')}")
        if r == "emotion":
            feeling = {"UHY": "unhappy", "HPY": "happy", "ANG": "angry"}[w[0]]
            return v(f"be {feeling} about {self.quote(kids[0])}")
        if r in ("yes", "rej", "bwx", "nop") and kids:
            return self._reply(r, kids[0], me, listener, mood)
        if r == "idk" and kids:                           # DPP
            inner = kids[0]
            if inner.rule == "proposal" and inner.words()[0] == "QRY" \
                    and self._is_arrangement(inner.children()[0]):
                return v(f"do not know whether {self.clause(inner.children()[0]).render('ind')}")
            return v(f"do not know about {self.quote(inner)}")
        if r in ("yes", "rej", "bwx", "nop", "idk"):   # DPP, bare content
            word = {"yes": "agree", "rej": "refuse", "nop": "refuse", "bwx": "will not answer",
                    "idk": "do not know"}[r]
            tail = f" to {self.quote(kids[0])}" if kids else ""
            return v(word + tail)
        if r == "not" and self.dialect == "dpp":
            if not kids:
                return v("disagree")
            inner = kids[0]
            if inner.rule == "pce":
                who = self.powers(inner.words()[1:]) if len(inner.words()) > 1 else listener
                return v(f"declare war on {who}")
            return v(f"propose that {self._as_clause(inner, 'subj', neg=True)}")
        if r in ("huh", "huh_command"):
            return v(f"do not understand {self._tokens(kids[0])}")
        if r == "ccl":
            return v(f"cancel the message {self.quote(kids[0])}")
        if r == "try":
            listed = [t for t in n.tokens() if t not in "()"][1:]
            return v(f"understand {_join(listed)}" if listed else "understand no press")
        if r == "vocabulary":
            verb = {"TRY": "understand", "PSV": "understand but do not use",
                    "ACT": "use but do not understand"}[w[0]]
            return v(f"{verb} {_join(w[1:])}" if len(w) > 1 else "understand no press")
        if r == "wht":
            return v(f"ask what {self.unit(kids[0])} should do")
        if r == "how":
            return v(f"ask how to attack {self._target(n)}")
        if r == "exp":
            turn = self.turn(kids[0])
            return v(f"ask you to explain your moves in {turn}, after {self.quote(kids[-1])}")
        if r == "iff":
            return self._conditional(n, me, listener)
        if r in ("frm", "frm_command") and self.dialect == "daide":
            sender, *to = [t for t in w if t in POWER_TOKENS]
            return f"{self.power(sender)} to {self.powers(to)}: {self.quote(kids[-1])}"
        if r == "frm":
            return self._dpp_from(n)
        if r == "send_message":
            to = [t for t in w if t in POWER_TOKENS]
            turn = [k for k in kids if k.rule == "turn"]
            when = f" (in {self.turn(turn[0])})" if turn else ""
            return f"to {self.powers(to)}{when}: {self.quote(kids[-1])}"
        if r == "snd" and self.dialect == "dpp":
            return self._dpp_send(n)
        if r == "snt":
            return v(f"have sent {self.power(w[1])} " + "; ".join(self.quote(k) for k in kids))
        if r == "free_text":
            return v(f"say {w[0]}")
        if r == "dwr":
            who = self.powers(w[1:]) if len(w) > 1 else listener
            return v(f"declare war on {who}")
        if self._is_arrangement(n):
            return v(f"propose that {self.clause(n).render('subj')}")
        return self.command(n, v)

    def _dpp_say(self, n: Node, v) -> str | None:
        """The DPP messages whose arguments differ from DAIDE's (most may be left out)."""
        r, w, kids = n.rule, n.words(), n.children()
        turns = [self.turn(k) for k in kids if k.rule == "turn"]
        said = [k for k in kids if k.rule != "turn"]
        if r == "sry":
            return v("be sorry")
        if r == "wht":
            units = [self.unit(k) for k in kids if k.rule == "unit"]
            return v(f"ask what {_join(units)} should do" if units else "ask what my units should do")
        if r == "exp":
            when = f" before {turns[0]}" if turns else ""
            what = (": " + "; ".join(self.quote(k) for k in said)) if said else ""
            return v(f"accuse you of breaking your promises{when}{what}")
        if r == "hlo":
            options = [t for t in w[2:]]
            return f"you play {self.power(w[1])}" + (f" ({', '.join(options)})" if options else "")
        if r == "ord":
            results = [f"{self.order(k).render('ind')}" for k in kids if k.rule in ORDER_RULES]
            notes = [_OUTCOMES.get(t, t) for t in w[1:] if t in _OUTCOMES]
            done = "; ".join(f"{o} ({note})" for o, note in zip(results, notes))
            return f"the results of {turns[0]}" + (f": {done}" if done else ": no orders")
        if r == "mis":
            units = [self.unit(k) for k in kids if k.rule == "unit"]
            if units:
                return "orders are missing for " + _join(units)
            return _still_to_order(int(w[-1]))
        if r == "out":
            what = {"CDD": "is in civil disorder", "OUT": "is out of the game",
                    "NSC": "is not a country"}[w[0]]
            return f"{self.power(w[1])} {what}"
        return None

    # ---------------------------------------------------------------- pieces of messages
    _ARRANGEMENTS = frozenset({"pce", "aly", "aly_versus", "drw", "slo", "not", "nar", "xdo",
                               "dmz", "dmz_listed", "and", "orr", "scd", "occ", "cho", "for",
                               "for_period", "xoy", "ydo", "snd", "fwd", "bcc", "rof", "ulb",
                               "uub"})

    def _is_arrangement(self, n: Node) -> bool:
        if self.dialect == "dpp":
            if n.rule == "logical":
                return all(self._is_arrangement(k) for k in n.children())
            return n.rule in ("pce", "aly", "aly_versus", "dmz", "dmz_listed", "xdo", "scd",
                              "xoy", "drw")
        return n.rule in self._ARRANGEMENTS

    def _as_clause(self, n: Node, mood: str, neg: bool = False) -> str:
        if self._is_arrangement(n) or n.rule in ORDER_RULES:
            c = self.clause(n)
            return (c.negated() if neg else c).render(mood)
        return ("it is not so that " if neg else "") + self.quote(n)

    def _noun(self, n: Node) -> str:
        return {"prp": "proposal", "ins": "demand", "sug": "suggestion"}.get(n.rule, "message")

    def _target(self, n: Node) -> str:
        w = n.words()
        units = [k for k in n.children() if k.rule == "unit"]
        if units:
            return self.unit(units[0])
        return self.power(w[1]) if w[1] in POWER_TOKENS or w[1] == "REF" else self.province(w[1])

    def _tokens(self, n: Node) -> str:
        return '"' + canonical_text(n.tokens()) + '"'

    def _reply(self, r: str, inner: Node, me: str, listener: str, mood: str) -> str:
        verb = {"yes": "accept", "rej": "reject", "nop": "reject", "bwx": "will not answer"}[r]
        if r == "bwx":
            return conjugate(me, f"will not answer {self.quote(inner)}", mood)
        if inner.rule == "proposal" and inner.words()[0] in ("PRP", "INS") \
                and self._is_arrangement(inner.children()[0]):
            noun = "proposal" if inner.words()[0] == "PRP" else "demand"
            return conjugate(me, f"{verb} your {noun} that "
                                 f"{self.clause(inner.children()[0]).render('subj')}", mood)
        if inner.rule in ("prp", "ins", "sug") and self._is_arrangement(inner.children()[0]):
            return conjugate(me, f"{verb} your {self._noun(inner)} that "
                                 f"{self.clause(inner.children()[0]).render('subj')}", mood)
        if self.dialect == "dpp" and self._is_arrangement(inner):
            if inner in self.mentioned:
                return conjugate(me, f"{verb} it", mood)
            self.mentioned.append(inner)
            return conjugate(me, f"{verb} your proposal to {self.infinitive(inner)}", mood)
        return conjugate(me, f"{'agree to' if r == 'yes' else 'refuse'} {self.quote(inner)}", mood)

    def _conditional(self, n: Node, me: str, listener: str) -> str:
        kids = n.children()
        condition = kids[0]
        if self.dialect == "dpp" and self._is_arrangement(condition):
            cond = conjugate(listener, f"agree to {self.infinitive(condition)}")
        elif self._is_arrangement(condition) or condition.rule in ORDER_RULES:
            cond = self.clause(condition).render("ind")
        else:
            cond = self.say(condition, listener, me)
        then = self.say(kids[1], me, listener)
        text = f"if {cond} then {then}"
        if len(kids) > 2:
            text += f", otherwise {self.say(kids[2], me, listener)}"
        return text

    def _dpp_from(self, n: Node) -> str:
        """FRM X (msg): X said msg to me.  A bare arrangement from X is X's proposal;
        a message X forwards (FRM Y (...)) is reported: "X says Y has ..."."""
        powers = [t for t in n.words() if t in POWER_TOKENS or t == "REF"]
        sender = self.power(powers[0])
        listener = self.powers(powers[1:]) if len(powers) > 1 else "me"
        out = []
        for m in n.children():
            if m.rule == "frm":
                inner_powers = [t for t in m.words() if t in POWER_TOKENS or t == "REF"]
                origin = self.power(inner_powers[0])
                reports = [self.say(k, origin, "him", "perfect") for k in m.children()]
                out.append(f"{sender} says " + "; ".join(reports))
            else:
                out.append(self.say(m, sender, listener))
        return "; ".join(out)

    def _dpp_send(self, n: Node) -> str:
        """SND X (msg): I say msg to X; the first "you" is named ("you, Russia,")."""
        powers = [t for t in n.words() if t in POWER_TOKENS or t == "REF"]
        names = self.powers(powers)
        out = []
        for m in n.children():
            text = self.say(m, "I", "you")
            named, count = re.subn(r"\byou\b", f"you, {names},", text, count=1)
            out.append(named if count else f"to {names}: {text}")
        return "; ".join(out)

    # ---------------------------------------------------------------- commands
    def command(self, n: Node, v) -> str:
        r, w, kids = n.rule, n.words(), n.children()
        turns = [k for k in kids if k.rule == "turn"]
        when = f" for {self.turn(turns[0])}" if turns else ""
        texts = [t.strip("'") for t in w if t.startswith("'")]
        orders = [k for k in kids if k.rule in ORDER_RULES]
        simple = {
            "obs": "I am an observer", "map_request": "which map is played?",
            "mdf_request": "send me the map definition", "now_request": "send me the position",
            "sco_request": "send me the supply centre owners", "tme_request":
            "how long is it to the deadline?", "hlo_request": "send me my power again",
            "mis_request": "which orders are missing?", "gof": "process the orders when all are in",
            "ord_request": "send me the last results", "drw_command": "I accept a draw",
            "off": "exit now", "sub_request": "all my orders", "rof": "make me an offer",
            "end": "I offer to disconnect", "slp": "I will wait for input", "sry": "I am sorry",
            "request": f"send me the {w[0]} message" if w else "",
        }
        if r in simple:
            return simple[r]
        if r == "bare_order":
            return self.order(kids[0]).render("ind")
        if r == "nme":
            return f"my name is '{texts[0]}', version '{texts[1]}'"
        if r == "iam":
            return f"I am {self.power(w[1])} again (passcode {w[-1]})"
        if r == "map":
            return f"the map is '{texts[0]}'"
        if r == "mdf":
            return f"the map definition for {self.powers([t for t in w if t in POWER_TOKENS])}"
        if r == "hst":
            return f"send me the results of {self.turn(kids[0])}"
        if r == "tme":
            return f"{w[1]} seconds to the deadline" if len(w) > 1 else "the deadline is near"
        if r == "adm":
            return f"admin message from '{texts[0]}': '{texts[1]}'"
        if r == "sub":
            return f"I submit{when}: " + "; ".join(self.order(o).render("ind") for o in orders) \
                if orders else "I submit orders" + when
        if r == "not_command":
            return f"I withdraw {self._withdrawn(kids[0])}"
        if r == "sub_order":
            return "my order that " + self.order(kids[0]).render("ind")
        if r == "drw_powers_command":
            return f"I accept a draw between {self.powers(w[1:])}"
        if r in ("yes_command", "rej_command"):
            verb = "accepted" if r == "yes_command" else "rejected"
            return f"{verb}: {self._quote_command(kids[0])}"
        if r == "hlo":
            power = "an observer" if w[1] == "UNO" else self.power(w[1])
            options = "; ".join(" ".join(o.words()) for o in kids if o.rule in
                                ("variant_option", "pda", "ptl", "npr", "npb"))
            return f"you play {power}, passcode {w[2]}" + (f" ({options})" if options else "")
        if r in ("now", "mis"):
            units = [self._unit_on_board(k) for k in kids if k.rule == "unit_on_board"]
            head = f"the position in {self.turn(turns[0])}" if r == "now" else "orders are missing for"
            return f"{head}: " + "; ".join(units)
        if r == "sco":
            owners = []
            for k in kids:
                owner, *provinces = k.words()
                who = "unowned" if owner == "UNO" else self.power(owner)
                owners.append(f"{who}: {self.provinces(provinces)}")
            return "supply centres: " + "; ".join(owners)
        if r == "thx":
            return f"order received: {self.order(orders[0]).render('ind')} ({self._outcome(kids[-1])})"
        if r == "mis_count":
            return _still_to_order(int(w[-1]))
        if r == "ord":
            return (f"in {self.turn(turns[0])}: {self.order(orders[0]).render('ind')} "
                    f"({self._outcome(kids[-1])})")
        if r == "sve":
            return f"save the game as '{texts[0]}'"
        if r == "lod":
            return f"load the game '{texts[0]}'"
        if r == "prn":
            return f"bad brackets in \"{canonical_text(n.tokens())[4:]}\""
        if r == "ccd":
            return f"{self.power(w[1])} is in civil disorder"
        if r == "slo_command":
            return f"{self.power(w[1])} has won the game alone"
        if r == "smr":
            return f"the game is over ({self.turn(turns[0])})"
        if r in ("out",):
            return f"{self.power(w[-1])} is out of the game"
        # DPP
        if r == "logical":
            return _join([self.say(k, "I", "you") for k in kids], "and" if w[0] == "AND" else "or")
        if r == "favour":
            amount = f" of {w[1]}" if len(w) > 1 else ""
            return ("I owe you a favour" if w[0] == "IOU" else "you owe me a favour") + amount
        if r == "for":
            period = self._period(kids[0])
            return f"for {period}: " + "; ".join(self.say(k, "I", "you") for k in kids[1:])
        if r == "ppt":
            return "I offer to become your puppet"
        if r == "alt":
            return "please use the DPP syntax" if len(w) > 1 else "please use another syntax"
        if r == "rpt":
            return "please repeat " + (self.quote(kids[0]) if kids else "your message")
        if r == "log":
            return f"log {self.quote(kids[0])}"
        if r == "thk_order":
            return f"I predict: {self.order(kids[0]).render('ind')} ({_OUTCOMES.get(w[-1], w[-1])})"
        return f"the message {canonical_text(n.tokens())}"

    def _withdrawn(self, n: Node) -> str:
        r = n.rule
        return {"gof": "my go-ahead (wait for the deadline)", "drw_command": "my draw",
                "sub_request": "all my orders", "tme_request": "my time warnings",
                "tme": f"my time warning at {n.words()[-1]} seconds" if n.words()[1:] else ""}.get(
            r, "my order that " + self.order(n.children()[0]).render("ind") if r == "sub_order"
            else f"my draw between {self.powers(n.words()[1:])}" if r == "drw_powers_command"
            else f"the civil disorder of {self.power(n.words()[-1])}" if r == "ccd"
            else canonical_text(n.tokens()))

    def _quote_command(self, n: Node) -> str:
        return '"' + canonical_text(n.tokens()) + '"'

    def _unit_on_board(self, n: Node) -> str:
        head = self.unit(n)
        retreats = [self.place(k) for k in n.children() if k.rule == "location"][1:]
        retreats += [self.province(t) for t in n.words() if t in province_tokens()]
        if "MRT" in n.words():
            return head + " (must retreat" + (f" to {_join(retreats, 'or')})" if retreats
                                               else ", or disband)")
        return head

    def _outcome(self, n: Node) -> str:
        words = [t for t in n.tokens() if t not in "()"]
        return ", ".join(_OUTCOMES.get(t, t) for t in words)

    def _period(self, n: Node) -> str:
        turns = [self.turn(k) for k in n.children() if k.rule == "turn"]
        words = n.words()
        if not turns:
            return f"turn {words[0]}"
        if "-" not in words:
            return turns[0]
        if len(turns) == 2:
            return f"{turns[0]} to {turns[1]}"
        return f"from {turns[0]} on" if n.parts[0] != "-" else f"until {turns[0]}"
