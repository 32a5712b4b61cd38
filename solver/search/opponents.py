"""Opponent models: what the other powers might order, and how a candidate is judged
against it.

Hall & Loeb (seed ``002_…``, 3.3) test a complete order set "against enemy orders":
paranoid ("the worst position that can be obtained by some combination of enemy
orders"), or on average over "a number of alternative sets of enemy orders", which they
prefer.  Victorybot (seed ``004_…``) calls these MiniMax (paranoid) and ExpectiMax, and
adds two devices kept here:

*relevance* — only powers whose units can affect ours next turn matter
(`relevant_units`: a foreign unit that can move into a province one of our units stands
in or can move to);

*factorized pruning* — a candidate is scored against each opponent alone, the others
holding (the min, or the mean, over that opponent's order sets), and the losses are
summed; the best ``k`` candidates by that score are kept for the full joint test.

An opponent's candidate order sets come from the agenda search itself, run for that
opponent over its relevant units only: *likely* sets maximise the opponent's own
evaluation (it "attempts to maximize his own position", 3.3); *hostile* sets minimise
ours (the paranoid view).  Every opponent also keeps "all hold" as a candidate.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence, Union

from ..core.adjudicator import adjudicate
from ..core.orders import Hold, Order, unit_key
from ..core.position import Position, Unit
from ..core.results import Deadline
from ..core.graph import reachable_provinces
from .agenda import Evaluation, agenda_search

#: the agenda's test enumerates every combination of the opponents' order sets up to
#: this many; beyond it the factorized score stands in for it
MAX_JOINT = 81
#: the final joint test of the best candidates enumerates at most this many combinations;
#: beyond it a stand-in set (`OpponentModel.scenarios`)
MAX_SCENARIOS = 400


def zone(position: Position, power: str) -> set[str]:
    """The provinces the power's units stand in or can move to."""
    m = position.map
    out: set[str] = set()
    for u in position.units_of(power):
        out.add(m.province_of[u.location])
        out.update(reachable_provinces(m, u))
    return out


def relevant_units(position: Position, power: str, radius: int = 1) -> dict[str, list[Unit]]:
    """Opponent -> its units that can move into the power's zone (`zone`; with
    ``radius`` 2, into the zone or next to it): the ones whose orders can change what
    happens to the power's units (and, at radius 2, to the land around them) this turn."""
    m = position.map
    ours = zone(position, power)
    for _ in range(radius - 1):
        ours = ours.union(*(m.neighbours[p] for p in ours))
    out: dict[str, list[Unit]] = {}
    for u in position.units:
        if u.power == power:
            continue
        if m.province_of[u.location] in ours or ours.intersection(reachable_provinces(m, u)):
            out.setdefault(u.power, []).append(u)
    return out


def relevant_powers(position: Position, power: str) -> list[str]:
    """Victorybot's relevance: the powers that can affect the power's units next turn."""
    return sorted(relevant_units(position, power))


def _holds(units: Sequence[Unit]) -> tuple[Order, ...]:
    return tuple(Hold(u.kind, u.location) for u in units)


def candidate_orders(position: Position, opponent: str, evaluate: Evaluation, *,
                     units: Sequence[Unit], k: int, deadline: Deadline,
                     against: str | None = None) -> list[tuple[Order, ...]]:
    """Up to ``k`` distinct complete order sets for ``opponent``'s ``units`` (its other
    units hold), best first: by its own evaluation, or (``against``) by how little they
    leave ``against``.  The search runs until ``deadline`` or until it has looked at
    everything."""
    if against is None:
        score = evaluate
    else:
        def score(pos: Position, _power: str) -> float:
            return -evaluate(pos, against)
    r = agenda_search(position, opponent, score, units=units, deadline=deadline)
    out: list[tuple[Order, ...]] = []
    keep = {(u.kind, u.location) for u in units}
    for _, orders in r.complete:
        mine = tuple(o for o in orders if unit_key(o) in keep)
        if mine not in out:
            out.append(mine)
        if len(out) >= k:
            break
    return out


@dataclass(frozen=True)
class OpponentModel:
    """Each relevant opponent's candidate order sets (for its relevant units) with
    their weights (summing to 1 per opponent)."""

    power: str
    candidates: Mapping[str, tuple[tuple[tuple[Order, ...], float], ...]]

    @property
    def joint_size(self) -> int:
        n = 1
        for c in self.candidates.values():
            n *= len(c)
        return n

    def scenarios(self, limit: int | None = None) -> list[tuple[float, dict[str, tuple[Order, ...]]]]:
        """Every combination of the opponents' candidates, with its probability; when
        there are more than ``limit``, a stand-in of at most a few dozen: the opponents
        all playing their first candidates together, their second ones together, …,
        and each opponent's candidates alone (the others holding), equally weighted."""
        powers = sorted(self.candidates)
        if limit is None or self.joint_size <= limit:
            out = []
            for combo in itertools.product(*(self.candidates[p] for p in powers)):
                w = 1.0
                orders = {}
                for p, (os, wp) in zip(powers, combo):
                    w *= wp
                    orders[p] = os
                out.append((w, orders))
            return out
        picks: list[dict[str, tuple[Order, ...]]] = []
        depth = max(len(c) for c in self.candidates.values())
        for k in range(depth):
            picks.append({p: self.candidates[p][min(k, len(self.candidates[p]) - 1)][0] for p in powers})
        for p in powers:
            picks += [{p: os} for os, _ in self.candidates[p]]
        return [(1.0 / len(picks), orders) for orders in picks]


Predictor = Callable[[Position, str], Sequence[Order]]


def build_model(position: Position, power: str, evaluate: Evaluation, *, deadline: Deadline,
                likely: int = 2, hostile: int = 0, radius: int = 1,
                predictor: Predictor | None = None) -> OpponentModel:
    """The opponent model of ``power``: for each relevant opponent its ``likely`` best
    sets by its own evaluation, its ``hostile`` sets worst for ``power``, and all hold,
    equally weighted (Victorybot's uniform distribution over the arcs).  A
    ``predictor`` (``(position, power) -> orders``, e.g. DumbBot's move generator, which
    Victorybot's authors wished to pair with their search) adds its guess first.

    The ``deadline`` is shared out among the opponents, each getting an equal part of
    what is left when its turn comes (half for its likely sets, half for its hostile
    ones); past it every opponent still gets its predicted set and all hold."""
    relevant = relevant_units(position, power, radius)
    cands: dict[str, tuple[tuple[tuple[Order, ...], float], ...]] = {}
    powers = sorted(relevant)
    for i, opp in enumerate(powers):
        units = relevant[opp]
        mine = deadline.part(1.0 / (len(powers) - i))
        sets: list[tuple[Order, ...]] = []
        if predictor is not None:
            keep = {(u.kind, u.location) for u in units}
            guess = tuple(sorted((o for o in predictor(position, opp)
                                  if (getattr(o, "kind", None), getattr(o, "location", None)) in keep),
                                 key=unit_key))
            if guess:
                sets.append(guess)
        if likely:
            sets += candidate_orders(position, opp, evaluate, units=units, k=likely,
                                     deadline=mine.part(0.5) if hostile else mine)
        if hostile:
            sets += candidate_orders(position, opp, evaluate, units=units, k=hostile,
                                     deadline=mine, against=power)
        sets.append(_holds(units))
        sets = list(dict.fromkeys(sets))
        cands[opp] = tuple((s, 1.0 / len(sets)) for s in sets)
    return OpponentModel(power, cands)


@dataclass(frozen=True)
class SampledModel:
    """Opponents' orders as joint samples of a policy: each sample gives every other
    power a complete order set (drawn from ``predictor`` with its own random stream),
    and all samples weigh the same.  The expectimax of the Victorybot seed over
    "weighted opponent order sets" where the weights are the policy's own frequencies:
    a set the policy draws twice counts twice."""

    power: str
    samples: tuple[Mapping[str, tuple[Order, ...]], ...]

    @functools.cached_property
    def candidates(self) -> dict[str, tuple[tuple[tuple[Order, ...], float], ...]]:
        """Each opponent's distinct sets with the share of samples that drew them
        (counted once: the factorized test reads them for every candidate)."""
        counts: dict[str, dict[tuple[Order, ...], int]] = {}
        for s in self.samples:
            for p, os in s.items():
                counts.setdefault(p, {})
                counts[p][os] = counts[p].get(os, 0) + 1
        n = len(self.samples)
        return {p: tuple((os, c / n) for os, c in sorted(cs.items(), key=lambda x: -x[1]))
                for p, cs in sorted(counts.items())}

    @property
    def joint_size(self) -> int:
        return len(self.samples)

    def scenarios(self, limit: int | None = None) -> list[tuple[float, dict[str, tuple[Order, ...]]]]:
        """The samples, equally weighted (identical samples merged)."""
        merged: dict[tuple, float] = {}
        for s in self.samples:
            key = tuple(sorted(s.items()))
            merged[key] = merged.get(key, 0.0) + 1.0 / len(self.samples)
        return [(w, dict(key)) for key, w in merged.items()]


#: either kind of opponent model: searched candidates, or joint samples of a policy
Opponents = Union[OpponentModel, SampledModel]

SampledPredictor = Callable[[Position, str, random.Random], Sequence[Order]]


def sample_model(position: Position, power: str, predictor: SampledPredictor, *,
                 samples: int, seed: int = 0, deadline: Deadline | None = None) -> SampledModel:
    """``samples`` joint draws of ``predictor`` for every other power with units (fewer
    if the deadline comes first; at least one)."""
    others = sorted({u.power for u in position.units if u.power != power})
    out: list[dict[str, tuple[Order, ...]]] = []
    for i in range(samples):
        if out and deadline is not None and deadline.expired():
            break
        rng = random.Random(f"dipsolve-sample:{seed}:{i}")
        draw: dict[str, tuple[Order, ...]] = {}
        for opp in others:
            os = tuple(sorted(predictor(position, opp, rng),
                              key=lambda o: (getattr(o, "kind", ""), getattr(o, "location", ""))))
            if os:
                draw[opp] = os
        out.append(draw)
    return SampledModel(power, tuple(out))


class Judge:
    """Values of one power's complete order sets against an opponent model, cached:
    ``joint`` (every scenario), ``factorized`` (each opponent alone), each either
    ``"expected"`` (weighted mean) or ``"worst"`` (paranoid min)."""

    def __init__(self, position: Position, power: str, evaluate: Evaluation,
                 model: Opponents, *,
                 background: Mapping[str, Sequence[Order]] | None = None,
                 deadline: Deadline | None = None) -> None:
        self.position, self.power, self.evaluate, self.model = position, power, evaluate, model
        self.background = {p: tuple(os) for p, os in (background or {}).items() if p != power}
        self.deadline = deadline if deadline is not None else Deadline(math.inf)
        self.cache: dict[tuple, float] = {}
        self.evaluations = 0
        self._scenarios: list[tuple[float, dict[str, tuple[Order, ...]]]] | None = None

    def outcome(self, ours: tuple[Order, ...], others: Mapping[str, tuple[Order, ...]]) -> float:
        key = (ours, tuple(sorted(others.items())))
        v = self.cache.get(key)
        if v is None:
            orders: dict[str, Sequence[Order]] = dict(self.background)
            orders.update(others)
            orders[self.power] = ours
            v = self.cache[key] = self.evaluate(adjudicate(self.position, orders).next, self.power)
            self.evaluations += 1
        return v

    def factorized(self, ours: tuple[Order, ...], how: str = "expected") -> float | None:
        """Victorybot's factorized score: the value with everyone holding, plus for each
        opponent alone its (mean or worst) effect on it; None past the deadline."""
        base = self.outcome(ours, {})
        total = base
        for opp, cands in self.model.candidates.items():
            vals = []
            for os, w in cands:
                if self.deadline.expired():
                    return None
                vals.append((self.outcome(ours, {opp: os}), w))
            agg = min(v for v, _ in vals) if how == "worst" else sum(v * w for v, w in vals)
            total += agg - base
        return total

    def joint(self, ours: tuple[Order, ...], how: str = "expected") -> float | None:
        """The (mean or worst) value over every combination of the opponents'
        candidates (at most `MAX_SCENARIOS` of them, see `OpponentModel.scenarios`);
        None past the deadline."""
        if self._scenarios is None:
            self._scenarios = self.model.scenarios(MAX_SCENARIOS)
        vals = []
        for w, others in self._scenarios:
            if self.deadline.expired():
                return None
            vals.append((self.outcome(ours, others), w))
        if not vals:
            return self.outcome(ours, {})
        return min(v for v, _ in vals) if how == "worst" else sum(v * w for v, w in vals)

    def test(self, how: str) -> Callable[[tuple[Order, ...]], float | None]:
        """The test an agenda search applies to a complete set: joint when the model is
        small (at most `MAX_JOINT` scenarios), factorized otherwise."""
        if self.model.joint_size <= MAX_JOINT:
            return lambda ours: self.joint(ours, how)
        return lambda ours: self.factorized(ours, how)
