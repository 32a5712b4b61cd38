"""Read DAIDE ``NOW`` and ``SCO`` messages into a `Position`.

    >>> p = parse_daide("NOW ( SPR 1901 ) ( RUS FLT ( STP SCS ) ) SCO ( RUS STP ) ( UNO SER )")
    >>> str(p.phase), [str(u) for u in p.units], p.centers
    ('Spring 1901 Movement', ['F STP/SC'], (('STP', 'Russia'),))

``NOW`` gives the turn and the units (a unit followed by ``MRT ( ... )`` is dislodged,
with the locations it may retreat to); ``SCO`` gives the supply-center owners, ``UNO``
for the unowned.  Either may come first; each at most once; ``NOW`` is required (it
holds the phase).  The grammar is ``daide.lark`` beside this file; the tokens of powers
and seasons are the grammar's tables (`dipsolve.grammar.tokens`).

An unknown token (power, province, coast, season) is a `DipsolveSyntaxError`; a board
that cannot be (an army at sea, a dislodged unit outside a retreat phase) a
`DipsolveRuleError` naming its rule, as for a ``.dip`` file.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from lark import Lark, Transformer, v_args

from dipsolve.core.bounds import parse_int
from dipsolve.core.map import COAST_ALIASES, Map
from dipsolve.core.position import Dislodged, Phase, Position, Unit, map_of

from .loading import lalr_parser
from .errors import (DipsolveError, DipsolveLimitError, DipsolveRuleError, DipsolveSyntaxError,
                     Source, Span, check_units, lark_errors, placed_at)
from .board import board_errors
from .tokens import SEASONS, power_tokens

__all__ = ["parse_daide", "SEASONS"]


@cache
def daide_parser() -> Lark:
    """The LALR parser for ``daide.lark``, built once per process."""
    return lalr_parser("daide.lark")


_LABELS = {"_NOW": "'NOW'", "_SCO": "'SCO'", "_LPAR": "'('", "_RPAR": "')'",
           "TOKEN": "a token", "INT": "a year", "AMY": "'AMY' or 'FLT'", "FLT": "'AMY' or 'FLT'",
           "_MRT": "'MRT'", "$END": "end of file"}


@dataclass(frozen=True, slots=True)
class _Loc:
    loc: str
    at: Span


@v_args(meta=True)
class _Build(Transformer):
    def __init__(self, source: Source, game_map: Map) -> None:
        super().__init__()
        self.source = source
        self.map = game_map

    def _at(self, node) -> Span:
        text = self.source.text[node.start_pos:node.end_pos]
        return Span(node.line, node.column, text)

    def _error(self, cls: type[DipsolveError], message: str, at: Span,
               expected: str | None = None) -> DipsolveError:
        return self.source.at(cls, message, at, expected)

    def _power(self, token) -> str:
        table = power_tokens(self.map)
        power = table.get(token.value.upper())
        if power is None:
            tokens = list(table)
            expected = ", ".join(tokens[:-1]) + " or " + tokens[-1]
            name = self.map.power(token.value)
            hint = f"; {name} is {self.map.power_tokens[name]}" if name is not None else ""
            raise self._error(DipsolveSyntaxError, f"unknown power {token.value!r} "
                              f"(expected {expected}{hint})", self._at(token), expected)
        return power

    def _province(self, token) -> str:
        prov = self.map.province(token.value)
        if prov is None:
            raise self._error(DipsolveSyntaxError, f"unknown province {token.value!r}",
                              self._at(token), "a province token")
        return prov

    def turn(self, meta, c) -> Phase:
        season, year = c
        if season.value.upper() not in SEASONS:
            expected = "SPR, SUM, FAL, AUT or WIN"
            raise self._error(DipsolveSyntaxError, f"expected a season ({expected}), found "
                              f"{season.value!r}", self._at(season), expected)
        name, kind = SEASONS[season.value.upper()]
        try:
            return Phase(name, parse_int(year.value, "year", "max_year"), kind)
        except DipsolveLimitError as e:
            raise placed_at(e, self.source, self._at(year)) from None

    def kind(self, meta, c) -> str:
        return "A" if c[0].type == "AMY" else "F"

    def location(self, meta, c) -> _Loc:
        at = self._at(meta)
        prov = self._province(c[0])
        if len(c) == 1:
            return _Loc(prov, at)
        coast = COAST_ALIASES.get(c[1].value.upper())
        coasts = self.map.provinces[prov].coasts
        if coast not in coasts:
            why = (f"expected {' or '.join(k + 'S' for k in coasts)}" if coasts
                   else f"{self.map.provinces[prov].name} has no coasts")
            raise self._error(DipsolveSyntaxError, f"unknown coast {c[1].value!r} ({why})",
                              self._at(c[1]), why)
        return _Loc(f"{prov}/{coast}", at)

    def mrt(self, meta, c) -> list[_Loc]:
        return list(c)

    def now_unit(self, meta, c):
        power, kind, loc, *mrt = c
        return Unit(self._power(power), kind, loc.loc), self._at(meta), (mrt[0] if mrt else None)

    def now(self, meta, c):
        return ("NOW", self._at(meta), c[0], c[1:])

    def sco_entry(self, meta, c):
        owner = None if c[0].value.upper() == "UNO" else self._power(c[0])
        return [(self._province(t), owner, self._at(t)) for t in c[1:]]

    def sco(self, meta, c):
        return ("SCO", self._at(meta), [x for entry in c for x in entry])

    def start(self, meta, c):
        return c


def parse_daide(text: str, filename: str = "<string>", *, game_map: Map | None = None) -> Position:
    """A position from DAIDE ``NOW`` and ``SCO`` messages (in either order, each once)."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    m = map_of(game_map, None)
    source = Source(text, filename)
    with lark_errors(source, _LABELS):
        messages = _Build(source, m).transform(daide_parser().parse(text))
    now = sco = None
    for msg in messages:
        if (now if msg[0] == "NOW" else sco) is not None:
            at = msg[1]
            raise source.error(DipsolveSyntaxError, f"a second {msg[0]} message", at.line, at.column,
                               found=msg[0], expected=f"one {msg[0]} message")
        if msg[0] == "NOW":
            now = msg
        else:
            sco = msg
    if now is None:
        raise source.error(DipsolveSyntaxError, "expected a NOW message (the turn and the units), "
                           "found only SCO", 1, 1, found="SCO", expected="a NOW message")
    _, _, phase, entries = now
    units = [(u, at) for u, at, mrt in entries if mrt is None]
    dislodged = [(u, at, mrt) for u, at, mrt in entries if mrt is not None]
    centers = [(p, o, at) for p, o, at in (sco[2] if sco else []) if o is not None]
    check_units([at for _, at, _ in entries], source)

    errors: list[DipsolveError] = []
    if phase.kind != "retreat":
        for u, at, _ in dislodged:
            errors.append(source.at(DipsolveRuleError, f"a dislodged unit (MRT) in {phase}: "
                                    "dislodged units belong to a retreat phase (SUM or AUT)",
                                    at, "SUM or AUT", rule="retreat-phase"))
    position = Position.build(
        phase, [u for u, _ in units], [(p, o) for p, o, _ in centers],
        [Dislodged(u, None, tuple(sorted({r.loc for r in mrt}))) for u, _, mrt in dislodged],
        game_map=m)
    unit_at: dict[Unit, list[Span]] = {}
    for u, at, _ in entries:
        unit_at.setdefault(u, []).append(at)
    center_at: dict[str, list[Span]] = {}
    for p, _, at in centers:
        center_at.setdefault(p, []).append(at)
    errors += board_errors(position, source, unit_at, center_at, [at for _, _, at in centers])
    if errors:
        raise DipsolveError.combine(errors)
    return position
