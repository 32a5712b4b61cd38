"""The terms of an agreement: what a DAIDE arrangement (``PCE``, ``ALY``/``VSS``, ``DMZ``, ``XDO``, ``AND``, ``ORR``) binds whom to, read from a parsed message's tree.

    >>> from dipsolve.grammar.press import parse_press
    >>> p = parse_press("PRP (AND (DMZ (FRA GER) (BUR)) (XDO ((FRA AMY PAR) MTO PIC)))")
    >>> term = read_term(p.tree.children()[0], p.located_orders)
    >>> term.kind, term.bound, term.text
    ('and', ('France', 'Germany'), 'AND (DMZ (FRA GER) (BUR)) (XDO ((FRA AMY PAR) MTO PIC))')
    >>> [part.kind for part in term.parts]
    ['dmz', 'order']
    >>> term.scope().provinces, [str(o) for o in term.scope().orders]
    (('BUR', 'PAR', 'PIC'), ['A PAR - PIC'])

A term is one of: `Peace` (``PCE``: the powers attack none of each other), `Alliance`
(``ALY (allies) VSS (enemies)``), `Demilitarized` (``DMZ (powers) (provinces)``: none of
the powers' units enters or stays in the provinces), `Promise` (``XDO (order)``, or a
bare order inside ``AND``/``ORR``: one order of one unit), `AllOf` (``AND``: every part),
`AnyOf` (``ORR``: at least one part), `Ending` (``NOT (arrangement)``: the end of an
agreement, DAIDE's way of cancelling one) and `Unchecked` (anything else a proposal may
hold: ``DRW``, ``SLO``, ``SCD``, ``FOR`` ...: tracked, never checked against orders).
Two terms are equal when they say the same thing: the powers and provinces an arrangement
lists are kept in one order (the powers' order of play, the provinces' abbreviations), so
``PCE (FRA GER)`` is ``PCE (GER FRA)``; ``text`` is the arrangement's canonical DAIDE.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Iterable, Iterator

from dipsolve.core.orders import Disband, Order, Retreat, UnitOrder, Waive
from dipsolve.core.position import Unit
from dipsolve.grammar.daide_order import ORDER_RULES
from dipsolve.grammar.english import statement
from dipsolve.grammar.message import OrderAt
from dipsolve.grammar.tokens import POWER_TOKENS, canonical_text, province_tokens
from dipsolve.grammar.tree import Node

__all__ = ["AllOf", "Alliance", "AnyOf", "Demilitarized", "Ending", "Joined", "Peace", "Promise", "Scope", "Term",
           "Unchecked", "read_term"]

#: the order rules of a DAIDE ``XDO`` -> the kind of phase the order is given in
_PHASE_OF = {"rto": "retreat", "dsb": "retreat", "bld": "adjustment", "rem": "adjustment",
             "wve": "adjustment"}


@dataclass(frozen=True)
class Scope:
    """What an agreement is about: the powers it binds, the provinces, units and orders it names."""

    powers: tuple[str, ...] = ()
    provinces: tuple[str, ...] = ()
    units: tuple[Unit, ...] = ()
    orders: tuple[Order, ...] = ()

    def to_json(self) -> dict:
        return {"powers": list(self.powers), "provinces": list(self.provinces),
                "units": [f"{u.power} {u}" for u in self.units], "orders": [str(o) for o in self.orders]}


class Term:
    """One arrangement of an agreement (a frozen dataclass of each kind below)."""

    kind: ClassVar[str] = "other"
    #: the arrangement's canonical DAIDE (``PCE (ENG FRA)``)
    text: str
    #: the arrangement's tree (for its English)
    node: Node | None

    @property
    def bound(self) -> tuple[str, ...]:
        """The powers whose orders the term binds (the board's order of play)."""
        return getattr(self, "powers", ())

    @property
    def parts(self) -> tuple["Term", ...]:
        return ()

    @property
    def checked(self) -> bool:
        """Whether orders can keep or break it (`Unchecked` and `Ending` cannot)."""
        return True

    def leaves(self) -> Iterator["Term"]:
        """The term's own arrangements, ``AND`` and ``ORR`` opened, in text order."""
        if self.parts:
            for p in self.parts:
                yield from p.leaves()
        else:
            yield self

    def scope(self) -> Scope:
        provinces: dict[str, None] = {}
        units: dict[Unit, None] = {}
        orders: dict[Order, None] = {}
        for leaf in self.leaves():
            if isinstance(leaf, Demilitarized):
                provinces.update(dict.fromkeys(leaf.provinces))
            elif isinstance(leaf, Promise):
                unit = leaf.unit
                if unit is not None:
                    units[unit] = None
                orders[leaf.order] = None
                provinces.update(dict.fromkeys(_provinces_of(leaf.order)))
        return Scope(self.bound, tuple(provinces), tuple(units), tuple(orders))

    def english(self) -> str:
        """What the term holds its parties to, in English ("England and France are at peace.")."""
        return statement(self.node) if self.node is not None else self.text

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Peace(Term):
    """``PCE (powers)``: none of the powers attacks another (`dipsolve.agreements.checks`)."""

    kind: ClassVar[str] = "peace"
    powers: tuple[str, ...]
    text: str = field(default="", compare=False)
    node: Node | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Alliance(Term):
    """``ALY (powers) VSS (against)``: the allies (``powers``) attack none of each other
    (the war on the enemies is its scope, not checked: sparing an enemy breaks nothing)."""

    kind: ClassVar[str] = "alliance"
    powers: tuple[str, ...]
    against: tuple[str, ...]
    text: str = field(default="", compare=False)
    node: Node | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Demilitarized(Term):
    """``DMZ (powers) (provinces)``: no unit of the powers enters or stays in the provinces."""

    kind: ClassVar[str] = "dmz"
    powers: tuple[str, ...]
    provinces: tuple[str, ...]
    text: str = field(default="", compare=False)
    node: Node | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Promise(Term):
    """``XDO (order)``: ``power`` gives ``order`` in the first phase of ``phase_kind``
    (movement, retreat or adjustment) the agreement is in force."""

    kind: ClassVar[str] = "order"
    power: str
    order: Order
    phase_kind: str = "movement"
    text: str = field(default="", compare=False)
    node: Node | None = field(default=None, compare=False, repr=False)

    @property
    def bound(self) -> tuple[str, ...]:
        return (self.power,)

    @property
    def unit(self) -> Unit | None:
        """The unit the order is for (None for a build or a waive: there is no unit yet)."""
        o = self.order
        if isinstance(o, Disband) or isinstance(o, UnitOrder) and self.phase_kind != "adjustment":
            return Unit(self.power, o.kind, o.location)
        return None


@dataclass(frozen=True)
class Joined(Term):
    """Arrangements joined: `AllOf` (``AND``) or `AnyOf` (``ORR``)."""

    part_terms: tuple[Term, ...]
    text: str = field(default="", compare=False)
    node: Node | None = field(default=None, compare=False, repr=False)

    @property
    def parts(self) -> tuple[Term, ...]:
        return self.part_terms

    @property
    def bound(self) -> tuple[str, ...]:
        return _union(p.bound for p in self.part_terms)

    @property
    def checked(self) -> bool:
        return any(p.checked for p in self.part_terms)


@dataclass(frozen=True)
class AllOf(Joined):
    """``AND``: every part holds."""

    kind: ClassVar[str] = "and"


@dataclass(frozen=True)
class AnyOf(Joined):
    """``ORR``: at least one part holds."""

    kind: ClassVar[str] = "or"


@dataclass(frozen=True)
class Ending(Term):
    """``NOT (arrangement)``: the end of the agreement on ``ended``; once every party
    has accepted it, that agreement is cancelled."""

    kind: ClassVar[str] = "end"
    ended: Term
    text: str = field(default="", compare=False)
    node: Node | None = field(default=None, compare=False, repr=False)

    @property
    def bound(self) -> tuple[str, ...]:
        return self.ended.bound

    @property
    def checked(self) -> bool:
        return False


@dataclass(frozen=True)
class Unchecked(Term):
    """Any other arrangement (``DRW``, ``SLO``, ``SCD``, ``OCC``, ``FOR`` ...): its
    proposal is tracked, its keeping is not checked."""

    kind: ClassVar[str] = "other"
    text: str
    node: Node | None = field(default=None, compare=False, repr=False)

    @property
    def checked(self) -> bool:
        return False


#: the powers' order of play (the standard map's, as DAIDE's tokens list them)
_PLAY_ORDER = {name: i for i, name in enumerate(POWER_TOKENS.values())}


def _in_order(powers: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(set(powers), key=lambda p: _PLAY_ORDER.get(p, len(_PLAY_ORDER))))


def _union(groups: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for g in groups:
        seen.update(dict.fromkeys(g))
    return tuple(seen)


def _provinces_of(order: Order) -> list[str]:
    out = []
    for name in ("location", "supported_location", "convoyed_location", "target"):
        value = getattr(order, name, None)
        if value:
            out.append(value.split("/")[0])
    return list(dict.fromkeys(out))


def _order_count(node: Node) -> int:
    """How many orders the message's reader found in ``node`` (`Press.located_orders`)."""
    return sum(1 for n in node.walk() if n.rule in ORDER_RULES)


def read_term(node: Node, located: Iterable[OrderAt]) -> Term:
    """The term an arrangement's tree says; ``located`` are the orders of the message
    the tree is part of, from this arrangement's first on (`Press.located_orders`: the
    message's orders in text order, each with its power)."""
    return _read(node, iter(located))


def _read(node: Node, orders: Iterator[OrderAt]) -> Term:
    rule, words = node.rule, node.words()
    text = canonical_text(node.tokens())
    powers = [POWER_TOKENS[w] for w in words if w in POWER_TOKENS]
    if rule == "pce":
        return Peace(_in_order(powers), text, node)
    if rule == "aly":
        split = words.index("VSS")
        return Alliance(_in_order(POWER_TOKENS[w] for w in words[1:split]),
                        _in_order(POWER_TOKENS[w] for w in words[split + 1:]), text, node)
    if rule == "dmz":
        tokens = province_tokens()
        provinces = sorted({tokens[w] for w in words if w in tokens and w not in POWER_TOKENS})
        return Demilitarized(_in_order(powers), tuple(provinces), text, node)
    if rule == "xdo" and len(node.children()) == 1 and node.children()[0].rule in ORDER_RULES:
        return _promise(node.children()[0], orders, text, node)
    if rule in ORDER_RULES:                  # a bare order, a part of AND / ORR (level 30)
        return _promise(node, orders, text, node)
    if rule in ("and", "orr"):
        parts = tuple(_read(k, orders) for k in node.children())
        return AllOf(parts, text, node) if rule == "and" else AnyOf(parts, text, node)
    if rule == "not" and len(node.children()) == 1:
        return Ending(_read(node.children()[0], orders), text, node)
    for _ in range(_order_count(node)):      # its orders are not this term's: pass them by
        next(orders, None)
    return Unchecked(text, node)


def _promise(order_node: Node, orders: Iterator[OrderAt], text: str, node: Node) -> Term:
    at = next(orders, None)
    if at is None or at.power is None:       # not a DAIDE order with its power (never from parse_press)
        return Unchecked(text, node)
    order = at.order
    kind = _PHASE_OF.get(order_node.rule, "movement")
    if isinstance(order, Retreat):
        kind = "retreat"
    elif isinstance(order, Waive):
        kind = "adjustment"
    return Promise(at.power, order, kind, text, node)
