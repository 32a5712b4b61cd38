"""Keeping and breaking: one phase's orders, as played, against an agreement's terms.

What breaks each kind of term (judged on the orders given, as the rules read them: an
order the rules refuse is the hold the adjudicator makes of it; a unit without an order
holds):

*An attack* by a power on another is, in a movement phase, an order of one of its units
that moves into, supports a move into, or convoys an army into a province where the
other's unit stands and does not leave (its own move fails or it was not ordered to move),
or a supply centre the other owns (whoever stands there).  A support or convoy of the
other's own unit is no attack on it.

- `Peace` (``PCE``): broken by an attack by one of its powers on another of them.
- `Alliance` (``ALY ... VSS ...``): broken by an attack by an ally on another ally.
- `Demilitarized` (``DMZ``): broken by a unit of one of its powers ordered into one of
  its provinces (a move, a retreat, a build) or left in one (any order there but a move
  out: a hold, a support, a convoy, or no order).
- `Promise` (``XDO``): due in the first phase of its kind (movement, retreat or
  adjustment) after it was agreed, then done; kept when its power gave that order for
  that unit (a move with or without ``via convoy`` alike), broken when it gave another
  (or none: the unit held, or, in a retreat, disbanded).  A promised waive is kept when
  the power left a build unused.
- `AllOf` (``AND``): broken when a part is, kept when a part was kept and none broken.
  `AnyOf` (``ORR``): kept when a part is, broken when every part is.

A term is *not tested* in a phase when nothing its powers could have ordered would have
broken it (their legal orders, `dipsolve.core.legal`): a peace between powers whose units
cannot reach each other, a demilitarized zone none of them can enter, a promise whose
unit is not there or whose phase this is not.
"""

from __future__ import annotations

from dataclasses import replace
from typing import AbstractSet as Set, Callable, Iterator, Mapping, Sequence

from dipsolve.core.adjudicator import REFUSED, adjudicate
from dipsolve.core.legal import legal_orders
from dipsolve.core.orders import (Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportMove, UnitOrder,
                                  Waive)
from dipsolve.core.position import Position, Unit
from dipsolve.core.rules import unit_orders

from .model import Breach, Verdict
from .terms import AllOf, Alliance, Demilitarized, Joined, Peace, Promise, Term

__all__ = ["PhaseOrders", "aim", "attacks", "breaks", "dmz_breach", "judge", "province_name"]

Judged = tuple[Verdict, tuple[Breach, ...]]


class PhaseOrders:
    """One phase as the checks see it: the board before it, each unit's order as played
    and, in a movement phase, the provinces whose unit left (its move succeeded)."""

    def __init__(self, position: Position, orders: Mapping[str, Sequence[Order]]) -> None:
        self.position = position
        self.kind = position.phase.kind
        m = position.map
        self.po = m.province_of
        self.orders = {p: list(os) for p, os in orders.items()}
        self.order_of: dict[Unit, Order] = {}
        self.left: set[str] = set()
        self._reach: dict[Unit, list[tuple[str, str | None, bool]]] = {}
        if self.kind == "movement":
            outcome = adjudicate(position, self.orders)
            refused = {(r.power, r.order) for r in outcome.results if r.reason in REFUSED}
            matched = unit_orders(position, self.orders)
            for u in position.units:
                given = matched.get(u)
                self.order_of[u] = (Hold(u.kind, u.location) if given is None or (u.power, given) in refused
                                    else given)
            self.left = {self.po[r.order.location] for r in outcome.results
                         if r.success and isinstance(r.order, Move)}
        elif self.kind == "retreat":
            by_province = {self.po[d.unit.location]: d.unit for d in position.dislodged}
            for power, os in self.orders.items():
                for o in os:
                    if isinstance(o, (Retreat, Disband)):
                        mine = by_province.get(self.po.get(o.location, ""))
                        if mine is not None and mine.power == power and mine not in self.order_of:
                            self.order_of[mine] = o
            for d in position.dislodged:
                self.order_of.setdefault(d.unit, Disband(d.unit.kind, d.unit.location))

    def name(self, province: str) -> str:
        """A province's name, in words ("Burgundy", "the Black Sea")."""
        return province_name(self.position, province)

    # -- attacks ------------------------------------------------------------------------
    def _aim(self, order: Order) -> tuple[str, str | None, str] | None:
        return aim(self.position, order)

    def victims(self, power: str, order: Order) -> list[tuple[str, str]]:
        """The powers ``power``'s order (as played) attacks, each with how, in words."""
        return attacks(self.position, power, order, self.left)

    def reach(self, unit: Unit) -> list[tuple[str, str | None, bool]]:
        """What a unit's legal orders could aim at: (province, the power of the unit
        helped or None, whether it is the unit's own move)."""
        if unit not in self._reach:
            out = []
            for o in legal_orders(self.position, unit):
                aim = self._aim(o)
                if aim is not None:
                    out.append((aim[0], aim[1], isinstance(o, Move)))
            self._reach[unit] = out
        return self._reach[unit]

    def could_attack(self, attackers: frozenset[str], victims: frozenset[str]) -> bool:
        """Whether a unit of ``attackers`` has a legal order that would attack one of
        ``victims`` if its unit stayed (a unit standing there, or a centre owned)."""
        unit_in, owner = self.position.unit_in, self.position.owner
        for u in self.position.units:
            if u.power not in attackers:
                continue
            for province, helped, _ in self.reach(u):
                standing = unit_in.get(province)
                hit = {standing.power if standing else None, owner.get(province)} - {None, u.power, helped}
                if hit & victims:
                    return True
        return False

    def units(self, powers: frozenset[str]) -> Iterator[tuple[Unit, Order]]:
        for u, o in self.order_of.items():
            if u.power in powers:
                yield u, o


def province_name(position: Position, province: str) -> str:
    """A province's name, in words ("Burgundy", "the Black Sea")."""
    prov = position.map.provinces.get(province)
    if prov is None:
        return province
    return ("the " if prov.terrain == "sea" and not prov.name.startswith("the ") else "") + prov.name


def aim(position: Position, order: Order) -> tuple[str, str | None, str] | None:
    """The province a movement order aims a move at, the power of the unit it helps
    (None: its own move), and how it aims, in words (None: a hold aims at nothing)."""
    po, unit_in = position.map.province_of, position.unit_in
    if isinstance(order, Move):
        return po.get(order.target, order.target), None, "a move into"
    if isinstance(order, SupportMove):
        helped = unit_in.get(po.get(order.supported_location, ""))
        return (po.get(order.target, order.target), helped.power if helped else None,
                f"a support of {order.supported_kind} {order.supported_location} into")
    if isinstance(order, Convoy):
        helped = unit_in.get(po.get(order.convoyed_location, ""))
        return (po.get(order.target, order.target), helped.power if helped else None,
                f"a convoy of A {order.convoyed_location} into")
    return None


def attacks(position: Position, power: str, order: Order, left: Set[str] = frozenset()) -> list[tuple[str, str]]:
    """The powers ``power``'s movement order attacks (see the module's notes), each with
    how, in words; ``left``: the provinces whose unit left (its move succeeded)."""
    aimed = aim(position, order)
    if aimed is None:
        return []
    province, helped, how = aimed
    out: list[tuple[str, str]] = []
    u = position.unit_in.get(province)
    if u is not None and province not in left and u.power not in (power, helped):
        out.append((u.power, f"{how} {province_name(position, province)}, where {u.power}'s {u} stood"))
    owner = position.owner.get(province)
    if owner is not None and owner not in (power, helped) and not any(v == owner for v, _ in out):
        out.append((owner, f"{how} {province_name(position, province)}, {owner}'s supply centre"))
    return out


def dmz_breach(zone: Set[str], position: Position, unit: Unit, order: Order) -> str | None:
    """How a unit's order breaks a demilitarized ``zone`` (provinces) in ``position``'s
    phase, in words: in a movement phase a move into it, or any order but a move while
    it stands in it; in a retreat, a retreat into it; in an adjustment, a build in it
    (``unit``: the one the build makes).  None when it does not."""
    po = position.map.province_of
    kind = position.phase.kind
    if kind == "movement":
        here = po[unit.location]
        if isinstance(order, Move) and po.get(order.target, order.target) in zone:
            return f"a move into {province_name(position, po.get(order.target, order.target))}, to be kept demilitarized"
        if here in zone and not isinstance(order, Move):
            return f"{unit} stays in {province_name(position, here)}, to be kept demilitarized"
    elif kind == "retreat" and isinstance(order, Retreat) and po.get(order.target, order.target) in zone:
        return f"a retreat into {province_name(position, po.get(order.target, order.target))}, to be kept demilitarized"
    elif kind == "adjustment" and isinstance(order, Build) and po.get(order.location, order.location) in zone:
        return f"a build in {province_name(position, po.get(order.location, order.location))}, to be kept demilitarized"
    return None


def breaks(term: Term, position: Position, unit: Unit, order: Order) -> bool:
    """Whether ``order``, given to ``unit`` in ``position``'s phase, breaks ``term`` by
    itself, every other unit staying where it stands: the rules above, one order at a
    time (a seat's search and its model of the others ask it of each order they
    weigh).  `AllOf`: when it breaks a part; `AnyOf`: when it breaks every part; a
    `Promise`: another order for the promised unit, in a phase of its kind.  In a
    retreat, a retreat into a demilitarized zone; in an adjustment, a build there (the
    unit is the one the build would make)."""
    if isinstance(term, Joined):
        hits = [breaks(p, position, unit, order) for p in term.parts if p.checked]
        if isinstance(term, AllOf):
            return any(hits)
        return bool(hits) and all(hits)
    if unit.power not in term.bound:
        return False
    kind, po = position.phase.kind, position.map.province_of
    if isinstance(term, Demilitarized):
        return dmz_breach(frozenset(term.provinces), position, unit, order) is not None
    if kind != "movement" and (not isinstance(term, Promise) or term.phase_kind != kind or kind != "retreat"):
        return False
    if isinstance(term, (Peace, Alliance)):
        return any(v in term.powers and v != unit.power for v, _ in attacks(position, unit.power, order))
    if isinstance(term, Promise):
        promised = term.order
        if term.phase_kind != kind or not isinstance(promised, UnitOrder):
            return False
        if po.get(promised.location, promised.location) != po[unit.location] or promised.kind != unit.kind:
            return False
        return _norm(order, po) != _norm(promised, po)
    return False


def judge(term: Term, phase: PhaseOrders, due: Callable[[int], bool], done: set[int]) -> Judged:
    """The verdict of one phase's orders on ``term`` and the breaches, if broken.
    Promises are numbered in text order (`Term.leaves`); ``due(i)`` says whether the
    i-th is still to be kept, and the numbers of those judged now (their phase) are
    added to ``done``."""
    counter = iter(range(1 << 30))
    return _judge(term, phase, due, done, counter)


def _judge(term: Term, phase: PhaseOrders, due: Callable[[int], bool], done: set[int],
           counter: Iterator[int]) -> Judged:
    if isinstance(term, Joined):
        results = [_judge(p, phase, due, done, counter) for p in term.parts]
        verdicts = [v for v, _ in results]
        broken = tuple(b for v, bs in results if v is Verdict.BROKEN for b in bs)
        if isinstance(term, AllOf):
            if broken:
                return Verdict.BROKEN, broken
            return (Verdict.KEPT if Verdict.KEPT in verdicts else Verdict.UNTESTED), ()
        if Verdict.KEPT in verdicts:
            return Verdict.KEPT, ()
        if verdicts and all(v is Verdict.BROKEN for v in verdicts):
            return Verdict.BROKEN, broken
        return Verdict.UNTESTED, ()
    if isinstance(term, Promise):
        index = next(counter)
        if not due(index) or term.phase_kind != phase.kind:
            return Verdict.UNTESTED, ()
        done.add(index)
        return _promise(term, phase)
    for leaf in term.leaves():                 # count the promises of a term not opened here
        if isinstance(leaf, Promise):
            next(counter)
    if isinstance(term, (Peace, Alliance)):
        return _peace(frozenset(term.powers), term.text, phase)
    if isinstance(term, Demilitarized):
        return _dmz(term, phase)
    return Verdict.UNTESTED, ()


def _peace(powers: frozenset[str], text: str, phase: PhaseOrders) -> Judged:
    if phase.kind != "movement" or len(powers) < 2:
        return Verdict.UNTESTED, ()
    breaches = []
    for u, o in phase.units(powers):
        hows = [how for victim, how in phase.victims(u.power, o) if victim in powers]
        if hows:
            breaches.append(Breach(u.power, o, text, "; ".join(hows)))
    if breaches:
        return Verdict.BROKEN, tuple(breaches)
    return (Verdict.KEPT if phase.could_attack(powers, powers) else Verdict.UNTESTED), ()


def _dmz(term: Demilitarized, phase: PhaseOrders) -> Judged:
    zone, po, pos = frozenset(term.provinces), phase.po, phase.position
    breaches: list[Breach] = []
    tested = False

    def breach(power: str, order: Order | None, why: str) -> None:
        breaches.append(Breach(power, order, term.text, why))

    if phase.kind == "movement":
        for u, o in phase.units(frozenset(term.powers)):
            why = dmz_breach(zone, pos, u, o)
            if why is not None:
                breach(u.power, o, why)
        tested = any(po[u.location] in zone or any(own and p in zone for p, _, own in phase.reach(u))
                     for u in pos.units if u.power in term.powers)
    elif phase.kind == "retreat":
        for d in pos.dislodged:
            if d.unit.power not in term.powers:
                continue
            retreat = phase.order_of.get(d.unit)
            why = None if retreat is None else dmz_breach(zone, pos, d.unit, retreat)
            if why is not None:
                breach(d.unit.power, retreat, why)
            tested |= any(po.get(r, r) in zone for r in d.retreats)
    else:
        for power in term.powers:
            for o in phase.orders.get(power, ()):
                if isinstance(o, Build):
                    why = dmz_breach(zone, pos, Unit(power, o.kind, o.location), o)
                    if why is not None:
                        breach(power, o, why)
            tested |= pos.adjustment(power) > 0 and any(p in zone for p in pos.buildable(power))
    if breaches:
        return Verdict.BROKEN, tuple(breaches)
    return (Verdict.KEPT if tested else Verdict.UNTESTED), ()


def _norm(order: Order, po: Mapping[str, str]) -> Order:
    """An order as a promise compares it: the unit by its province, a move with or
    without ``via convoy`` alike."""
    if isinstance(order, Move):
        return replace(order, location=po.get(order.location, order.location), via_convoy=False, route=())
    if isinstance(order, SupportMove):
        return replace(order, location=po.get(order.location, order.location),
                       supported_location=po.get(order.supported_location, order.supported_location))
    if isinstance(order, Convoy):
        return replace(order, location=po.get(order.location, order.location),
                       convoyed_location=po.get(order.convoyed_location, order.convoyed_location))
    if isinstance(order, UnitOrder) and not isinstance(order, Build):
        return replace(order, location=po.get(order.location, order.location))
    return order


def _promise(term: Promise, phase: PhaseOrders) -> Judged:
    po, pos, promised, power = phase.po, phase.position, term.order, term.power
    want = _norm(promised, po)

    def broken(order: Order | None, why: str) -> Judged:
        return Verdict.BROKEN, (Breach(power, order, term.text, why),)

    if phase.kind in ("movement", "retreat"):
        if not isinstance(promised, UnitOrder):
            return Verdict.UNTESTED, ()
        province = po.get(promised.location, promised.location)
        units = pos.units if phase.kind == "movement" else [d.unit for d in pos.dislodged]
        unit = next((u for u in units if po[u.location] == province), None)
        if unit is None or unit.power != power or unit.kind != promised.kind:
            return Verdict.UNTESTED, ()
        given = phase.order_of.get(unit)
        if given is not None and _norm(given, po) == want:
            return Verdict.KEPT, ()
        return broken(given, f"{given or 'no order'} given for {unit}, not the promised {promised}")
    given_orders = phase.orders.get(power, [])
    owed = pos.adjustment(power)
    if isinstance(promised, Waive):
        if owed <= 0:
            return Verdict.UNTESTED, ()
        builds = [o for o in given_orders if isinstance(o, Build)]
        if len(builds) < owed or any(isinstance(o, Waive) for o in given_orders):
            return Verdict.KEPT, ()
        return broken(builds[-1], f"every one of its {owed} builds used, not the promised waive")
    if isinstance(promised, Build):
        site = po.get(promised.location, promised.location)
        if owed <= 0 or site not in pos.buildable(power):
            return Verdict.UNTESTED, ()
        if any(_norm(o, po) == want for o in given_orders):
            return Verdict.KEPT, ()
        there = next((o for o in given_orders if isinstance(o, Build) and po.get(o.location, o.location) == site), None)
        return broken(there, f"{there or 'no build'} in {phase.name(site)}, not the promised {promised}")
    if isinstance(promised, Disband):
        province = po.get(promised.location, promised.location)
        unit = pos.unit_in.get(province)
        if owed >= 0 or unit is None or unit.power != power:
            return Verdict.UNTESTED, ()
        if any(isinstance(o, Disband) and po.get(o.location, o.location) == province for o in given_orders):
            return Verdict.KEPT, ()
        return broken(None, f"{unit} not removed, as promised")
    return Verdict.UNTESTED, ()
