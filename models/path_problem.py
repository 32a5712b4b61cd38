"""What a power alone on the board can do, and when: its phases and the places its units may stand.

The problem of `dipsolve.models.path` read once from a position (`PathProblem`, made by
`problem`): the power, its units, the centers it owns and its home centers; the phases
it goes through with nobody in its way (`phases_from`, `schedule`, `years_between`);
and an over-estimate of the places a unit may stand on after each phase (`PathProblem.reach`),
which both the lower bound (`dipsolve.models.path_bound`) and the CP-SAT models
(`dipsolve.models.path_model`) are built on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence

from dipsolve.core.errors import DipsolveRuleError, DipsolveSyntaxError
from dipsolve.core.graph import moves_from, sea_chains
from dipsolve.core.map import Map
from dipsolve.core.orders import Order
from dipsolve.core.position import Phase, Position, Unit

from .path_defence import Defence, given_defence

RULES = ("full", "paper")
#: who stands in the way (`dipsolve.models.path`): nobody (the others' units off the
#: board), the others' units holding, or holding with supports for each other
OPPOSITIONS = ("none", "hold", "supported")

Place = tuple[str, str]          # (kind, location): ("A", "PAR"), ("F", "STP/SC")


#: why a path cannot start in a retreat phase (the message of the error raised)
RETREAT_START = "a path starts from a movement or adjustment phase, not a retreat phase"


# -- phases ----------------------------------------------------------------------------------

def phases_from(start: Phase) -> Iterator[Phase]:
    """The phases a power alone on the board goes through: Spring and Fall movement,
    Winter adjustment (no retreats: nobody dislodges anybody)."""
    if start.kind == "retreat":
        raise DipsolveRuleError(RETREAT_START, rule="path-start")
    season, year = start.season, start.year
    while True:
        if season == "Winter":
            yield Phase("Winter", year, "adjustment")
            season, year = "Spring", year + 1
        else:
            yield Phase(season, year, "movement")
            season = "Fall" if season == "Spring" else "Winter"


def schedule(start: Phase, moves: int) -> list[Phase]:
    """The phases up to and including the ``moves``-th movement phase."""
    out: list[Phase] = []
    n = 0
    for ph in phases_from(start):
        if n == moves:
            return out
        out.append(ph)
        n += ph.kind == "movement"
    raise AssertionError("unreachable")  # pragma: no cover  (phases_from never ends)


def moves_within(start: Phase, years: int | None, default: int = 40) -> int:
    """The movement phases from ``start`` to the end of its ``years``-th game year
    (``default`` without a number of years): the horizon of ``path --years``.

        >>> moves_within(Phase("Fall", 1905, "movement"), 2), moves_within(Phase("Winter", 1905, "adjustment"), 1)
        (3, 2)
    """
    if years is None:
        return default
    n = 0
    for ph in phases_from(start):
        if ph.kind == "movement":
            if years_between(start, ph) > years:
                return n
            n += 1
    raise AssertionError("unreachable")  # pragma: no cover  (phases_from never ends)


def years_between(start: Phase, last: Phase) -> int:
    """Game years from ``start`` to ``last`` inclusive, counted from the first movement
    phase (a plan from Winter 1901 that ends in Fall 1902 takes one year)."""
    first = start.year + 1 if start.kind == "adjustment" else start.year
    return last.year - first + 1



# -- the problem -----------------------------------------------------------------------------

@dataclass
class PathProblem:
    """Everything the model and the bound need, read once from the position."""

    m: Map
    power: str
    target: int
    rules: str
    start: Phase
    units: tuple[Unit, ...]
    owned: frozenset[str]                   # centers the power owns at the start
    homes: tuple[str, ...]
    opposition: str = "none"
    #: province -> another power's unit standing there (the opposed models; else empty)
    enemies: dict[str, Unit] = field(default_factory=dict)
    #: a known defence (`given_defence`): movement phase -> province of a unit of theirs
    #: -> the province whose hold it supports (None: it holds)
    defence: dict[Phase, dict[str, str | None]] = field(default_factory=dict)
    coastal: frozenset[str] = field(init=False)
    seas: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        t = self.m.terrain
        self.coastal = frozenset(p for p, v in t.items() if v == "coast")
        self.seas = frozenset(p for p, v in t.items() if v == "sea")

    @property
    def full(self) -> bool:
        return self.rules == "full"

    def counted_at_start(self) -> frozenset[str]:
        """Centers that count at the start: owned (full rules); owned or occupied (paper)."""
        if self.full:
            return self.owned
        po = self.m.province_of
        return self.owned | {po[u.location] for u in self.units if po[u.location] in self.m.centers}

    def can_reach_goal(self, phase: Phase) -> bool:
        """Whether the count can first reach the target in this phase: after a Fall
        (full rules: ownership changes only then) or any movement phase (paper)."""
        return phase.kind == "movement" and (not self.full or phase.season == "Fall")

    def moves_of(self, kind: str, loc: str) -> tuple[str, ...]:
        return moves_from(self.m, kind, loc)

    def build_places(self, home: str) -> list[Place]:
        """Where a unit may be built in this home center: an army (not at sea) and a
        fleet on each coast (not inland)."""
        return list(self.m.unit_places(home))

    def convoy_targets(self, army_at: Iterable[str], fleets_at_sea: set[str]) -> set[str]:
        """Coastal provinces an army in any of ``army_at`` could be convoyed to through
        fleets in ``fleets_at_sea`` (an over-estimate used to prune variables)."""
        nb = self.m.neighbours
        out: set[str] = set()
        for a in army_at:
            if a in self.coastal and nb[a] & fleets_at_sea:
                out.add(a)         # next to a fleet: the army's own coast counts too
                out |= {chain[-1] for chain in sea_chains(self.m, a, fleets_at_sea)}
        return out

    def buildable(self, cur: Iterable[Place]) -> list[str]:
        """Home centers the power could own in a Winter when units could have stood on
        ``cur`` by then: owned at the start, or within reach (to be taken in a Fall)."""
        there = {self.m.province_of[loc] for _, loc in cur}
        return [h for h in self.homes if h in self.owned or h in there]

    def after(self, cur: frozenset[Place], phase: Phase) -> frozenset[Place]:
        """The places a unit may stand on after ``phase`` when ``cur`` were possible before
        (an over-estimate: units may split, every home it could own may build)."""
        if phase.kind != "movement":
            if not self.full:
                return cur
            return cur | {pl for h in self.buildable(cur) for pl in self.build_places(h)}
        po = self.m.province_of
        nxt = set(cur)
        for k, loc in cur:
            nxt |= {(k, b) for b in self.moves_of(k, loc)}
        if self.full:
            fleets = {loc for k, loc in cur if k == "F" and po[loc] in self.seas}
            armies = [loc for k, loc in cur if k == "A"]
            nxt |= {("A", b) for b in self.convoy_targets(armies, fleets)}
        return frozenset(nxt)

    def reach(self, phases: Sequence[Phase]) -> list[frozenset[Place]]:
        """The places a unit may stand on after each phase (index 0 is the start): the
        model's variables."""
        out = [frozenset((u.kind, u.location) for u in self.units)]
        for ph in phases:
            out.append(self.after(out[-1], ph))
        return out


def problem(position: Position, power: str, target: int, rules: str,
            opposition: str = "none", defence: Defence | None = None) -> PathProblem:
    """The problem of reaching ``target`` centers for ``power`` from ``position``, the
    other powers' units taken off the board (``opposition`` "none") or standing in the
    way (`OPPOSITIONS`), as ordered by ``defence`` in the phases it gives
    (`given_defence`)."""
    if rules not in RULES:
        raise DipsolveSyntaxError(f"unknown rules {rules!r} (expected one of {', '.join(RULES)})",
                                  found=rules, expected=" or ".join(RULES))
    if opposition not in OPPOSITIONS:
        raise DipsolveSyntaxError(f"unknown opposition {opposition!r} (expected one of "
                                  f"{', '.join(OPPOSITIONS)})", found=str(opposition),
                                  expected=" or ".join(OPPOSITIONS))
    if opposition != "none" and rules != "full":
        raise DipsolveRuleError(f"the opposition {opposition!r} plays by the full rules, not the "
                                f"paper's framing", rule="path-opposition")
    if position.phase.kind == "retreat":
        raise DipsolveRuleError(RETREAT_START, rule="path-start")
    if defence and opposition == "none":
        raise DipsolveRuleError("a defence is the orders of the others' units, which the "
                                "opposition 'none' takes off the board: give 'hold' or 'supported'",
                                rule="path-defence")
    m = position.map
    return PathProblem(m=m, power=power, target=target, rules=rules, start=position.phase,
                       units=tuple(position.units_of(power)),
                       owned=frozenset(position.centers_of(power)),
                       homes=tuple(sorted(m.homes.get(power, ()))), opposition=opposition,
                       enemies={} if opposition == "none" else
                       {m.province_of[u.location]: u for u in position.units
                        if u not in position.units_of(power)},
                       defence=given_defence(position, power, defence or {}))

