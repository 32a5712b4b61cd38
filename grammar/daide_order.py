"""DAIDE orders: an order in DAIDE token syntax, alone or inside press, as an `Order`.

    >>> parse_daide_order("( FRA AMY PAR ) MTO BUR")
    ('France', Move(kind='A', location='PAR', target='BUR', via_convoy=False))
    >>> parse_daide_order("( ENG FLT ( STP SCS ) ) MTO GOB")
    ('England', Move(kind='F', location='STP/SC', target='BOT', via_convoy=False))

The grammar of one order is ``daide_order.lark``; ``press.lark`` and ``dpp.lark`` import
it, and a message's order subtrees are read here too (`read_order`), with DPP's own
forms (``CNV``, ``CTO ... VIA`` through named fleets, a lone ``(WVE)``).
"""

from __future__ import annotations

from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from dipsolve.core.map import COAST_ALIASES, Map, standard_map
from dipsolve.core.position import map_of
from dipsolve.core.orders import (Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold,
                             SupportMove, Waive)

from .errors import DipsolveSyntaxError, Source
from .parsers import daide_order_parser, error_at, syntax_error
from .tokens import power_tokens, province_tokens

__all__ = ["ORDER_RULES", "parse_daide_order", "read_location", "read_order", "read_unit"]

#: the rules of the DAIDE grammars whose subtree is one order
ORDER_RULES = frozenset({"hld", "mto", "sup_hld", "sup_mto", "cvy", "cto", "rto", "dsb",
                         "bld", "rem", "wve", "cnv", "cto_dpp", "wve_dpp"})


def _daide_names(m: Map | None) -> dict[str, str]:
    """DAIDE province token -> province abbreviation on ``m`` (the standard map if None)."""
    if m is None or m is standard_map():
        return province_tokens()
    return {p.daide.upper(): p.abbr for p in m.provinces.values()}


def _tokens(t: Tree, *kinds: str) -> list[Token]:
    return [c for c in t.children if isinstance(c, Token) and c.type in kinds]


def read_location(t: Tree, src: Source, m: Map | None = None) -> str:
    """A ``location`` subtree as the map's location ("STP/SC"); a coast the province
    does not have is not understood."""
    tokens = _tokens(t, "PROVINCE", "COAST")
    prov = _daide_names(m)[tokens[0].value.upper()]
    if len(tokens) == 1:
        return prov
    coast_token = tokens[1]
    coast = COAST_ALIASES.get(coast_token.value.upper())
    province = map_of(m, None).provinces[prov]
    if coast not in province.coasts:
        want = (" or ".join(f"{k}S" for k in province.coasts) if province.coasts
                else f"{tokens[0].value.upper()} alone ({province.name} has no coasts)")
        raise error_at(src, DipsolveSyntaxError, f"expected {want}, found {coast_token.value!r}",
                       coast_token, want)
    return f"{prov}/{coast}"


def read_unit(t: Tree, src: Source, m: Map | None = None) -> tuple[str | None, str, str]:
    """A ``unit`` subtree: (the power's name, None for DPP's referee; "A" or "F"; the
    location)."""
    power, kind = t.children[0], t.children[1]
    loc = t.children[2]
    assert isinstance(power, Token) and isinstance(kind, Token) and isinstance(loc, Tree)
    return (power_tokens(m).get(power.value.upper()), "A" if kind.type == "AMY" else "F",
            read_location(loc, src, m))


def read_order(t: Tree, src: Source, m: Map | None = None) -> tuple[str | None, Order]:
    """An order subtree (``daide_order.lark``, or DPP's) -> (the power's name, `Order`).
    DPP's lone ``(WVE)`` in a SUB has no power: None."""
    rule = t.data
    if rule == "wve":
        return power_tokens(m).get(_tokens(t, "POWER")[0].value.upper()), Waive()
    if rule == "wve_dpp":
        return None, Waive()
    subtrees = [c for c in t.children if isinstance(c, Tree)]
    units = [c for c in subtrees if c.data == "unit"]
    power, kind, loc = read_unit(units[0], src, m)
    places = _tokens(t, "PROVINCE")
    target = _daide_names(m)[places[0].value.upper()] if places else None
    dest = next((read_location(c, src, m) for c in subtrees if c.data == "location"), None)
    if rule == "hld":
        return power, Hold(kind, loc)
    if rule == "mto":
        return power, Move(kind, loc, dest or "")
    if rule in ("sup_hld", "sup_mto"):
        _, skind, sloc = read_unit(units[1], src, m)
        if rule == "sup_hld":
            return power, SupportHold(kind, loc, skind, sloc)
        return power, SupportMove(kind, loc, skind, sloc, target or "")
    if rule in ("cvy", "cnv"):
        _, ckind, cloc = read_unit(units[1], src, m)
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
        raise syntax_error(e, src, "order") from None
    power, order = read_order(tree, src, game_map)
    assert power is not None
    return power, order
