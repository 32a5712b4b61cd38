"""The adjudicator: ``adjudicate(position, orders) -> Outcome``.

A pipeline you can read top to bottom, one function a phase kind:

movement
    the rules engine (`dipsolve.core.kernel.movement`, on the integer board of
    `dipsolve.core.board`): 1. each order matched to its unit and checked (DATC 4.C,
    4.D.3, 4.E.1: set aside, ordered twice, illegal and held); 2. convoy intent (DATC 3.0,
    4.A.3); 3. every decision resolved to a fixpoint, a stalled cycle settled by
    Kruijswijk's guesses and the backup rules (circular movement succeeds, a convoy
    paradox fails its convoys: Szykman); 4. who moved, who was dislodged, the standoffs.
    Here: the retreat options (attacker origin, standoffs), the units destroyed for want
    of one, the next phase; the per-order results, in words, from the same answer.
retreat
    the orders matched (`dipsolve.core.rules.match_retreats`); retreats to the same place all
    fail; unordered units disband.
adjustment
    builds in owned, empty home centers, first legal orders first (DATC 4.D.4–4.D.6,
    `dipsolve.core.rules.match_adjustments`); missing removals by civil disorder, 2023 rule (DATC 4.D.8): the unit farthest from
    the power's nearest owned center (any unit over land and sea) goes first, fleets
    before armies, then in alphabetical order of the province's English name.

The retreat and adjustment phases are matched and executed here, on names (they are not
on a search's path); the movement phase, on every path, is the engine's alone.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, Sequence

from .board import Board, given, run_movement
from .graph import steps
from .map import Map
from .orders import Disband, Order
from .position import Dislodged, Phase, Position, Unit
from .rules import (REFUSED, OrderResult, Reason, Rules, match_adjustments, match_retreats,
                    movement_results)

__all__ = ["REFUSED", "OrderResult", "Outcome", "Reason", "Rules", "adjudicate"]

#: reasons for an order that was set aside without being tied to a unit's action
_SET_ASIDE = {Reason.NOT_YOUR_UNIT, Reason.NO_UNIT}


class Outcome:
    """The result of one phase: each order's result and the position that follows.

    ``results`` is built on first access: a search that only needs ``next`` never pays
    for the per-order reports.
    """

    __slots__ = ("position", "next", "destroyed", "_results", "_make")

    def __init__(self, position: Position, results: tuple[OrderResult, ...] | None, next: Position,
                 destroyed: tuple[Unit, ...] = (),
                 make: Callable[[], Iterable[OrderResult]] | None = None):
        self.position = position
        self.next = next
        #: units dislodged with no retreat open to them, disbanded at once (movement), or
        #: disbanded because they did not or could not retreat (retreat phase), or
        #: removed (adjustment phase)
        self.destroyed = destroyed
        self._results = results
        self._make = make

    @property
    def results(self) -> tuple[OrderResult, ...]:
        """One result per order given (and per unordered unit), in board order."""
        if self._results is None:
            assert self._make is not None
            self._results = tuple(self._make())
            self._make = None
        return self._results

    def result_for(self, location: str) -> OrderResult | None:
        """The result of the order given to the unit in ``location`` (a province or location)."""
        po = self.position.map.province_of
        prov = po.get(location, location)
        for r in self.results:
            loc = getattr(r.order, "location", None)
            if loc is not None and po.get(loc, loc) == prov and r.reason not in _SET_ASIDE:
                return r
        return None

    def result_lines(self) -> list[str]:
        """The results for people, one a line: ``ok`` or ``--``, the order, its reason
        (aligned), then each unit destroyed (``dipsolve adjudicate`` prints them)."""
        width = max((len(f"{r.power}: {r.order}") for r in self.results), default=0)
        lines = []
        for r in self.results:
            head = f"{r.power}: {r.order}"
            tail = f" ({r.detail})" if r.detail else ""
            lines.append(f"{'ok' if r.success else '--'} {head:<{width}}  {r.reason.value}{tail}")
        return lines + [f"destroyed: {u.power} {u}" for u in self.destroyed]

    def __str__(self) -> str:
        """The phase, its results one a line, and the phase that follows."""
        return "\n".join([f"{self.position.phase}:", *(f"  {line}" for line in self.result_lines()),
                          f"next: {self.next.phase}"])

    def __repr__(self) -> str:
        return f"<Outcome {self.position.phase.short} -> {self.next.phase.short}>"

    def _repr_svg_(self) -> str:
        """The orders and their results as a picture, for notebooks (`dipsolve.io.pictures.outcome_svg`)."""
        from ..io.pictures import outcome_svg
        return outcome_svg(self)


# -- public entry point ---------------------------------------------------------------

def adjudicate(position: Position, orders: Mapping[str, Iterable[Order]] | None = None,
               rules: Rules | None = None) -> Outcome:
    """Resolve one phase of ``position`` under ``orders`` (power -> orders), by the DATC
    3.0 preferences or the readings of ``rules`` (`Rules`).

    Never raises for a bad order: illegal orders become holds (movement) or fail, each
    with its reason.  Units without orders hold (movement) or disband (retreat);
    missing removals are made by civil disorder (adjustment).
    """
    orders = orders or {}
    kind = position.phase.kind
    if kind == "movement":
        return _movement(position, orders, rules.flags if rules is not None else 0)
    if kind == "retreat":
        return _retreat(position, orders)
    return _adjustment(position, orders)


# -- shared helpers ---------------------------------------------------------------------

_PHASES: dict[tuple[str, int, str], Phase] = {}


def _phase(season: str, year: int, kind: str) -> Phase:
    """Phases are values; the adjudicator reuses one object per phase."""
    key = (season, year, kind)
    p = _PHASES.get(key)
    if p is None:
        p = _PHASES[key] = Phase(season, year, kind)
    return p


def _needs_adjustment(game_map: Map, units: Iterable[Unit], owner: Mapping[str, str]) -> bool:
    unit_powers = [u.power for u in units]
    center_powers = list(owner.values())
    occupied = None
    for power in set(unit_powers) | set(center_powers):
        delta = center_powers.count(power) - unit_powers.count(power)
        if delta < 0:
            return True
        if delta > 0:
            if occupied is None:
                po = game_map.province_of
                occupied = {po[u.location] for u in units}
            if any(owner.get(h) == power and h not in occupied
                   for h in game_map.homes.get(power, ())):
                return True
    return False


def center_changes(position: Position, units: Iterable[Unit]) -> dict[str, str]:
    """The supply centers that change hands when ``units`` stand on the board at the
    end of a year: center -> its new owner."""
    owner = position.owner
    cset, po = position.map.centers, position.map.province_of
    changes: dict[str, str] = {}
    for u in units:
        p = po[u.location]
        if p in cset and owner.get(p) != u.power:
            changes[p] = u.power
    return changes


def _after_fall(position: Position, units: tuple[Unit, ...], year: int,
                fall: tuple[dict[str, str], bool] | None = None) -> Position:
    """The position after a Fall phase with no retreats pending (``units`` in canonical
    order): centers change hands, then a Winter adjustment if any power must build or
    remove, else next Spring.  ``fall``: the centers that change hands and whether a
    power adjusts, when known already (the compiled path's)."""
    m = position.map
    if fall is None:
        changes = center_changes(position, units)
        owner = {**position.owner, **changes} if changes else position.owner
        adjust = _needs_adjustment(m, units, owner)
    else:
        changes, adjust = fall
        owner = {**position.owner, **changes} if changes else {}
    centers = tuple(sorted(owner.items())) if changes else position.centers
    if adjust:
        phase = _phase("Winter", year, "adjustment")
    else:
        phase = _phase("Spring", year + 1, "movement")
    return Position._canonical(phase, units, centers, (), (), m)


# -- movement -----------------------------------------------------------------------------

def _movement(position: Position, orders: Mapping[str, Iterable[Order]], rules: int = 0) -> Outcome:
    """A movement phase through the engine (`dipsolve.core.kernel`): the next position at
    once, the per-order results from the same answer when first asked."""
    summary, details, by_power, board = run_movement(position, orders, rules)
    return movement_outcome(position, summary, details, by_power, board,
                            units_after(summary, board))


def units_after(summary: list[int], board: Board) -> list[Unit]:
    """The units on the board after movement (dislodged ones left out), in canonical
    order, from the engine's summary (`dipsolve.core.kernel.movement`): its first part."""
    return list(map(board.placed.__getitem__, summary[2:2 + summary[1]]))


def moved_in(summary: list[int]) -> list[int]:
    """The indices (in board order) of the units whose move succeeded, from the engine's
    summary."""
    c = 2 + summary[1]
    return summary[c + 1:c + 1 + summary[c]]


def _dislodged_at(summary: list[int]) -> tuple[list[int], int]:
    """Where the engine's summary writes each unit dislodged (its index, the unit that
    dislodged it, that one's province, the number of places it may retreat to, then
    those), and where the standoffs' count follows."""
    c = 2 + summary[1]
    c += 1 + summary[c]
    at: list[int] = []
    for _ in range(summary[c]):
        at.append(c + 1)
        c += 4 + summary[c + 4]
    return at, c + 1


def dislodged_by(summary: list[int]) -> dict[int, int]:
    """The units dislodged (index -> the index of the unit that dislodged it), from the
    engine's summary."""
    return {summary[c]: summary[c + 1] for c in _dislodged_at(summary)[0]}


def movement_outcome(position: Position, summary: list[int], details: Any,
                     by_power: list[tuple[str, Sequence[Order]]], board: Board,
                     new_units: list[Unit]) -> Outcome:
    """The `Outcome` of the engine's answer (``summary``, ``details``; ``new_units``:
    `units_after` of it) to the orders of ``by_power`` (`dipsolve.core.board.order_chunks`)."""
    at, s = _dislodged_at(summary)
    if at:
        units, provinces, locations = position.units, board.provinces, board.locations
        dislodged: list[Dislodged] = []           # by index: in canonical order
        destroyed: list[Unit] = []
        for c in at:
            i, origin, no = summary[c], summary[c + 2], summary[c + 3]
            if no:
                dislodged.append(Dislodged(units[i], provinces[origin] if origin >= 0 else None,
                                           tuple([locations[x] for x in summary[c + 4:c + 4 + no]])))
            else:
                destroyed.append(units[i])
        standoffs = tuple(sorted(provinces[d] for d in summary[s + 1:s + 1 + summary[s]]))
        nxt = next_position(position, new_units, tuple(dislodged), standoffs)
        gone = tuple(destroyed)
    else:
        nxt, gone = next_position(position, new_units, (), ()), ()
    return Outcome(position, None, nxt, gone,
                   lambda: movement_results(position, details, given(by_power), board))


def next_position(position: Position, new_units: Sequence[Unit], dislodged: tuple[Dislodged, ...],
                  standoffs: tuple[str, ...], fall: tuple[dict[str, str], bool] | None = None
                  ) -> Position:
    """The position after a movement phase of ``position`` (`after_movement`): the
    retreats of ``dislodged`` if any, else the next phase (``fall``: see `_after_fall`)."""
    phase, m = position.phase, position.map
    if dislodged:
        return Position._canonical(_phase(phase.season, phase.year, "retreat"), tuple(new_units),
                                   position.centers, dislodged, standoffs, m)
    if phase.season == "Spring":
        return Position._canonical(_phase("Fall", phase.year, "movement"), tuple(new_units),
                                   position.centers, (), (), m)
    return _after_fall(position, tuple(new_units), phase.year, fall)


# -- retreats -------------------------------------------------------------------------------

def _retreat(position: Position, orders: Mapping[str, Iterable[Order]]) -> Outcome:
    m = position.map
    po = m.province_of
    results, chosen, targets = match_retreats(position, orders)
    count: dict[str, int] = {}
    for t in targets.values():
        count[po[t]] = count.get(po[t], 0) + 1

    new_units = list(position.units)
    destroyed: list[Unit] = []
    for d in position.dislodged:
        u = d.unit
        entry = chosen.get(u)
        if u in targets:
            t = targets[u]
            order = chosen[u][1]
            if count[po[t]] == 1:
                new_units.append(Unit(u.power, u.kind, t))
                results.append(OrderResult(u.power, order, True, Reason.RETREATED))
                continue
            results.append(OrderResult(u.power, order, False, Reason.RETREAT_BOUNCED,
                                       f"another unit retreated to {po[t]}"))
        elif entry is None:
            results.append(OrderResult(u.power, Disband(u.kind, u.location), True, Reason.DISBANDED,
                                       "no retreat ordered"))
        elif isinstance(entry[1], Disband):
            results.append(OrderResult(u.power, entry[1], True, Reason.DISBANDED))
        destroyed.append(u)
    phase = position.phase
    if phase.season == "Spring":
        nxt = Position.build(Phase("Fall", phase.year, "movement"), new_units, position.centers,
                             game_map=m)
    else:
        nxt = _after_fall(position, tuple(sorted(new_units)), phase.year)
    return Outcome(position, tuple(results), nxt, tuple(destroyed))


# -- adjustments ----------------------------------------------------------------------------

def _adjustment(position: Position, orders: Mapping[str, Iterable[Order]]) -> Outcome:
    m = position.map
    groups, built, removed = match_adjustments(position, orders)
    results: list[OrderResult] = []
    for power, verdicts, owed in groups:
        results += verdicts
        if owed > 0:
            for u in _civil_disorder(position, power, removed, owed):
                removed.add(u)
                results.append(OrderResult(power, Disband(u.kind, u.location), True,
                                           Reason.CIVIL_DISORDER, "too few removals ordered"))
    new_units = [u for u in position.units if u not in removed] + built
    phase = position.phase
    nxt = Position.build(Phase("Spring", phase.year + 1, "movement"), new_units, position.owner,
                         game_map=m)
    return Outcome(position, tuple(results), nxt, tuple(sorted(removed)))


def _civil_disorder(position: Position, power: str, removed: set[Unit], count: int) -> list[Unit]:
    """The units removed when a power orders too few removals (2023 rule, DATC 4.D.8):
    the farthest from the power's nearest owned center (steps over land and sea) first,
    fleets before armies, then by the province's English name."""
    m = position.map
    po = m.province_of
    dist = steps(m, position.centers_of(power))
    candidates = [u for u in position.units_of(power) if u not in removed]
    key = {u: (-dist.get(po[u.location], 1 << 20), 0 if u.kind == "F" else 1,
               m.provinces[po[u.location]].name)
           for u in candidates}
    return sorted(candidates, key=key.__getitem__)[:count]
