"""A policy over each unit's legal orders, fitted to the orders a table has played.

A seat that does not know who sits across the table can still watch them: every order
is public once a phase is adjudicated.  This is the model such a seat fits — what a
player learns of the others in the course of a game, from the game itself, not from
knowing their program:

*features*
    each legal order of a unit is described by a few generic facts (`FEATURES`): its
    kind; whether its province of interest (where it moves, holds or supports) is a
    supply center and whose, a home center, occupied and by whom; how many foreign and
    own units can reach it; how much nearer it brings the unit to centers it does not
    own (the sum of ``2 ** -distance`` over neutral and over others' centers, and over
    its own threatened centers); whose it is: the size (centers) of the power that owns
    or holds it, whether that power leads, the size of the largest power threatening it
    when it is the power's own center, and the same sums of ``2 ** -distance`` weighted
    by those sizes (players attack the leader and guard against the strongest); and how
    it fits the *other* orders of the same power (a support of an order that unit gives,
    or of one it does not; a move into a province another own unit moves to or stays
    in; a move or hold that an own unit supports).  Every feature that does not depend
    on the other orders has a Fall copy, so that the weights may differ when centers
    change hands.  How well this predicts (a unit's order given its power's others, on
    a DumbBot game after fitting on others): a mean log-probability of −0.79 (the most
    likely order is the one played 67% of the time), against −0.96 (58%) for the
    features without sizes and seasons and −3.0 for a uniform guess.
*the policy*
    a unit's order is drawn with probability ``exp(w . f)`` over its legal orders (a
    conditional logit, McFadden 1974), given the other orders of its power.
*fitting*
    the weights ``w`` maximise the pseudo-likelihood (Besag 1975) of the orders seen —
    each unit's order given the other orders of its power — with an L2 penalty, by Adam
    on the whole batch (numpy).  Pooled over the powers observed.
*the prior*
    a seat that has seen one phase knows little, and weights fitted to a score of orders
    from nothing (the penalty pulling them toward zero: every legal order alike) predict
    the next phase badly.  A `PolicyLearner` may start from a prior policy instead and
    be pulled toward it (`PRIOR_L2`): the package's `default_prior`, fitted to dipsolve's
    own learned seats playing each other (no other bot's games).  Watching DumbBot games
    as a seat does (`benchmarks/prediction.py --early`, 8 games to 1906), it lifts the
    mean log-probability of the next phase's orders in Fall 1901 from −2.34 to −1.23, in
    1902 from −1.53 and −1.85 to −1.31 and −1.28, and over the whole games from −1.14 to
    −0.98; from 1903 on the two are level, the game's own orders having taken over.
    A prior fitted to games people played instead (`data/build_policy_prior.py
    --records`: Meta's 40 published Cicero games) predicts Fall 1901 better still
    (−0.91) but plays level against DumbBot and leaves self-play less balanced, so it is
    not the package's (docs/history/2026-11-28-issue-24.md, "A prior fitted to games
    people played").
*drawing*
    the units in a random order, each given the orders drawn so far, then one Gibbs
    sweep (each unit again, given all the others).

Nothing here is any bot's logic: the same features describe a person's orders, a
search's or DumbBot's, and the weights say which of them the table's orders follow.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np
from threadpoolctl import ThreadpoolController

from ..core.errors import DipsolveSyntaxError
from ..core.graph import reachable_provinces, steps
from ..core.legal import backs, legal_orders
from ..core.map import Map
from ..core.orders import Hold, Move, Order, SupportHold, SupportMove
from ..core.position import Position, Unit
from ..core.results import Deadline

#: the facts each legal order is described by (the weights' order)
FEATURES: tuple[str, ...] = (
    # the order's kind
    "hold", "move", "convoyed_move", "support_hold", "support_move", "convoy",
    # its province of interest: a center and whose, a home, who stands there, who reaches it
    "center", "center_own", "center_other", "center_neutral", "home_own", "home_other",
    "occupied_own", "occupied_foreign", "threat", "reach_own", "fall_gain",
    # supports: whose unit, against whom
    "support_own", "support_foreign", "support_attack",
    # holding a threatened center of its own, or leaving one
    "hold_threatened_center", "leave_threatened_center",
    # a move: to sea, nearer the centers it does not own, where another own unit can go
    "to_sea", "nearer", "contested_by_own",
    "attract_neutral", "attract_other", "defend_own",
    # how it fits the power's other orders (`_fit`)
    "held_supported", "support_given", "support_void", "collides_own", "move_supported",
    # whose: the size of the power owning or holding the province of interest, the leader's
    "target_size", "target_leader", "threat_size", "attract_size", "defend_size", "target_size2",
)

#: the features that depend on the power's other orders (`_fit`)
_CONTEXT_NAMES = ("held_supported", "support_given", "support_void", "collides_own", "move_supported")
#: every other feature has a Fall copy (the same value in Fall, 0 in Spring): a table may
#: play differently when centers change hands
_SEASONAL = tuple(n for n in FEATURES if n not in _CONTEXT_NAMES + ("fall_gain",))
FEATURES = FEATURES + tuple(n + "_fall" for n in _SEASONAL)
_IX = {name: i for i, name in enumerate(FEATURES)}
#: (feature, its Fall copy) by index
_FALL_COPIES = tuple((_IX[n], _IX[n + "_fall"]) for n in _SEASONAL)
_CONTEXT = np.array([_IX[n] for n in _CONTEXT_NAMES])
#: L2 penalty of the fit (per observation's share), Adam's step and iterations
L2 = 0.1
#: the penalty of a fit that starts from a prior (`PolicyLearner`'s ``prior``), pulling it
#: toward the prior rather than toward zero: a stronger pull, as the prior says more than
#: the uniform guess that zero weights are (chosen on `benchmarks/prediction.py --early`)
PRIOR_L2 = 1.0
STEP = 0.15
ITERATIONS = 80
#: Gibbs sweeps after the first pass of a draw
SWEEPS = 1


def _all_steps(game_map: Map) -> dict[str, dict[str, int]]:
    got = game_map.memo.get("order_policy.steps")
    if got is None:
        got = game_map.memo["order_policy.steps"] = {p: steps(game_map, [p]) for p in game_map.provinces}
    return got


def _pulls(game_map: Map) -> tuple[np.ndarray, dict[str, int]]:
    """The matrix of 2 ** -distance from every province (rows, in the map's order) to every
    supply center (columns; a center out of reach counts as 9 steps away), and each
    center's column: a field over the centers is one product with it (`_Board`)."""
    got = game_map.memo.get("order_policy.pulls")
    if got is None:
        far = _all_steps(game_map)
        cs = sorted(game_map.centers)
        mat = np.array([[0.5 ** far[d].get(c, 9) for c in cs] for d in game_map.provinces])
        got = game_map.memo["order_policy.pulls"] = (mat, {c: i for i, c in enumerate(cs)})
    return got


class _Board:
    """One power's view of a position: what every order's features are read from."""

    def __init__(self, position: Position, power: str) -> None:
        m = self.map = position.map
        self.power = power
        self.province_of = m.province_of
        self.owner = position.owner
        self.unit_in = position.unit_in
        self.fall = position.phase.season == "Fall"
        #: centers per power, and the largest other power's
        self.size = Counter(self.owner.values())
        self.leader_size = max((n for q, n in self.size.items() if q != power), default=0)
        self.threat: dict[str, int] = {}
        #: province -> the size of the largest foreign power with a unit that reaches it
        self.threat_by: dict[str, int] = {}
        self.reach_own: dict[str, int] = {}
        for u in position.units:
            mine = u.power == power
            table = self.reach_own if mine else self.threat
            for p in reachable_provinces(m, u):
                table[p] = table.get(p, 0) + 1
                if not mine:
                    self.threat_by[p] = max(self.threat_by.get(p, 0), self.size[u.power])
        targets = [c for c in m.centers if self.owner.get(c) != power]
        self.dist = steps(m, targets) if targets else {}
        self.homes = m.homes.get(power, frozenset())
        neutral = [c for c in m.centers if c not in self.owner]
        other = [c for c in m.centers if self.owner.get(c) not in (None, power)]
        threatened = [c for c in m.centers if self.owner.get(c) == power and self.threat.get(c)]

        pull, column = _pulls(m)

        def field_of(weights: Mapping[str, float]) -> dict[str, float]:
            """Province -> the sum over ``weights``' centers of weight × 2 ** -distance."""
            w = np.zeros(len(column))
            for c, x in weights.items():
                w[column[c]] += x
            return dict(zip(m.provinces, (pull @ w).tolist()))
        self.attract_neutral = field_of(dict.fromkeys(neutral, 1.0))
        self.attract_other = field_of(dict.fromkeys(other, 1.0))
        self.defend = field_of(dict.fromkeys(threatened, 1.0))
        # the same, weighted by the size of the owner (others' centers) or of the strongest
        # threat (own threatened centers)
        self.attract_size = field_of({c: self.size[self.owner[c]] / 10 for c in other})
        self.defend_size = field_of({c: self.threat_by.get(c, 0) / 10 for c in threatened})

    def features(self, unit: Unit, order: Order) -> list[float]:
        f = [0.0] * len(FEATURES)
        po = self.province_of
        here = po[unit.location]
        if isinstance(order, Hold):
            f[_IX["hold"]] = 1
            d = here
        elif isinstance(order, Move):
            f[_IX["convoyed_move" if order.via_convoy else "move"]] = 1
            d = po[order.target]
        elif isinstance(order, SupportHold):
            f[_IX["support_hold"]] = 1
            d = po[order.supported_location]
        elif isinstance(order, SupportMove):
            f[_IX["support_move"]] = 1
            d = po[order.target]
        else:
            f[_IX["convoy"]] = 1
            d = po[getattr(order, "target", unit.location)]
        m = self.map
        owner = self.owner.get(d)
        if d in m.centers:
            f[_IX["center"]] = 1
            f[_IX["center_own" if owner == self.power else
                  "center_neutral" if owner is None else "center_other"]] = 1
            if self.fall and owner != self.power:
                f[_IX["fall_gain"]] = 1
        if d in self.homes:
            f[_IX["home_own"]] = 1
        elif m.provinces[d].home:
            f[_IX["home_other"]] = 1
        there = self.unit_in.get(d)
        if there is not None and d != here:
            f[_IX["occupied_own" if there.power == self.power else "occupied_foreign"]] = 1
        f[_IX["threat"]] = min(self.threat.get(d, 0), 4) / 2
        whose = there.power if there is not None and there.power != self.power else (
            owner if owner is not None and owner != self.power else None)
        if whose is not None and not isinstance(order, SupportHold):
            size = self.size[whose]
            f[_IX["target_size"]] = size / 10
            f[_IX["target_size2"]] = (size / 10) ** 2
            if size >= self.leader_size > 0:
                f[_IX["target_leader"]] = 1
        if owner == self.power and d in m.centers:
            f[_IX["threat_size"]] = self.threat_by.get(d, 0) / 10
        f[_IX["reach_own"]] = min(self.reach_own.get(d, 0), 4) / 2
        if isinstance(order, (SupportHold, SupportMove)):
            backed = self.unit_in.get(po[order.supported_location])
            f[_IX["support_own" if backed is not None and backed.power == self.power
                  else "support_foreign"]] = 1
            if isinstance(order, SupportMove) and there is not None and there.power != self.power:
                f[_IX["support_attack"]] = 1
        mine_threatened = (here in m.centers and self.owner.get(here) == self.power
                           and self.threat.get(here, 0) > 0)
        if isinstance(order, Hold) and mine_threatened:
            f[_IX["hold_threatened_center"]] = 1
        if isinstance(order, Move):
            if mine_threatened:
                f[_IX["leave_threatened_center"]] = 1
            if m.terrain.get(d) == "sea":
                f[_IX["to_sea"]] = 1
            if self.dist:
                gain = self.dist.get(here, 9) - self.dist.get(d, 9)
                f[_IX["nearer"]] = gain
            if self.reach_own.get(d, 0) > 1:
                f[_IX["contested_by_own"]] = 1
            f[_IX["attract_neutral"]] = self.attract_neutral[d] - self.attract_neutral[here]
            f[_IX["attract_other"]] = self.attract_other[d] - self.attract_other[here]
            f[_IX["defend_own"]] = self.defend[d] - self.defend[here]
            f[_IX["attract_size"]] = self.attract_size[d] - self.attract_size[here]
            f[_IX["defend_size"]] = self.defend_size[d] - self.defend_size[here]
        if self.fall:
            for a, b in _FALL_COPIES:
                f[b] = f[a]
        return f

    def context(self, unit: Unit, order: Order, others: Mapping[str, Order]) -> list[float]:
        """The features of ``order`` that depend on the power's ``others`` orders
        (location -> order), in `_CONTEXT`'s order."""
        po = self.province_of
        held = given = void = collides = backed = 0.0
        if isinstance(order, (SupportHold, SupportMove)):
            other = others.get(order.supported_location)
            if other is not None:
                if backs(order, other, po):
                    given = 1.0
                else:
                    void = 1.0
        elif isinstance(order, Move):
            d = po[order.target]
            for loc, o in others.items():
                if (po[o.target] if isinstance(o, Move) else po[loc]) == d:
                    collides = 1.0
                if (isinstance(o, SupportMove) and o.supported_location == unit.location
                        and po[o.target] == d):
                    backed = 1.0
        else:
            held = float(any(isinstance(o, SupportHold) and o.supported_location == unit.location
                             for o in others.values()))
        return [held, given, void, collides, backed]


def _unit_rows(position: Position, power: str) -> tuple[_Board, list[tuple[Unit, list[Order], np.ndarray]]]:
    """The power's board and, per unit, its legal orders and their features with the
    context features left at 0 (kept on the position: it never changes)."""
    key = ("order_policy.rows", power)
    got = position.memo.get(key)
    if got is None:
        board = _Board(position, power)
        rows = []
        for u in position.units_of(power):
            orders = legal_orders(position, u)
            rows.append((u, orders, np.array([board.features(u, o) for o in orders])))
        got = position.memo[key] = (board, rows)
    return got


def _index(legal: list[Order], order: Order) -> int | None:
    """Where ``order`` is among a unit's ``legal`` orders (by value, else by its text:
    a convoyed move read from elsewhere may carry no route); None if it is not there."""
    try:
        return legal.index(order)
    except ValueError:
        text = str(order)
        return next((i for i, o in enumerate(legal) if str(o) == text), None)


def _orders_by_location(orders: Iterable[Order]) -> dict[str, Order]:
    out: dict[str, Order] = {}
    for o in orders:
        loc = getattr(o, "location", None)
        if loc is not None:
            out[loc] = o
    return out


@dataclass(frozen=True)
class OrderPolicy:
    """Each unit's orders drawn by the conditional logit of `FEATURES` with these
    ``weights`` (all zero: every legal order alike).  Call it as a predictor,
    ``policy(position, power, rng)``, as ``dipsolve.strategy.Sampled(predictor=...)`` takes one."""

    weights: tuple[float, ...] = field(default=(0.0,) * len(FEATURES))

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES) or not all(math.isfinite(w) for w in self.weights):
            raise DipsolveSyntaxError(f"an order policy takes {len(FEATURES)} finite weights, "
                                      f"one per feature, not {self.weights!r}"[:300])

    @property
    def _w(self) -> np.ndarray:
        return np.asarray(self.weights)

    def named_weights(self) -> dict[str, float]:
        """Feature -> weight."""
        return dict(zip(FEATURES, self.weights))

    def _probabilities(self, board: _Board, unit: Unit, orders: list[Order], base: np.ndarray,
                       others: Mapping[str, Order]) -> np.ndarray:
        w = self._w
        z = base @ w
        if others:
            z = z + np.array([board.context(unit, o, others) for o in orders]) @ w[_CONTEXT]
        z = np.exp(z - z.max())
        return z / z.sum()

    def draw(self, position: Position, power: str, rng: random.Random,
             forbid: Callable[[Unit, Order], bool] | None = None) -> list[Order]:
        """One order for each of ``power``'s units (movement phases), drawn with ``rng``;
        with ``forbid``, a unit's orders it forbids are never drawn (the policy
        conditioned on the others), unless it forbids every order of the unit."""
        board, rows = _unit_rows(position, power)
        masks = [None if forbid is None else _allowed(unit, orders, forbid) for unit, orders, _ in rows]
        chosen: dict[str, Order] = {}
        turn = list(range(len(rows)))
        rng.shuffle(turn)
        for _ in range(1 + SWEEPS):
            for k in turn:
                unit, orders, base = rows[k]
                others = {loc: o for loc, o in chosen.items() if loc != unit.location}
                p = self._probabilities(board, unit, orders, base, others)
                if masks[k] is not None:
                    p = p * masks[k]
                i = int(np.searchsorted(np.cumsum(p), rng.random() * p.sum()))
                chosen[unit.location] = orders[min(i, len(orders) - 1)]
        return [chosen[u.location] for u, _, _ in rows]

    __call__ = draw

    def log_probability(self, position: Position, power: str, orders: Iterable[Order]) -> float:
        """The pseudo-log-likelihood of ``orders`` (some of ``power``'s): each unit's order
        given the others; an order that is not legal counts as probability 1e-6."""
        board, rows = _unit_rows(position, power)
        mine = _orders_by_location(orders)
        total = 0.0
        for unit, legal, base in rows:
            o = mine.get(unit.location)
            if o is None:
                continue
            others = {loc: x for loc, x in mine.items() if loc != unit.location}
            p = self._probabilities(board, unit, legal, base, others)
            i = _index(legal, o)
            total += math.log(max(float(p[i]), 1e-6) if i is not None else 1e-6)
        return total


def _allowed(unit: Unit, orders: list[Order], forbid: Callable[[Unit, Order], bool]) -> np.ndarray | None:
    """1 for each order ``forbid`` allows, 0 for the others (None: it allows all, or none)."""
    mask = np.array([0.0 if forbid(unit, o) else 1.0 for o in orders])
    return None if mask.all() or not mask.any() else mask


#: what a power's agreements forbid it: ``(position, unit, order) -> True`` for an order
#: of the unit that would break one (`dipsolve.agreements.checks.breaks`)
Forbids = Callable[[Position, Unit, Order], bool]


@dataclass(frozen=True)
class Restrained(OrderPolicy):
    """The policy (its ``weights``) conditioned on what the powers agreed: for a power
    in ``restraints`` (power -> (probability, forbids)), with that probability (the
    power's trust: `dipsolve.agreements.Trust`) a draw of its orders keeps its word (no
    order ``forbids`` refuses is drawn), and otherwise is the plain policy's."""

    restraints: Mapping[str, tuple[float, Forbids]] = field(default_factory=dict, compare=False)

    def draw(self, position: Position, power: str, rng: random.Random,
             forbid: Callable[[Unit, Order], bool] | None = None) -> list[Order]:
        restraint = self.restraints.get(power)
        if restraint is not None and forbid is None:
            probability, forbids = restraint
            if rng.random() < probability:
                def forbid(unit: Unit, order: Order) -> bool:
                    return forbids(position, unit, order)
        return super().draw(position, power, rng, forbid)

    __call__ = draw


def read_policy(text: str, filename: str = "<string>") -> OrderPolicy:
    """An `OrderPolicy` from its weights file: one ``FEATURE WEIGHT`` a line (a tab or
    spaces between), every feature of `FEATURES` exactly once, ``#`` comments and blank
    lines ignored.  `write_policy` writes one."""
    weights: dict[str, float] = {}
    for n, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        fields = line.split()
        column = len(line) - len(line.lstrip()) + 1
        shown = line.strip()[:60].encode("unicode_escape").decode("ascii")
        if len(fields) != 2:
            raise DipsolveSyntaxError(f"expected 'FEATURE WEIGHT', found {shown!r}",
                                      filename=filename, line=n, column=column)
        name, value = fields
        if name not in _IX:
            raise DipsolveSyntaxError(f"unknown feature {name[:60]!r} (expected one of the "
                                      f"{len(FEATURES)} of dipsolve.algorithms.order_policy.FEATURES)",
                                      filename=filename, line=n, column=column)
        if name in weights:
            raise DipsolveSyntaxError(f"feature {name!r} given twice", filename=filename,
                                      line=n, column=column)
        try:
            weight = float(value)
        except ValueError:
            weight = math.nan
        if not math.isfinite(weight) or abs(weight) > 1e6:
            raise DipsolveSyntaxError(f"expected a finite weight (at most 1e6 either way) for "
                                      f"{name!r}, found {value[:40]!r}", filename=filename,
                                      line=n, column=line.index(value, column - 1 + len(name)) + 1)
        weights[name] = weight
    missing = [f for f in FEATURES if f not in weights]
    if missing:
        raise DipsolveSyntaxError(f"no weight for {len(missing)} feature(s): {', '.join(missing[:5])}"
                                  f"{', ...' if len(missing) > 5 else ''}", filename=filename)
    return OrderPolicy(tuple(weights[f] for f in FEATURES))


def write_policy(policy: OrderPolicy, header: str = "") -> str:
    """The text of ``policy``'s weights file (`read_policy`), ``header`` as its comment."""
    lines = [f"# {h}".rstrip() for h in header.splitlines()]
    lines += [f"{name}\t{weight:.6g}" for name, weight in zip(FEATURES, policy.weights)]
    return "\n".join(lines) + "\n"


@cache
def default_prior() -> OrderPolicy:
    """The policy a learned seat starts from and is pulled toward (`PolicyLearner`'s
    ``prior``): the package's ``data/policy_prior.tsv``, fitted to the orders of
    dipsolve's own learned seats playing each other (no other bot's games; how it was
    made is written at the head of the file and in ``data/build_policy_prior.py``)."""
    data = resources.files("dipsolve") / "data" / "policy_prior.tsv"
    return read_policy(data.read_text(encoding="utf-8"), "policy_prior.tsv")


@cache
def _blas() -> ThreadpoolController:
    """The process's thread pools (found once: looking them up takes about 20 ms)."""
    return ThreadpoolController()


class PolicyLearner:
    """The orders seen, unit by unit, and the `OrderPolicy` fitted to them.

    ``observe`` a movement phase's position and orders (for the powers to learn from);
    ``fit`` the policy, warm-started from the last fit."""

    def __init__(self, l2: float | None = None, prior: OrderPolicy | None = None) -> None:
        #: the policy before anything is observed, and what the fit is pulled toward
        #: (zero weights: every legal order alike); ``l2`` by default `L2` without a
        #: prior, `PRIOR_L2` with one
        self.prior = prior or OrderPolicy()
        self.l2 = l2 if l2 is not None else (L2 if prior is None else PRIOR_L2)
        self._rows: list[np.ndarray] = []
        self._chosen: list[int] = []
        self._stack: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        self.policy = self.prior
        self.fits = 0

    @property
    def observed(self) -> int:
        """Units whose orders were recorded."""
        return len(self._rows)

    def observe(self, position: Position, orders: Mapping[str, Sequence[Order]],
                powers: Iterable[str]) -> int:
        """Record the orders ``powers`` gave in a movement ``position`` (a unit without an
        order held); returns how many units were recorded.  Orders that are not among
        the unit's legal ones are skipped (they teach nothing of the choice)."""
        if position.phase.kind != "movement":
            return 0
        before = self.observed
        for power in powers:
            if power not in position.map.powers and power not in position.powers():
                continue
            board, rows = _unit_rows(position, power)
            given = _orders_by_location(orders.get(power, ()))
            chosen = {u.location: given.get(u.location, Hold(u.kind, u.location)) for u, _, _ in rows}
            for unit, legal, base in rows:
                i = _index(legal, chosen[unit.location])
                if i is None:
                    continue
                others = {loc: x for loc, x in chosen.items() if loc != unit.location}
                f = base.copy()
                f[:, _CONTEXT] = np.array([board.context(unit, x, others) for x in legal])
                self._rows.append(f)
                self._chosen.append(i)
        self._stack = None
        return self.observed - before

    def _stacked(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        if self._stack is None:
            sizes = np.array([len(f) for f in self._rows])
            starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
            matrix = np.vstack(self._rows)
            chosen = matrix[starts + np.array(self._chosen)].sum(axis=0)
            self._stack = (matrix, starts, np.repeat(np.arange(len(sizes)), sizes), chosen)
        return self._stack

    def fit(self, iterations: int | None = None, deadline: Deadline | None = None) -> OrderPolicy:
        """The weights of greatest penalised pseudo-likelihood of what was observed,
        from the last fit's (``iterations`` of Adam: `ITERATIONS` the first time, a
        third of that after; fewer if ``deadline`` passes first, the weights reached
        so far kept: the next fit starts from them).

        On one BLAS thread: at these sizes (a few thousand rows of `FEATURES`)
        OpenBLAS's threads add CPU time and save none (a late-game fit: 0.15–0.4 s of
        CPU with two threads on a loaded machine, 0.05 s with one)."""
        if not self._rows:
            return self.policy
        n_iter = iterations if iterations is not None else (ITERATIONS if self.fits == 0 else ITERATIONS // 3)
        matrix, starts, segment, chosen = self._stacked()
        n = len(starts)
        w = np.asarray(self.policy.weights, dtype=float).copy()
        center = np.asarray(self.prior.weights, dtype=float)
        m1 = np.zeros_like(w)
        m2 = np.zeros_like(w)
        with _blas().limit(limits=1, user_api="blas"):
            for t in range(1, n_iter + 1):
                if deadline is not None and deadline.expired():
                    break
                z = matrix @ w
                z = np.exp(z - np.maximum.reduceat(z, starts)[segment])
                p = z / np.add.reduceat(z, starts)[segment]
                g = (chosen - p @ matrix) / n - self.l2 * (w - center) / n
                m1 = 0.9 * m1 + 0.1 * g
                m2 = 0.999 * m2 + 0.001 * g * g
                w += STEP * (m1 / (1 - 0.9 ** t)) / (np.sqrt(m2 / (1 - 0.999 ** t)) + 1e-8)
        self.fits += 1
        self.policy = OrderPolicy(tuple(float(x) for x in w))
        return self.policy

    def log_likelihood(self, policy: OrderPolicy | None = None) -> float:
        """The mean pseudo-log-likelihood per unit of what was observed under ``policy``
        (the fitted one by default): a measure of how predictable the table is."""
        if not self._rows:
            return 0.0
        matrix, starts, segment, chosen = self._stacked()
        w = np.asarray((policy or self.policy).weights)
        z = matrix @ w
        z = z - np.maximum.reduceat(z, starts)[segment]
        log_total = np.log(np.add.reduceat(np.exp(z), starts))
        picked = z[starts + np.array(self._chosen)]
        return float(np.mean(picked - log_total))

    def top_one(self, policy: OrderPolicy | None = None) -> float:
        """The share of the units observed whose most likely order under ``policy`` (the
        fitted one by default; of tied orders the first), given their power's other
        orders, is the one given."""
        if not self._rows:
            return 0.0
        matrix, starts, segment, _ = self._stacked()
        z = matrix @ np.asarray((policy or self.policy).weights)
        at_max = np.flatnonzero(z == np.maximum.reduceat(z, starts)[segment])
        _, first = np.unique(segment[at_max], return_index=True)
        return float(np.mean(at_max[first] == starts + np.array(self._chosen)))
