"""Whole-game analysis of a record: every phase re-adjudicated against the record, and each power's played orders weighed against dipsolve's own.

`analyze` takes a `dipsolve.io.records.Record` (a game the ``diplomacy`` package or
dipsolve played) and does two things:

1. **Adjudication check.**  Every phase with orders is adjudicated again by
   `dipsolve.adjudicate` from the record's board and the recorded orders, and the board
   it gives is compared with the record's next one: units, dislodged units with their
   retreat options, center owners and the phase.  A difference that one of the peer's
   known departures from the DATC explains is named as such (`QUIRKS`): the explanation
   is *proved*, not guessed — the peer's behaviour is emulated (its retreat options
   corrected, its order read its way) and dipsolve then gives the record's board.
2. **Orders against dipsolve's.**  For each power (or the ones asked for) and each
   movement phase, `dipsolve.solve` finds its own orders for the record's board within
   the time limit; both the played orders and dipsolve's are then adjudicated against the
   orders the other powers *really* gave, and the position after the phase is valued by
   the influence evaluation (`dipsolve.algorithms.evaluation.influence`).  ``value lost`` is
   dipsolve's value minus the played one: positive when dipsolve's orders would have done
   better against what really happened, negative when the player's did.

3. **Solo threats** (``threats``: an opposition model of `dipsolve.models.path`).  For
   every Fall of the record, each power's fewest game years to 18 supply centers from
   that board against the others' units (`solo_threats`): the moment a solo became
   possible, and when it was stopped.
4. **Agreements** (``agreements=True``).  The agreements the record's DAIDE press made
   (`dipsolve.agreements.track_agreements`), each checked against every phase's orders:
   kept, broken (by which order) or not tested.

The result, an `Analysis`, gives a table per power (`Analysis.table`), the center
counts per power over the phases (`Analysis.centers`, drawn by
`dipsolve.io.pictures_chart.centers_chart_svg`) and the whole report as JSON (`to_json`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Sequence

from .core.adjudicator import Outcome, Reason, Rules, adjudicate
from .core.orders import Convoy, Disband, Move, Order, SupportMove
from .core.position import Dislodged, Position, Unit
from .core.results import Limits
from .io.records import COMPLETED, Record, RecordPhase, board_differences

if TYPE_CHECKING:
    from .agreements import Agreements

__all__ = ["Analysis", "PhaseCheck", "PowerMove", "Threat", "Threats", "solo_threats", "QUIRKS", "READINGS", "CONVENTIONS", "EXPLANATIONS", "analyze", "check_phase", "board_differences", "searches"]

#: the peer's documented departures from the DATC (README, tests/test_peer_crosscheck.py)
QUIRKS = {
    "6.H.6": "6.H.6 retreats after a convoyed attack (the peer lets the unit retreat to "
             "occupied or contested provinces)",
    "6.D.12": "6.D.12/6.F.4 support of a convoyed attack on one's own unit (the peer counts it)",
    "6.F.4": "6.F.4/6.D.12 a convoying fleet attacked with a support of its own power (the "
             "peer lets that support disrupt the convoy, though it cannot dislodge the fleet)",
    "6.E.3": "6.E.3 support of an attack on one's own unit (the peer gives it no effect at all)",
    "6.G.8": "6.G.8 a move by convoy ('via convoy', or by its own power's fleet) whose convoy "
             "fails (the peer, DATC 2.x, moves it by land)",
    "4.D.8": "4.D.8 civil disorder (the peer removes the units farthest from home centers)",
}

#: other engines' readings of the rules, where the DATC leaves a choice
READINGS = {
    "4.A.3": "4.A.3 a move to an adjacent province convoyed by its own power's fleet (Meta's "
             "engine moves it over land unless ordered 'via convoy'; DATC 3.0 by the convoy)",
}

#: the ways a record is written that are no rule at all, and that a re-adjudication names
#: rather than calls unexplained (each emulated as the quirks are, then compared)
CONVENTIONS = {
    "disband-only retreat": "a retreat phase kept for units that can only disband (webDiplomacy "
                            "and Meta's engine keep it; dipsolve and the peer disband them at once)",
    "100-year end": "the diplomacy package's 100-year end (a draw after the Fall of the game's "
                    "100th year: its Winter phase recorded even with nothing due, and the game "
                    "ended before its adjustments)",
}

#: every name a difference can be explained by: the peer's quirks and the records' conventions
EXPLANATIONS = {**QUIRKS, **READINGS, **CONVENTIONS}

# -- the adjudication check ------------------------------------------------------------------

@dataclass(frozen=True)
class PhaseCheck:
    """One phase re-adjudicated: what differs from the record, and which quirks explain it."""

    phase: str
    #: the differences, one line each (empty: dipsolve gives the record's next board)
    differences: tuple[str, ...]
    #: the keys of `QUIRKS` that together explain them
    quirks: tuple[str, ...] = ()
    #: whether the quirks explain every difference
    explained: bool = True

    def to_json(self) -> dict:
        return {"phase": self.phase, "differences": list(self.differences),
                "quirks": [EXPLANATIONS[q] for q in self.quirks], "explained": self.explained}


@dataclass
class _Case:
    """A phase as the recognisers see it: the board, the orders, the record's next board,
    and the readings of the rules it is adjudicated by (`Rules`: DATC 3.0 to begin with)."""

    position: Position
    orders: dict[str, list[Order]]
    expected: Position
    compare_phase: bool
    rules: Rules = Rules()

    def outcome(self) -> Outcome:
        return adjudicate(self.position, self.orders, self.rules)

    def diffs(self) -> list[str]:
        return board_differences(self.outcome().next, self.expected, self.compare_phase)


def check_phase(before: RecordPhase, after: RecordPhase) -> PhaseCheck:
    """Adjudicate ``before`` with its recorded orders and compare with ``after``."""
    case = _Case(before.position, before.orders_of(), after.position, after.name != COMPLETED)
    diffs = case.diffs()
    if not diffs:
        return PhaseCheck(before.name, ())
    found: list[str] = []
    current = diffs
    while current:
        # the explanation that leaves the fewest differences (the first of a tie), not the
        # first that leaves fewer: one quirk's partial fit must not hide a whole one
        best: tuple[str, _Case, list[str]] | None = None
        for key, recogniser in _RECOGNISERS:
            if key in found:
                continue
            edited = recogniser(case)
            if edited is None:
                continue
            left = edited.diffs()
            if len(left) < len(current) and (best is None or len(left) < len(best[2])):
                best = (key, edited, left)
        if best is None:
            break
        found.append(best[0])
        case, current = best[1], best[2]
    return PhaseCheck(before.name, tuple(diffs), tuple(found), not current)


def _convoyed(move: Move, orders: Mapping[str, Sequence[Order]], position: Position) -> bool:
    if move.kind != "A":
        return False
    if move.via_convoy or not position.map.can_move("A", move.location, move.target):
        return True
    return any(isinstance(o, Convoy) and o.convoyed_location == move.location
               for os in orders.values() for o in os)


def _h66(case: _Case) -> _Case | None:
    """6.H.6: correct the record's retreat options of units dislodged by a convoyed army
    (no occupied, no contested province), as the DATC has them."""
    if case.position.phase.kind != "movement" or not case.expected.dislodged:
        return None
    outcome = case.outcome()
    po = case.position.map.province_of
    moves = {o.location: o for os in case.orders.values() for o in os if isinstance(o, Move)}
    by_convoy = set()
    for r in outcome.results:
        if r.reason == Reason.DISLODGED and r.detail.startswith("by "):
            mover = moves.get(r.detail.split()[-1])
            if mover is not None and _convoyed(mover, case.orders, case.position):
                by_convoy.add(Unit(r.power, getattr(r.order, "kind"), getattr(r.order, "location")))
    if not by_convoy:
        return None
    occupied = {po[u.location] for u in case.expected.units}
    standoffs = set(outcome.next.standoffs) | {
        po[r.order.target] for r in outcome.results
        if isinstance(r.order, Move) and r.reason == Reason.BOUNCED and po[r.order.target] not in occupied}
    corrected: list[Dislodged] = []
    touched = False
    for d in case.expected.dislodged:
        if d.unit in by_convoy:
            opts = tuple(o for o in d.retreats if po[o] not in occupied and po[o] not in standoffs)
            touched |= opts != d.retreats
            if opts:
                corrected.append(Dislodged(d.unit, d.attacker_origin, opts))
            continue
        corrected.append(d)
    if not touched:
        return None
    e = case.expected
    if not corrected:       # no retreat left: no retreat phase (and, in the Fall, the centers change)
        return replace(case, expected=_disbanded(e))
    return replace(case, expected=Position.build(e.phase, e.units, e.centers, corrected, e.standoffs,
                                                 game_map=e.map))


def _disbanded(retreat: Position) -> Position:
    """The board after a retreat phase in which every dislodged unit disbands: what the
    rules give at once when none of them has a retreat (the next phase; in the Fall, the
    centers handed over)."""
    units = tuple(Dislodged(d.unit, d.attacker_origin, ()) for d in retreat.dislodged)
    bare = Position.build(retreat.phase, retreat.units, retreat.centers, units, (), game_map=retreat.map)
    return adjudicate(bare, {}).next


def _disband_only(case: _Case) -> _Case | None:
    """The record keeps a retreat phase for units that can only disband (webDiplomacy,
    Meta's engine): emulated by playing that phase, every such unit disbanded."""
    e = case.expected
    if e.phase.kind != "retreat" or case.position.phase.kind != "movement":
        return None
    stuck = [d for d in e.dislodged if not d.retreats]
    if not stuck:
        return None
    kept = [d for d in e.dislodged if d.retreats]
    if not kept:
        return replace(case, expected=_disbanded(e))
    return replace(case, expected=Position.build(e.phase, e.units, e.centers, kept, e.standoffs,
                                                 game_map=e.map))


def _own_supports(case: _Case) -> Iterable[tuple[str, SupportMove, Move | None, Unit]]:
    """Supports by a power of a move into a province its own unit holds."""
    po = case.position.map.province_of
    moves = {o.location: o for os in case.orders.values() for o in os if isinstance(o, Move)}
    for power, os in case.orders.items():
        for o in os:
            if isinstance(o, SupportMove):
                defender = case.position.unit_in.get(po.get(o.target, o.target))
                if defender is not None and defender.power == power:
                    yield power, o, moves.get(o.supported_location), defender


def _d12(case: _Case) -> _Case | None:
    """6.D.12/6.F.4: the peer counts a power's support of a *convoyed* attack on its own
    unit: the phase adjudicated again with that reading (`Rules.convoyed_own_support`)."""
    if case.position.phase.kind != "movement" or case.rules.convoyed_own_support:
        return None
    if not any(mv is not None for _, _, mv, _ in _own_supports(case)):
        return None
    return replace(case, rules=replace(case.rules, convoyed_own_support=True))


def _f4(case: _Case) -> _Case | None:
    """6.F.4 with 6.D.12: a power's support of an attack on its own convoying fleet
    cannot dislodge the fleet, so it cannot disrupt the convoy; the peer does not
    dislodge the fleet either, but counts the support when it asks whether the convoy
    is disrupted, and the convoyed army stays.  Emulated by leaving out the convoy
    orders of those fleets (each then holds, as strong as before: its convoy fails as
    the peer has it)."""
    if case.position.phase.kind != "movement":
        return None
    po = case.position.map.province_of
    convoys = {po[o.location]: o for os in case.orders.values() for o in os if isinstance(o, Convoy)}
    drop = {convoys[po[d.location]] for _, _, _, d in _own_supports(case) if po[d.location] in convoys}
    if not drop:
        return None
    return replace(case, orders={p: [o for o in os if o not in drop] for p, os in case.orders.items()})


def _e3(case: _Case) -> _Case | None:
    """6.E.3: the peer gives a power's support of an attack over land on its own unit no
    effect at all (not even to the mover's defence in a head-to-head): the phase
    adjudicated again with that reading (`Rules.land_own_support_void`)."""
    if case.position.phase.kind != "movement" or case.rules.land_own_support_void:
        return None
    if not any(mv is not None and not _convoyed(mv, case.orders, case.position)
               for _, _, mv, _ in _own_supports(case)):
        return None
    return replace(case, rules=replace(case.rules, land_own_support_void=True))


def _g8(case: _Case) -> _Case | None:
    """6.G.8 (and DATC 4.A.3): an army that goes by convoy (ordered 'via convoy', or
    convoyed by a fleet of its own power) stays when its convoy fails, even if it could
    go by land; the peer (DATC 2.x) moves it by land: the phase adjudicated again with
    that reading (`Rules.land_fallback`)."""
    if case.position.phase.kind != "movement" or case.rules.land_fallback:
        return None
    m = case.position.map
    if not any(isinstance(r.order, Move) and r.order.kind == "A" and r.reason in (Reason.NO_CONVOY, Reason.DISLODGED)
               and m.can_move("A", r.order.location, r.order.target)
               and _own_convoy(r.order, case.orders.get(r.power, ()))
               for r in case.outcome().results):
        return None
    return replace(case, rules=replace(case.rules, land_fallback=True))


def _a3(case: _Case) -> _Case | None:
    """4.A.3: Meta's engine moves an army to an adjacent province over land though a fleet
    of its own power is ordered to convoy it (only 'via convoy' makes it go by convoy):
    the phase adjudicated again with that reading (`Rules.convoy_intent`)."""
    if case.position.phase.kind != "movement" or case.rules.convoy_intent == "via only":
        return None
    m = case.position.map
    if not any(isinstance(o, Move) and o.kind == "A" and not o.via_convoy
               and m.can_move("A", o.location, o.target) and _own_convoy(o, os)
               for os in case.orders.values() for o in os):
        return None
    return replace(case, rules=replace(case.rules, convoy_intent="via only"))


def _own_convoy(move: Move, own_orders: Iterable[Order]) -> bool:
    """Whether an army's move goes by convoy by the DATC 3.0 rule (4.A.3): 'via convoy',
    or a fleet of its own power ordered to convoy it."""
    return move.via_convoy or any(isinstance(o, Convoy) and o.convoyed_location == move.location
                                  and o.target == move.target for o in own_orders)


def _d8(case: _Case) -> _Case | None:
    """4.D.8: the peer's civil disorder removes other units than the 2023 rule: emulated
    by ordering the removals the record shows."""
    if case.position.phase.kind != "adjustment":
        return None
    outcome = case.outcome()
    powers = {r.power for r in outcome.results if r.reason == Reason.CIVIL_DISORDER}
    if not powers:
        return None
    kept = set(case.expected.units)
    orders = {p: list(os) for p, os in case.orders.items()}
    for power in powers:
        ordered = {o.location for o in orders.get(power, []) if isinstance(o, Disband)}
        for u in case.position.units_of(power):
            if u not in kept and u.location not in ordered:
                orders.setdefault(power, []).append(Disband(u.kind, u.location))
    return replace(case, orders=orders)


def _hundredth_year(position: Position) -> bool:
    """Whether ``position`` is in the 100th year of its variant's game (2000 on the
    standard board), the year the ``diplomacy`` package ends a game in a draw."""
    from .core.variant import VARIANTS, variant
    name = position.map.name or "standard"
    first = int(variant(name).start_phase[1:-1]) if name in VARIANTS else 1901
    return position.phase.year - first + 1 == 100


def _hundred_years(case: _Case) -> _Case | None:
    """The ``diplomacy`` package ends a game after the Fall of its 100th year: it writes
    that year's Winter phase though nothing may be due (dipsolve goes on to the Spring),
    and ends the game on the Winter's board, an owed removal or build never made.
    Emulated: dipsolve's board is taken into the Winter; and an end board equal to the
    Winter's, before its adjustments, is that end."""
    e, p = case.expected, case.position
    if not _hundredth_year(p):
        return None
    nxt = case.outcome().next
    if p.phase.season == "Fall":
        if e.phase.kind != "adjustment" or nxt.phase.kind == "adjustment" or nxt.phase == e.phase:
            return None
        return replace(case, expected=Position.build(nxt.phase, e.units, e.centers, e.dislodged,
                                                     e.standoffs, game_map=e.map))
    if p.phase.kind == "adjustment" and not case.compare_phase:        # the end: COMPLETED
        if (e.units, e.centers) != (p.units, p.centers) or nxt == e:
            return None
        return replace(case, expected=nxt)
    return None


_RECOGNISERS: tuple[tuple[str, Callable[[_Case], _Case | None]], ...] = (
    ("6.H.6", _h66), ("6.D.12", _d12), ("6.F.4", _f4), ("6.E.3", _e3), ("6.G.8", _g8), ("4.D.8", _d8),
    ("4.A.3", _a3),
    ("disband-only retreat", _disband_only), ("100-year end", _hundred_years))


# -- orders against dipsolve's ---------------------------------------------------------------

@dataclass(frozen=True)
class PowerMove:
    """One power's movement phase: the orders played, dipsolve's, and what they are worth
    against the orders the others really gave."""

    power: str
    phase: str
    played: tuple[Order, ...]
    ours: tuple[Order, ...]
    played_value: float
    ours_value: float
    status: str
    seconds: float

    @property
    def lost(self) -> float:
        """dipsolve's value minus the played one (positive: the player lost value)."""
        return self.ours_value - self.played_value

    @property
    def same(self) -> bool:
        return sorted(map(str, self.played)) == sorted(map(str, self.ours))

    def to_json(self) -> dict:
        return {"phase": self.phase, "played": [str(o) for o in self.played],
                "dipsolve": [str(o) for o in self.ours], "same": self.same,
                "played_value": round(self.played_value, 2), "dipsolve_value": round(self.ours_value, 2),
                "value_lost": round(self.lost, 2), "status": self.status, "seconds": round(self.seconds, 3)}


@dataclass
class Analysis:
    """The report of `analyze`."""

    record: Record
    checks: list[PhaseCheck] = field(default_factory=list)
    moves: dict[str, list[PowerMove]] = field(default_factory=dict)
    seconds: float = 0.0
    #: a stop was requested (Ctrl-C, SIGTERM) before every phase and power was done: the
    #: report holds the phases checked and the moves weighed until then
    interrupted: bool = False
    #: each power's fewest years to a solo at every Fall (``analyze(threats=...)``)
    threats: "Threats | None" = None
    #: the agreements of the record's DAIDE press, checked (``analyze(agreements=True)``)
    agreements: "Agreements | None" = None

    @property
    def differences(self) -> list[PhaseCheck]:
        """The phases where dipsolve's adjudication differs from the record."""
        return [c for c in self.checks if c.differences]

    @property
    def unexplained(self) -> list[PhaseCheck]:
        """The differences no documented quirk of the peer explains."""
        return [c for c in self.checks if not c.explained]

    @property
    def centers(self) -> dict[str, list[int]]:
        """Each power's supply-center count at every phase of the record, in order."""
        phases = self.record.phases
        powers = phases[0].position.map.powers if phases else ()
        return {p: [len(ph.position.centers_of(p)) for ph in phases] for p in powers}

    def table_rows(self, power: str) -> list[tuple[str, list[str], list[str], str]]:
        """One power's movement phases as rows: phase, played, dipsolve's (each a list of
        orders), value lost."""
        return [(m.phase, [str(o) for o in m.played] or ["(no orders: all hold)"],
                 ["(the same)"] if m.same else [str(o) for o in m.ours], f"{m.lost:+.1f}")
                for m in self.moves.get(power, [])]

    def table_summary(self, power: str) -> str:
        rows = self.moves.get(power, [])
        return (f"{power}: {len(rows)} movement phases, {sum(m.same for m in rows)} played as "
                f"dipsolve would, value lost {sum(m.lost for m in rows):+.1f} in all")

    def table(self, power: str) -> str:
        """One power's movement phases: phase, played, dipsolve's, value lost (plain text,
        one line a phase; the command line folds it to the terminal's width)."""
        head = ("phase", "played", "dipsolve's", "value lost")
        body = [(a, ", ".join(b), ", ".join(c), d) for a, b, c, d in self.table_rows(power)]
        widths = [max(len(r[i]) for r in [head, *body]) for i in range(4)]
        lines = ["  ".join(c.ljust(w) if i < 3 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
                 for r in [head, *body]]
        lines.append(self.table_summary(power))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The game with dipsolve's suggestions beside the played orders, for notebooks."""
        from .io.pictures_html import game_html, notebook_html
        return notebook_html(game_html(self.record, self))

    def to_json(self) -> dict:
        r = self.record
        return {"game": r.id, "phases": r.names, "warnings": list(r.warnings), "seconds": round(self.seconds, 3),
                "status": "interrupted" if self.interrupted else "complete",
                "adjudication": {"checked": len(self.checks), "differences": len(self.differences),
                                 "unexplained": len(self.unexplained),
                                 "phases": [c.to_json() for c in self.differences]},
                "powers": {p: {"moves": [m.to_json() for m in ms],
                               "value_lost": round(sum(m.lost for m in ms), 2)}
                           for p, ms in self.moves.items()},
                "centers": {"phases": r.names, "counts": self.centers},
                "threats": None if self.threats is None else self.threats.to_json(),
                "agreements": None if self.agreements is None else _agreements_json(self.agreements)}


def _agreements_json(ledger: "Agreements") -> dict:
    """The agreements as JSON, with each party's ``trust`` at the end (`dipsolve.Trust`)."""
    from .agreements import Trust
    return {**ledger.to_json(), "trust": Trust.from_agreements(ledger).to_json(ledger.parties)}


# -- solo threats ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Threat:
    """One power's fewest game years to the target from one phase of a record: the
    answer of `dipsolve.models.path.solve_path` under the opposition model."""

    power: str
    centers: int
    status: str                  # optimal, feasible, infeasible (within the years), timed out
    years: int | None            # the plan's game years (None: no plan)
    bound_years: int | None      # no plan is shorter (None: none within the years looked at)
    seconds: float

    def cell(self) -> str:
        """``3`` proven; ``≤3`` a plan, not proven fewest; ``≥2`` no plan yet, none
        shorter; ``-`` none within the years looked at, proven."""
        if self.status == "optimal":
            return str(self.years)
        if self.years is not None:
            return f"≤{self.years}"
        if self.status == "infeasible":
            return "-"
        return f"≥{self.bound_years}" if self.bound_years is not None else "?"

    def to_json(self) -> dict:
        return {"centers": self.centers, "status": self.status, "years": self.years,
                "bound_years": self.bound_years, "seconds": round(self.seconds, 3)}


@dataclass
class Threats:
    """Each power's fewest years to ``target`` centers at every Fall of a record, against
    the ``opposition`` (`dipsolve.models.path_problem.OPPOSITIONS`), looking no further
    than ``years``."""

    opposition: str
    target: int
    years: int
    rows: list[tuple[str, dict[str, Threat]]] = field(default_factory=list)

    def spans(self) -> dict[str, list[tuple[str, str]]]:
        """Each power's runs of Falls from which a plan within the years exists: (first,
        last) phase names."""
        out: dict[str, list[tuple[str, str]]] = {}
        for power in self.powers:
            run: list[str] = []
            for phase, cells in self.rows + [("", {})]:
                t = cells.get(power)
                if t is not None and t.years is not None:
                    run.append(phase)
                elif run:
                    out.setdefault(power, []).append((run[0], run[-1]))
                    run = []
        return out

    @property
    def powers(self) -> list[str]:
        seen: dict[str, None] = {}
        for _, cells in self.rows:
            seen.update(dict.fromkeys(cells))
        return list(seen)

    def table_rows(self) -> list[list[str]]:
        return [[phase] + [cells[p].cell() if p in cells else "" for p in self.powers]
                for phase, cells in self.rows]

    def summary(self) -> list[str]:
        """When a solo became possible and when it was stopped: a line a power that had
        one, each run of Falls with the years from its first."""
        last = self.rows[-1][0] if self.rows else None
        years = {(phase, p): t.years for phase, cells in self.rows for p, t in cells.items()}
        lines = []
        for power, runs in self.spans().items():
            parts = [(f"at {first}" if first == end != last else f"from {first}")
                     + f" ({years[(first, power)]} years)"
                     + ("" if end in (first, last) else f" to {end}") for first, end in runs]
            lines.append(f"{power}: a solo within {self.years} years {', then '.join(parts)}")
        return lines

    def to_json(self) -> dict:
        return {"opposition": self.opposition, "target": self.target, "years": self.years,
                "phases": [{"phase": phase, "powers": {p: t.to_json() for p, t in cells.items()}}
                           for phase, cells in self.rows],
                "spans": {p: [list(r) for r in runs] for p, runs in self.spans().items()}}


def threat_cases(record: Record, powers: Sequence[str] | None = None) -> list[tuple[RecordPhase, str]]:
    """What `solo_threats` answers: every Fall movement phase of the record, for each power
    of ``powers`` (default: every power) that has units or centers in it."""
    return [(ph, p) for ph in record.phases
            if ph.position.phase.kind == "movement" and ph.position.phase.season == "Fall"
            for p in (powers or ph.position.map.powers)
            if ph.position.units_of(p) or ph.position.centers_of(p)]


def solo_threats(record: Record, opposition: str = "hold", *, limits: Limits | None = None,
                 years: int = 5, target: int = 18, powers: Sequence[str] | None = None,
                 on_step: Callable[[str], None] | None = None) -> Threats:
    """Each power's fewest game years to ``target`` centers from every Fall of ``record``
    (`threat_cases`: a power with neither units nor centers is left out), against
    ``opposition``, looking no further than ``years`` years, each answer within
    ``limits.time_limit`` seconds (`dipsolve.models.path.solve_path`: proven, or bounded
    when the time runs out).  ``on_step(text)`` is called before each answer; a stop
    request (`dipsolve.core.results.request_stop`) ends the work after the answer under way."""
    from .core.results import stop_requested
    from .models.path import solve_path
    from .models.path_problem import moves_within

    limits = limits or THREAT_LIMITS
    out = Threats(opposition, target, years)
    cells: dict[str, Threat] = {}
    for ph, power in threat_cases(record, powers):
        if stop_requested():
            break
        if not out.rows or out.rows[-1][0] != ph.name:
            cells = {}
            out.rows.append((ph.name, cells))
        if on_step is not None:
            on_step(f"{ph.name} {power}")
        pos = ph.position
        sol = solve_path(pos, power, target, max_moves=moves_within(pos.phase, years),
                         opposition=opposition, limits=limits)
        cells[power] = Threat(power, len(pos.centers_of(power)), str(sol.status), sol.years,
                              sol.bound_years, sol.seconds)
    return out


#: `solo_threats`' settings when none are given: ten seconds an answer
THREAT_LIMITS = Limits(time_limit=10.0)


#: `analyze`'s settings when none are given: one second a power and phase
ANALYSIS_LIMITS = Limits(time_limit=1.0)


def searches(record: Record, powers: Sequence[str] | None = None) -> list[tuple[RecordPhase, str]]:
    """The searches `analyze` makes of ``record``: each movement phase with orders, for
    each power of ``powers`` (default: every power) with units in it."""
    return [(ph, p) for ph in record.phases if ph.position.phase.kind == "movement" and ph.orders
            for p in (powers or ph.position.map.powers) if ph.position.units_of(p)]


def analyze(record: Record, powers: Sequence[str] | None = None, *, limits: Limits | None = None,
            method: str = "agenda", on_step: Callable[[str, int, int], None] | None = None,
            check_only: bool = False, threats: str | None = None, threat_years: int = 5,
            agreements: bool = False) -> Analysis:
    """Analyse ``record``: re-adjudicate every phase, then (unless ``check_only``) solve
    each movement phase for each power in ``powers`` (default: every power with units)
    within ``limits.time_limit`` seconds a power and phase (`dipsolve.Limits`: default one
    second, seed 0, one worker; each search takes its seed and workers).  With ``threats``
    (an opposition model: `solo_threats`), each power's fewest years to a solo at every
    Fall instead, looking ``threat_years`` ahead, ``limits`` an answer (default
    `THREAT_LIMITS`).  With ``agreements``, the agreements of the record's DAIDE press
    checked against its orders (`track_agreements`), and no search either.
    ``on_step(text, done, total)`` reports progress.  When a stop is requested (`dipsolve.core.results.request_stop`: Ctrl-C
    at the command line) the work ends after the phase or search under way: the
    report holds what was finished, with ``interrupted`` set."""
    from .api import solve
    from .search.strategy import Learned, named
    from .algorithms.evaluation import influence
    from .core.results import Status, stop_requested

    began = time.perf_counter()
    analysis = Analysis(record)
    pairs = list(zip(record.phases, record.phases[1:]))
    jobs = [] if check_only or threats or agreements else searches(record, powers)
    answers = 0 if threats is None or check_only else len(threat_cases(record, powers))
    total = len(pairs) + len(jobs) + answers + bool(agreements)
    done = 0
    if agreements:
        from .agreements import track_agreements
        if on_step is not None:
            on_step("agreements", done, total)
        analysis.agreements = track_agreements(record)
        done += 1
    for before, after in pairs:
        if stop_requested():
            break
        if on_step is not None:
            on_step(f"checking {before.name}", done, total)
        analysis.checks.append(check_phase(before, after))
        done += 1
    if answers and threats is not None and not stop_requested():
        def step(what: str) -> None:
            nonlocal done
            if on_step is not None:
                on_step(f"threats: {what}", done, total)
            done += 1
        analysis.threats = solo_threats(record, threats, limits=limits or THREAT_LIMITS, years=threat_years,
                                        powers=powers, on_step=step)
    strategy = named(method)
    limits = limits or ANALYSIS_LIMITS
    for ph, power in jobs:
        if stop_requested():
            break
        if on_step is not None:
            on_step(f"{ph.name} {power}", done, total)
        given = ph.orders_of()
        chosen = strategy
        if isinstance(strategy.opponents, Learned):     # the seat's model, fitted to the orders before
            chosen = replace(strategy, opponents=replace(strategy.opponents,
                                                         history=record.movements_before(ph)))
        solution = solve(ph.position, power, chosen, limits=limits)
        if stop_requested() and solution.status in (Status.TIMED_OUT, Status.INTERRUPTED):
            break                    # cut short by the stop: not a weighing of the phase
        played = tuple(given.get(power, ()))
        played_value = influence(adjudicate(ph.position, given).next, power)
        ours_value = influence(adjudicate(ph.position, {**given, power: list(solution.orders)}).next, power)
        analysis.moves.setdefault(power, []).append(PowerMove(
            power, ph.name, played, tuple(solution.orders), played_value, ours_value,
            solution.status.value, solution.seconds))
        done += 1
    analysis.interrupted = done < total
    if on_step is not None and not analysis.interrupted:
        on_step("done", total, total)
    analysis.seconds = time.perf_counter() - began
    return analysis
