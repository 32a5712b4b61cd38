"""Equilibria of a winter adjustment phase, each with the certificate that proves it.

Loeb (seed ``003_…``) treats the builds and removals of the seven powers as a
simultaneous game: each power picks one legal adjustment order set
(`dipsolve.adjustments.iter_adjustments`); the payoff of a power is the value of the
position after all adjustments, from an evaluator (any ``Callable[[Position, str],
float]``; the CLI uses the influence evaluation of Hall & Loeb, seed ``002_…`` section
4.1).  This module answers the game three ways:

pure (`pure_equilibrium`)
    Loeb's combined search, "Possible improvements 1", steps 1–16: every power walks its
    list of order sets, first ordered by the preliminary search (the value of each set
    while the others skip their adjustments), takes any set better for it than the
    current one, and when a power changes its mind the others walk again the sets they
    had tried, best first.  When every list is exhausted no power can gain alone: a
    pure Nash equilibrium.  A profile seen twice is the "infinite loop" the seed warns
    of (a best-response cycle, detected with a hash set): that group of powers goes on
    to mixed strategies (its table when small enough; otherwise `double_oracle`,
    exact while at most two of its powers need to mix).
mixed (`mixed_equilibrium`)
    Two interacting powers: linear programming when their game is zero-sum (constant
    sum), otherwise support enumeration (Porter-Nudelman-Shoham order with dominance
    pruning, each support's indifference equations solved exactly; given a quarter of
    the time left) and, if it finds nothing, the mixed-integer program of Sandholm, Gilpin and Conitzer, *Mixed-integer programming
    methods for finding Nash equilibria* (AAAI 2005), formulation 1, solved by CBC
    through PuLP.  Three or more: an approximate Nash equilibrium (fictitious play and
    the correlated equilibrium's marginals), its epsilon certified by exact best responses.
correlated (`correlated_equilibrium`)
    A correlated equilibrium of each group by linear programming (GLOP), maximising the
    sum of the powers' expected values.

Structure first (`interaction_groups`): powers whose adjustments cannot change each
other's values are solved apart.  The analysis is that of an influence evaluation
(a unit controls its province; a vacant province goes to its nearest units): a unit a
power may build or remove can change who controls a province only if no unit present in
every profile is strictly nearer to it, and a power's value can depend on a province
only if one of its units can be among the nearest.  Distances are taken both by unit type
and over the plain adjacency graph, whichever is safer.

Every answer carries each power's largest gain from deviating alone (for a correlated
equilibrium: from any rule that maps the power's recommendation to another order set),
computed in the whole game by exact best responses over every order set of the power,
never by building the joint table: the cost is the sum of the powers' options times
the size of the others' supports.  With the plain influence evaluation the game values
a player's options many at a time (`_FastInfluence`, numpy; the same numbers up to
rounding): the search, the preliminary order and the certificate of Loeb's worst case
(24,310 Austrian removals) take seconds, not minutes.  ``status`` is ``optimal`` when every gain is at most
``tolerance`` (the answer is an equilibrium), ``feasible`` for an approximate one (its
epsilon is the largest gain), ``timed out`` when the time limit came first.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from dipsolve.adjustments import OrderSet, iter_adjustments
from dipsolve.orders import Build, Disband
from dipsolve.position import Phase, Position, Unit

Evaluator = Callable[[Position, str], float]
Profile = tuple[int, ...]

KINDS = ("pure", "mixed", "correlated")
TOLERANCE = 1e-6
#: most joint profiles of one group whose payoff table may be built (mixed, correlated)
TABLE_LIMIT = 40_000
#: most payoff evaluations a certificate may spend before it reports itself partial
CERTIFICATE_LIMIT = 2_000_000
#: most coefficients of a correlated-equilibrium LP (profiles x the sum of the options)
CORRELATED_LIMIT = 2_000_000
#: options of one player the combined search values together (vectorised influence)
PREFETCH = 512


class TimeUp(Exception):
    """The deadline passed (internal: caught where the best answer so far is returned)."""


# -- the game ---------------------------------------------------------------------------------

class AdjustmentGame:
    """The simultaneous game of one adjustment phase.

    ``players`` are the powers with two or more legal order sets; a power with one (no
    adjustment, no free home center, or removing every unit) plays it.  A profile is a
    tuple of option indices, one per player.  Payoffs are cached per (profile, player):
    the evaluator is the expensive part and every algorithm here revisits profiles.
    """

    def __init__(self, position: Position, evaluator: Evaluator, waives: bool = True):
        self.position = position
        self.evaluator = evaluator
        self.waives = waives
        options: dict[str, tuple[OrderSet, ...]] = {
            p: tuple(iter_adjustments(position, p, waives)) for p in position.powers()}
        self.players: tuple[str, ...] = tuple(p for p, os in options.items() if len(os) > 1)
        self.fixed: dict[str, OrderSet] = {p: os[0] for p, os in options.items() if len(os) == 1}
        self.options: tuple[tuple[OrderSet, ...], ...] = tuple(options[p] for p in self.players)
        po = position.map.province_of
        # each option as (units it removes, units it builds): applying a profile is a set
        # difference and a concatenation, the same result as the adjudicator's
        self._effects = tuple(tuple(_effect(p, os, po) for os in opts)
                              for p, opts in zip(self.players, self.options))
        fixed_removed: set[tuple[str, str]] = set()
        self._fixed_built: list[Unit] = []
        for p, os in self.fixed.items():
            removed, built = _effect(p, os, po)
            fixed_removed |= removed
            self._fixed_built += built
        self._base = [u for u in position.units if (u.kind, u.location) not in fixed_removed]
        self._next_phase = Phase("Spring", position.phase.year + 1, "movement")
        self._payoff: dict[tuple[Profile, int], float] = {}
        #: the last positions built: the evaluator keeps its per-position tables (the
        #: influence evaluation's control table) in them, shared by every power
        self._positions: dict[Profile, Position] = {}
        self.evaluations = 0
        #: the plain influence evaluation, vectorised over many profiles at once
        #: (`_FastInfluence`); None for any other evaluator
        self._fast: _FastInfluence | None = None
        from dipsolve.evaluation import influence
        if evaluator is influence and self.players:
            self._fast = _FastInfluence(self)
        #: called now and then with (evaluations, what is being done), for a progress bar
        self.progress: Callable[[int, str], None] | None = None
        self.stage = ""

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(len(o) for o in self.options)

    @property
    def joint_profiles(self) -> int:
        return math.prod(self.sizes)

    def orders(self, profile: Profile) -> dict[str, OrderSet]:
        """The orders of every power in a profile (the fixed powers' too)."""
        out = dict(self.fixed)
        for i, a in enumerate(profile):
            out[self.players[i]] = self.options[i][a]
        return {p: out[p] for p in self.position.powers() if p in out}

    def position_after(self, profile: Profile) -> Position:
        removed: set[tuple[str, str]] = set()
        built = list(self._fixed_built)
        for i, a in enumerate(profile):
            r, b = self._effects[i][a]
            removed |= r
            built += b
        units = [u for u in self._base if (u.kind, u.location) not in removed] + built
        return Position.build(self._next_phase, units, self.position.centers,
                              game_map=self.position.map)

    def payoff(self, profile: Profile, i: int) -> float:
        """Player ``i``'s value of the position after ``profile``."""
        key = (profile, i)
        v = self._payoff.get(key)
        if v is None:
            pos = self._positions.get(profile)
            if pos is None:
                if len(self._positions) >= 4096:
                    self._positions.clear()
                pos = self._positions[profile] = self.position_after(profile)
            v = float(self.evaluator(pos, self.players[i]))
            self.evaluations += 1
            if self.progress is not None and self.evaluations % 500 == 0:
                self.progress(self.evaluations, self.stage)
            self._payoff[key] = v
        return v

    def prefetch(self, profile: Profile, i: int, options: Sequence[int]) -> None:
        """Player ``i``'s values of ``options`` against the others' choices in
        ``profile``, computed together (vectorised, with the plain influence evaluation)
        into the cache `payoff` reads; a no-op for other evaluators."""
        if self._fast is None:
            return
        head, tail = profile[:i], profile[i + 1:]
        todo = [a for a in dict.fromkeys(options) if (head + (a,) + tail, i) not in self._payoff]
        if not todo:
            return
        vals = self._fast.row(profile, i, todo)
        for a, v in zip(todo, vals):
            self._payoff[(head + (a,) + tail, i)] = float(v)
        self.evaluations += len(todo)
        if self.progress is not None:
            self.progress(self.evaluations, self.stage)

    def skip_values(self, i: int) -> list[float]:
        """`skip_value` of every option of player ``i``."""
        if self._fast is not None:
            vals = self._fast.row(None, i, range(len(self.options[i])))
            self.evaluations += len(vals)
            return [float(v) for v in vals]
        return [self.skip_value(i, a) for a in range(len(self.options[i]))]

    def skip_value(self, i: int, a: int) -> float:
        """Player ``i``'s value when it plays ``a`` and every other power skips its
        adjustment (the seed's preliminary search; a hypothetical position)."""
        r, b = self._effects[i][a]
        units = [u for u in self.position.units if (u.kind, u.location) not in r] + list(b)
        pos = Position.build(self._next_phase, units, self.position.centers, game_map=self.position.map)
        self.evaluations += 1
        return float(self.evaluator(pos, self.players[i]))


class _FastInfluence:
    """The influence evaluation (`dipsolve.evaluation.influence` with its defaults) of
    many profiles at once, with numpy: the same model, not an approximation.

    Every unit that can stand on the board after some profile gets a row of distances
    (`dipsolve.evaluation.distances`); a profile is a mask of the units present; an
    occupied province belongs to its occupant, an empty one is shared by the present
    units nearest to it (one share each; unreachable: nobody's); then the power's
    province values, +100 per owned center and +50 per center it occupies but does
    not own while ownership is open.  The values agree with the evaluator's up to the
    order of the floating-point sums (about 1e-13); `_Solver._answer` checks the
    answer's values (over the product of its supports) against the evaluator itself.
    """

    CHUNK = 1024

    def __init__(self, game: AdjustmentGame):
        from dipsolve.evaluation import (_ownership_open, distances, owned_centers,
                                         values_for)
        pos = game.position
        m = pos.map
        po = m.province_of
        provs = sorted(m.provinces)
        index = {p: k for k, p in enumerate(provs)}
        units: list[Unit] = list(dict.fromkeys(
            list(pos.units) + list(game._fixed_built)
            + [u for eff in game._effects for _, built in eff for u in built]))
        col = {u: k for k, u in enumerate(units)}
        self.far = far = np.int32(1 << 20)
        dist = np.full((len(units), len(provs)), far, dtype=np.int32)
        for k, u in enumerate(units):
            for p, d in distances(m, u.kind, u.location).items():
                dist[k, index[p]] = d
        self.dist = dist
        powers = sorted({u.power for u in units} | set(game.players))
        self.power_of = np.array([powers.index(u.power) for u in units])
        self.province = np.array([index[po[u.location]] for u in units])
        self.powers = powers
        sample = game.position_after(tuple(0 for _ in game.players))
        owners = owned_centers(sample)
        open_ = _ownership_open(sample)
        self.vals = {}
        self.const = {}
        self.bonus = {}
        for p in game.players:
            v = values_for(p, m, None)
            self.vals[p] = np.array([v[q] for q in provs])
            self.const[p] = 100.0 * sum(1 for o in owners.values() if o == p)
            self.bonus[p] = np.array([50.0 if open_ and q in m.centers and owners.get(q) != p
                                      else 0.0 for q in provs])
        # the game's masks: its base, every option's removals and builds
        self.base = np.zeros(len(units), bool)
        for u in list(game._base) + list(game._fixed_built):
            self.base[col[u]] = True
        self.skip_base = np.zeros(len(units), bool)
        for u in pos.units:
            self.skip_base[col[u]] = True
        self.removes: list[np.ndarray] = []
        self.adds: list[np.ndarray] = []
        for i, p in enumerate(game.players):
            mine = [u for u in pos.units if u.power == p]
            rem = np.zeros((len(game.options[i]), len(units)), bool)
            add = np.zeros((len(game.options[i]), len(units)), bool)
            for a, (removed, built) in enumerate(game._effects[i]):
                for u in mine:
                    if (u.kind, u.location) in removed:
                        rem[a, col[u]] = True
                for u in built:
                    add[a, col[u]] = True
            self.removes.append(rem)
            self.adds.append(add)
        self.players = game.players

    def row(self, profile: Profile | None, i: int, options: Sequence[int]) -> np.ndarray:
        """Player ``i``'s values of ``options``, the others playing ``profile`` (None:
        the others skip their adjustments, as in `AdjustmentGame.skip_value`)."""
        if profile is None:
            mask = self.skip_base
        else:
            mask = self.base.copy()
            for j, a in enumerate(profile):
                if j != i:
                    mask &= ~self.removes[j][a]
                    mask |= self.adds[j][a]
        opts = np.asarray(list(options), dtype=np.int64)
        out = np.empty(len(opts))
        for s in range(0, len(opts), self.CHUNK):
            part = opts[s:s + self.CHUNK]
            masks = (mask[None, :] & ~self.removes[i][part]) | self.adds[i][part]
            out[s:s + len(part)] = self.value(masks, self.players[i])
        return out

    def value(self, masks: np.ndarray, power: str) -> np.ndarray:
        """The power's value of each position given by a row of ``masks``."""
        me = self.power_of == self.powers.index(power)
        d = np.where(masks[:, :, None], self.dist[None, :, :], self.far)     # R x U x P
        nearest = d.min(axis=1)                                              # R x P
        near = (d == nearest[:, None, :]) & (nearest < self.far)[:, None, :]
        count = near.sum(axis=1)
        mine = near[:, me, :].sum(axis=1)
        share = np.where(count > 0, mine / np.maximum(count, 1), 0.0)
        occupied = np.zeros(share.shape, bool)
        occupied_mine = np.zeros(share.shape, bool)
        r, k = np.nonzero(masks)
        occupied[r, self.province[k]] = True
        sel = me[k]
        occupied_mine[r[sel], self.province[k[sel]]] = True
        share = np.where(occupied, occupied_mine.astype(float), share)
        return share @ self.vals[power] + occupied_mine @ self.bonus[power] + self.const[power]


def _effect(power: str, orders: OrderSet, province_of: dict[str, str]
            ) -> tuple[frozenset[tuple[str, str]], tuple[Unit, ...]]:
    removed = frozenset((o.kind, o.location) for o in orders if isinstance(o, Disband))
    built = tuple(Unit(power, o.kind, province_of[o.location] if o.kind == "A" else o.location)
                  for o in orders if isinstance(o, Build))
    return removed, built


# -- structure: which powers interact ------------------------------------------------------------

def interaction_links(game: AdjustmentGame) -> dict[tuple[int, int], frozenset[str]]:
    """For each pair of players ``(i, j)`` that interact, the provinces through which
    ``j``'s adjustments can change ``i``'s value (see `interaction_groups`).

    The reasoning of the influence evaluation (Hall & Loeb 4.1): a unit controls its
    province; an empty province is shared by the units nearest to it, each unit's
    distance counted by its own type (`dipsolve.evaluation.distances`).  A unit that is
    on the board in every profile is *fixed*; the others (units a removing power may
    remove, units a building power may build) are *variable*.  For each province the
    nearest fixed unit bounds how far a unit that matters there can be: a variable unit
    *touches* a province it stands in or is no farther from than that bound.  A player
    *reads* a province if one of its units, possible builds or owned home centers (which
    exert control under the seed's 4.3.2 refinement) is that near.  Two players interact
    when one touches a province the other reads.  For an evaluator that reasons
    otherwise the groups may be wrong; the certificate of `solve_equilibrium` is computed
    in the whole game and catches it.
    """
    from dipsolve.evaluation import distances
    m = game.position.map
    po = m.province_of
    n = len(game.players)
    variable: list[set[Unit]] = [set() for _ in range(n)]
    for i, effects in enumerate(game._effects):
        for removed, built in effects:
            variable[i].update(built)
            variable[i].update(u for u in game.position.units
                               if u.power == game.players[i] and (u.kind, u.location) in removed)
    moving = set().union(*variable) if variable else set()
    fixed = [u for u in game._base + game._fixed_built if u not in moving]
    far = 1 << 20
    bound: dict[str, int] = {p: far for p in m.provinces}
    for u in fixed:
        for p, d in distances(m, u.kind, u.location).items():
            if d < bound[p]:
                bound[p] = d

    def near(kind: str, location: str) -> set[str]:
        return {p for p, d in distances(m, kind, location).items() if d <= bound[p]}

    touches: list[set[str]] = [set() for _ in range(n)]
    for i in range(n):
        for u in variable[i]:
            touches[i] |= near(u.kind, u.location)
    reads: list[set[str]] = [set() for _ in range(n)]
    for i, power in enumerate(game.players):
        for u in set(game.position.units_of(power)) | variable[i]:
            reads[i] |= near(u.kind, u.location)
        for h in m.homes.get(power, ()):
            if game.position.owner.get(h) == power:
                for kind, loc in [("A", h)] + [("F", f) for f in m.fleet_locations[h]]:
                    if m.can_stand(kind, loc):
                        reads[i] |= near(kind, loc)
    return {(i, j): frozenset(touches[j] & reads[i]) for i in range(n) for j in range(n)
            if i != j and touches[j] & reads[i]}


def interaction_groups(game: AdjustmentGame) -> tuple[tuple[int, ...], ...]:
    """Split the players into groups whose adjustments cannot change each other's values:
    the connected parts of `interaction_links`."""
    n = len(game.players)
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j in interaction_links(game):
        parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return tuple(tuple(g) for g in sorted(groups.values()))


# -- the answer -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Strategy:
    """One power's (possibly mixed) strategy: order sets with their probabilities."""

    power: str
    support: tuple[tuple[OrderSet, float], ...]

    @property
    def pure(self) -> bool:
        return len(self.support) == 1


@dataclass(frozen=True)
class GroupAnswer:
    """How one group of interacting powers was solved."""

    powers: tuple[str, ...]
    profiles: int                      # the group's joint profiles
    method: str                        # "combined search", "zero-sum LP", "support enumeration", ...
    status: str                        # optimal / feasible / timed out
    note: str = ""


@dataclass(frozen=True)
class Equilibrium:
    """An equilibrium (or the best approximation found) with its certificate.

    ``gains[p]`` is the most power ``p`` can gain by deviating alone (for a correlated
    equilibrium, by any deviation rule on its recommendations), computed exactly in the
    whole game; ``epsilon`` is their maximum (the objective; 0 is the bound).  When the
    certificate was cut short by the time limit, ``certified`` is False, the powers not
    reached are missing from ``gains`` and ``epsilon`` is infinite.
    """

    kind: str                                    # pure / mixed / correlated
    status: str                                  # optimal / feasible / timed out
    strategies: tuple[Strategy, ...]             # every player's (marginal) strategy
    values: dict[str, float]                     # each player's expected value
    gains: dict[str, float]
    epsilon: float
    groups: tuple[GroupAnswer, ...]
    joint_profiles: int
    seconds: float
    evaluations: int
    certified: bool                              # gains computed in the whole game
    fixed: dict[str, OrderSet] = field(default_factory=dict)
    #: a correlated equilibrium: per group, the joint distribution over its profiles
    correlated: tuple[tuple[tuple[str, ...], tuple[tuple[tuple[OrderSet, ...], float], ...]], ...] = ()
    #: a pure equilibrium replayed through the adjudicator: the position that follows
    next_position: Position | None = None
    #: a pure answer's orders, power by power (empty for a mixed one)
    orders: dict[str, OrderSet] = field(default_factory=dict)
    bound: float = 0.0
    notes: tuple[str, ...] = ()

    @property
    def objective(self) -> float:
        return self.epsilon


# A mixed profile: per player, a dict option -> probability.  A correlated profile:
# per group, a dict group-profile -> probability.
Mixed = list[dict[int, float]]


# -- certificates ------------------------------------------------------------------------------------

def _expectations(game: AdjustmentGame, mixed: Mixed, i: int, deadline: float) -> tuple[np.ndarray, float]:
    """Player ``i``'s expected value of each of its options against the others' mixed
    strategies, and of its own mixed strategy: exact, over the product of supports."""
    others = [(j, list(mixed[j].items())) for j in range(len(mixed)) if j != i]
    values = np.zeros(len(game.options[i]))
    for combo in itertools.product(*(s for _, s in others)):
        prob = math.prod(p for _, p in combo)
        profile = [0] * len(mixed)
        for (j, _), (a, _) in zip(others, combo):
            profile[j] = a
        game.prefetch(tuple(profile), i, range(len(game.options[i])))
        for a in range(len(game.options[i])):
            profile[i] = a
            values[a] += prob * game.payoff(tuple(profile), i)
            if a % 64 == 63 and time.perf_counter() > deadline:
                raise TimeUp
        if time.perf_counter() > deadline:
            raise TimeUp
    own = sum(p * values[a] for a, p in mixed[i].items())
    return values, float(own)


def certificate_cost(game: AdjustmentGame, mixed: Mixed) -> int:
    """Payoff evaluations the exact certificate of ``mixed`` needs at most."""
    sizes = [len(m) for m in mixed]
    return sum(len(game.options[i]) * math.prod(s for j, s in enumerate(sizes) if j != i)
               for i in range(len(mixed)))


def nash_gains(game: AdjustmentGame, mixed: Mixed, deadline: float = math.inf,
               gains: dict[str, float] | None = None, values: dict[str, float] | None = None
               ) -> tuple[dict[str, float], dict[str, float]]:
    """Each player's largest gain from a unilateral deviation, and its expected value
    (filled into ``gains`` and ``values`` power by power: what was computed before a
    `TimeUp` stays there)."""
    gains = {} if gains is None else gains
    values = {} if values is None else values
    for i, power in enumerate(game.players):
        vals, own = _expectations(game, mixed, i, deadline)
        gains[power] = max(0.0, float(vals.max()) - own)
        values[power] = own
    return gains, values


def correlated_gains(game: AdjustmentGame, groups: Sequence[tuple[int, ...]],
                     joint: Sequence[dict[Profile, float]], deadline: float = math.inf,
                     gains: dict[str, float] | None = None, values: dict[str, float] | None = None
                     ) -> tuple[dict[str, float], dict[str, float]]:
    """Each player's largest gain from a deviation rule (recommendation -> order set)
    under the product of the groups' joint distributions, and its expected value."""
    n = len(game.players)
    dists = [list(d.items()) for d in joint]
    gains = {} if gains is None else gains
    values = {} if values is None else values
    for i, power in enumerate(game.players):
        # swap[a][a'] = sum over profiles recommending a of P * (u(a') - u(a))
        swap: dict[int, np.ndarray] = {}
        own = 0.0
        for combo in itertools.product(*dists):
            prob = math.prod(p for _, p in combo)
            profile = [0] * n
            for g, (gp, _) in zip(groups, combo):
                for j, a in zip(g, gp):
                    profile[j] = a
            a0 = profile[i]
            row = np.empty(len(game.options[i]))
            for a in range(len(game.options[i])):
                profile[i] = a
                row[a] = game.payoff(tuple(profile), i)
                if a % 64 == 63 and time.perf_counter() > deadline:
                    raise TimeUp
            base = row[a0]
            own += prob * base
            swap[a0] = swap.get(a0, 0) + prob * (row - base)
            if time.perf_counter() > deadline:
                raise TimeUp
        gains[power] = float(sum(max(0.0, float(r.max())) for r in swap.values()))
        values[power] = own
    return gains, values


# -- pure: Loeb's combined search ---------------------------------------------------------------------

@dataclass
class SearchOutcome:
    profile: Profile
    converged: bool                # every list exhausted: no player of the group gains alone
    cycle: bool                    # a profile came back: a best-response cycle
    steps: int


def preliminary_order(game: AdjustmentGame, i: int, deadline: float) -> list[int]:
    """Player ``i``'s options, best first, each valued while the others skip their
    adjustments (the seed's preliminary search; ties keep the enumeration order)."""
    if game._fast is not None:
        values = game.skip_values(i)
    else:
        values = []
        for a in range(len(game.options[i])):
            values.append(game.skip_value(i, a))
            if time.perf_counter() > deadline:
                raise TimeUp
    if time.perf_counter() > deadline:
        raise TimeUp
    return sorted(range(len(values)), key=lambda a: -values[a])


def combined_search(game: AdjustmentGame, group: Sequence[int], start: Profile,
                    orders: dict[int, list[int]], deadline: float,
                    tolerance: float = 1e-9, track: list[int] | None = None) -> SearchOutcome:
    """Loeb's combined search, "Possible improvements 1", for the players in ``group``.

    The players outside the group keep their options in ``start``.  Steps: (1) each
    player's *new list* is its options (``orders``: the preliminary order), its *old
    list* empty; (2–3) the first option of each new list is played and moved to the old
    list; (4–7) in turn, each player C takes the next option b of its new list and (8)
    values the profile with C playing b; (9) if it is better for C, C now plays b,
    and every other player of the group puts its old list (best first) back in front
    of its new list: it must look again now that C has changed its mind; (10–11) b goes
    into C's old list by its value; (12) when every new list is empty, no player gains
    alone: stop.  Steps 13–14 (the flag that switches to a recursive search) do not
    apply: the evaluator is static.  (15) Otherwise the next player, until the deadline.
    A profile reached a second time is a better-response cycle (the seed's "infinite
    loop", detected with a hash set): the search stops and says so.  ``track``, if
    given, follows the current profile, so that a search stopped by the deadline
    (`TimeUp`) leaves its best state behind.
    """
    profile = list(start)
    new = {i: [a for a in orders[i] if a != profile[i]] for i in group}
    old: dict[int, list[tuple[float, int]]] = {i: [] for i in group}
    for i in group:
        old[i].append((game.payoff(tuple(profile), i), profile[i]))
    seen = {tuple(profile)}
    steps = 0
    members = list(group)
    turn = 0
    idle = 0
    while idle < len(members):
        if time.perf_counter() > deadline:
            raise TimeUp
        c = members[turn % len(members)]
        turn += 1
        if not new[c]:
            idle += 1
            continue
        idle = 0
        if game._fast is not None:
            # the options C will try next, valued together against the others' choices
            ahead = list(profile)
            ahead[c] = new[c][0]
            if (tuple(ahead), c) not in game._payoff:
                game.prefetch(tuple(profile), c, new[c][:PREFETCH])
        b = new[c].pop(0)
        trial = list(profile)
        trial[c] = b
        value = game.payoff(tuple(trial), c)
        current = game.payoff(tuple(profile), c)
        steps += 1
        _insert(old[c], value, b)
        if value > current + tolerance * max(1.0, abs(current)):
            profile = trial
            if track is not None:
                track[c] = b
            key = tuple(profile)
            if key in seen:
                return SearchOutcome(key, False, True, steps)
            seen.add(key)
            for d in members:
                if d == c:
                    continue
                again = [a for _, a in old[d] if a != profile[d]]
                mine = game.payoff(key, d)
                old[d] = [(mine, profile[d])]
                if again:
                    tried = set(again)
                    new[d] = again + [a for a in new[d] if a not in tried]
    return SearchOutcome(tuple(profile), True, False, steps)


def double_oracle(game: AdjustmentGame, group: Sequence[int], start: Profile, deadline: float,
                  rounds: int = 200) -> tuple[Mixed, int] | None:
    """A Nash equilibrium of a group whose combined search cycled and whose table is too
    large, by the double oracle (McMahan, Gordon and Blum, 2003): each player of the
    group starts with its option in ``start``; the game restricted to the options found
    so far is solved exactly, each player's best response to that solution is computed
    over all its options (exact expectations, `_expectations`), and a best response
    that gains is added, until none does.  The players outside the group keep ``start``.
    Exact while at most two players have more than one option (the restricted game is
    solved by support enumeration, else the MILP); None when a third one would need
    to mix, or after ``rounds`` rounds.  Returns the group's mixed strategies (every
    player's, the others pure) and the number of rounds.
    """
    kept: dict[int, list[int]] = {i: [start[i]] for i in group}
    mixed: Mixed = [{a: 1.0} for a in start]
    for r in range(1, rounds + 1):
        added = False
        for i in group:
            vals, own = _expectations(game, mixed, i, deadline)
            b = int(vals.argmax())
            if float(vals[b]) - own > 1e-9 * max(1.0, abs(own)) and b not in kept[i]:
                kept[i].append(b)
                added = True
        if not added:
            return mixed, r
        wide = [i for i in group if len(kept[i]) > 1]
        if len(wide) > 2:
            return None
        mixed = [{a: 1.0} for a in start]
        if len(wide) == 1:
            (i,) = wide
            profile = list(start)

            def value(a: int) -> float:
                profile[i] = a
                return game.payoff(tuple(profile), i)
            mixed[i] = {max(kept[i], key=value): 1.0}
            continue
        i, j = wide
        A = np.empty((len(kept[i]), len(kept[j])))
        B = np.empty_like(A)
        profile = list(start)
        for x, a in enumerate(kept[i]):
            for y, b in enumerate(kept[j]):
                profile[i], profile[j] = a, b
                A[x, y] = game.payoff(tuple(profile), i)
                B[x, y] = game.payoff(tuple(profile), j)
        found = support_enumeration(A, B, deadline)
        if found:
            xs, ys = found[0]
        else:
            sol = sgc_milp(A, B, max(1.0, deadline - time.perf_counter()))
            if sol is None:
                return None
            xs, ys = sol
        for who, opts, probs in ((i, kept[i], xs), (j, kept[j], ys)):
            support = {a: float(q) for a, q in zip(opts, probs) if q > 1e-12}
            total = sum(support.values())
            mixed[who] = {a: q / total for a, q in support.items()}
    return None


def _insert(old: list[tuple[float, int]], value: float, option: int) -> None:
    """Insert into a list kept best first (step 10); equal values keep their order."""
    lo, hi = 0, len(old)
    while lo < hi:                      # first place whose value is below ``value``
        mid = (lo + hi) // 2
        if old[mid][0] >= value:
            lo = mid + 1
        else:
            hi = mid
    old.insert(lo, (value, option))


# -- tables, two-player and n-player solvers ----------------------------------------------------------

def group_table(game: AdjustmentGame, group: Sequence[int], base: Profile, deadline: float) -> np.ndarray:
    """The payoff table of a group, the other players fixed at ``base``: shape
    ``(m_1, …, m_k, k)``."""
    sizes = [len(game.options[i]) for i in group]
    table = np.empty(sizes + [len(group)])
    profile = list(base)
    for idx in itertools.product(*(range(s) for s in sizes)):
        for i, a in zip(group, idx):
            profile[i] = a
        key = tuple(profile)
        for k, i in enumerate(group):
            table[idx + (k,)] = game.payoff(key, i)
        if time.perf_counter() > deadline:
            raise TimeUp
    return table


def pure_equilibria(table: np.ndarray, first_only: bool = False,
                    tolerance: float = 1e-9) -> list[tuple[int, ...]]:
    """Every pure equilibrium of a group's table (each player's option is a best
    response to the others'), in table order."""
    k = table.ndim - 1
    ok = np.ones(table.shape[:k], dtype=bool)
    for i in range(k):
        U = table[..., i]
        best = U.max(axis=i, keepdims=True)
        ok &= U >= best - tolerance * np.maximum(1.0, np.abs(best))
    found = [tuple(int(a) for a in idx) for idx in zip(*np.nonzero(ok))]
    return found[:1] if first_only else found


def _glop():
    from ortools.linear_solver import pywraplp
    return pywraplp.Solver.CreateSolver("GLOP")


def zero_sum_lp(A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Maximin strategies of a two-player zero-sum game (row's payoffs ``A``) by LP."""
    def maximin(M: np.ndarray) -> np.ndarray:
        s = _glop()
        x = [s.NumVar(0, 1, f"x{a}") for a in range(M.shape[0])]
        v = s.NumVar(-s.infinity(), s.infinity(), "v")
        s.Add(sum(x) == 1)
        for b in range(M.shape[1]):
            s.Add(sum(float(M[a, b]) * x[a] for a in range(M.shape[0])) >= v)
        s.Maximize(v)
        s.Solve()
        return np.array([xi.solution_value() for xi in x])
    return maximin(A), maximin(-A.T)


def _indifferent(M: np.ndarray, rows: Sequence[int], cols: Sequence[int]) -> np.ndarray | None:
    """The mixture ``y`` over ``cols`` making every row in ``rows`` equally good against
    it under ``M`` (rows x cols): ``M[rows][:, cols] y = v 1``, ``sum y = 1``."""
    k, l = len(rows), len(cols)
    sys_ = np.zeros((k + 1, l + 1))
    sys_[:k, :l] = M[np.ix_(rows, cols)]
    sys_[:k, l] = -1.0
    sys_[k, :l] = 1.0
    rhs = np.zeros(k + 1)
    rhs[k] = 1.0
    if k == l:
        try:
            sol = np.linalg.solve(sys_, rhs)
        except np.linalg.LinAlgError:
            return None
    else:
        sol, *_ = np.linalg.lstsq(sys_, rhs, rcond=None)
        if np.abs(sys_ @ sol - rhs).max() > 1e-9:
            return None
    y = sol[:l]
    if y.min() < -1e-12:
        return None
    y = np.clip(y, 0.0, None)
    return y / y.sum()


def _two_player_gain(A: np.ndarray, B: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    return max(float((A @ y).max() - x @ A @ y), float((x @ B).max() - x @ B @ y))


def _undominated(A: np.ndarray, B: np.ndarray) -> tuple[list[int], list[int]]:
    """Rows and columns left after iterated elimination of strictly dominated pure
    strategies (no equilibrium uses a strictly dominated strategy)."""
    rows, cols = list(range(A.shape[0])), list(range(A.shape[1]))
    changed = True
    while changed:
        changed = False
        sub = A[np.ix_(rows, cols)]
        keep = [r for k, r in enumerate(rows)
                if not any((sub[j] > sub[k]).all() for j in range(len(rows)) if j != k)]
        if len(keep) < len(rows):
            rows, changed = keep, True
        sub = B[np.ix_(rows, cols)]
        keep = [c for k, c in enumerate(cols)
                if not any((sub[:, j] > sub[:, k]).all() for j in range(len(cols)) if j != k)]
        if len(keep) < len(cols):
            cols, changed = keep, True
    return rows, cols


def _conditionally_dominated(M: np.ndarray, given: Sequence[int], among: Sequence[int]) -> set[int]:
    """Actions of ``among`` (columns of ``M``) strictly dominated by another of them when
    the opponent plays only ``given`` (rows of ``M``)."""
    sub = M[np.ix_(list(given), list(among))]
    return {among[k] for k in range(len(among))
            if any((sub[:, j] > sub[:, k]).all() for j in range(len(among)) if j != k)}


def support_enumeration(A: np.ndarray, B: np.ndarray, deadline: float, first_only: bool = True,
                        tolerance: float = 1e-9) -> list[tuple[np.ndarray, np.ndarray]]:
    """Nash equilibria of a bimatrix game by enumerating equal-size supports, smallest
    first, after removing strictly dominated strategies; for each row support the
    columns conditionally dominated against it are skipped, and a support pair is kept
    only if no row of it is conditionally dominated against the columns (Porter,
    Nudelman and Shoham, 2004).  Each pair is checked by solving its indifference
    equations and the best-response inequalities.  Exact for nondegenerate games;
    ``first_only`` stops at the first equilibrium."""
    m, n = A.shape
    scale = max(1.0, float(np.abs(A).max()), float(np.abs(B).max()))
    live_rows, live_cols = _undominated(A, B)
    found = []
    for k in range(1, min(len(live_rows), len(live_cols)) + 1):
        for rows in itertools.combinations(live_rows, k):
            cols_ok = [c for c in live_cols if c not in _conditionally_dominated(B, rows, live_cols)]
            for cols in itertools.combinations(cols_ok, k):
                if time.perf_counter() > deadline:
                    raise TimeUp
                if _conditionally_dominated(A.T, cols, rows):
                    continue
                y = _indifferent(A, rows, cols)
                if y is None:
                    continue
                x = _indifferent(B.T, cols, rows)
                if x is None:
                    continue
                xf, yf = np.zeros(m), np.zeros(n)
                xf[list(rows)], yf[list(cols)] = x, y
                if _two_player_gain(A, B, xf, yf) <= tolerance * scale:
                    found.append((xf, yf))
                    if first_only:
                        return found
    return found


def sgc_milp(A: np.ndarray, B: np.ndarray, time_limit: float) -> tuple[np.ndarray, np.ndarray] | None:
    """A Nash equilibrium of a bimatrix game by the MILP of Sandholm, Gilpin and Conitzer
    (2005), formulation 1: probabilities ``p``, each action's expected value ``u_a``, the
    player's value ``u >= u_a``, regret ``r_a = u - u_a``, and a binary ``s_a`` that is 1
    when ``a`` is out of the support: ``p_a <= 1 - s_a``, ``r_a <= U s_a`` (``U`` the
    player's payoff range).  Solved by CBC through PuLP; the support it finds is then
    polished by solving its indifference equations exactly."""
    import pulp
    m, n = A.shape
    prob = pulp.LpProblem("sgc", pulp.LpMinimize)
    players = [(A, m, n, "r"), (B.T, n, m, "c")]
    p = {"r": [pulp.LpVariable(f"pr{a}", 0, 1) for a in range(m)],
         "c": [pulp.LpVariable(f"pc{b}", 0, 1) for b in range(n)]}
    s = {"r": [pulp.LpVariable(f"sr{a}", cat="Binary") for a in range(m)],
         "c": [pulp.LpVariable(f"sc{b}", cat="Binary") for b in range(n)]}
    for M, mine, theirs, tag in players:
        other = "c" if tag == "r" else "r"
        rng = float(M.max() - M.min()) or 1.0
        u = pulp.LpVariable(f"u{tag}")
        prob += pulp.lpSum(p[tag]) == 1
        for a in range(mine):
            ua = pulp.lpSum(float(M[a, b]) * p[other][b] for b in range(theirs))
            prob += u >= ua
            prob += p[tag][a] <= 1 - s[tag][a]
            prob += u - ua <= rng * s[tag][a]
    # prefer small supports: they are the cheapest to certify and to read
    prob += pulp.lpSum(1 - v for v in s["r"] + s["c"])
    solver = pulp.PULP_CBC_CMD(msg=False, timeLimit=max(1, int(math.ceil(time_limit))), threads=1)
    prob.solve(solver)
    if prob.sol_status not in (1, 2):          # no solution within the time limit
        return None
    x = np.array([v.value() or 0.0 for v in p["r"]])
    y = np.array([v.value() or 0.0 for v in p["c"]])
    rows = [a for a in range(m) if x[a] > 1e-9]
    cols = [b for b in range(n) if y[b] > 1e-9]
    yp = _indifferent(A, rows, cols)
    xp = _indifferent(B.T, cols, rows)
    if yp is not None and xp is not None:
        xf, yf = np.zeros(m), np.zeros(n)
        xf[rows], yf[cols] = xp, yp
        if _two_player_gain(A, B, xf, yf) <= _two_player_gain(A, B, x / x.sum(), y / y.sum()):
            return xf, yf
    return x / x.sum(), y / y.sum()


def _contract(U: np.ndarray, strategies: Sequence[np.ndarray], skip: int) -> np.ndarray:
    """Player ``skip``'s expected payoff vector: ``U`` (its payoff tensor) contracted
    with every other player's mixed strategy."""
    out = U
    for j in range(len(strategies) - 1, -1, -1):
        if j == skip:
            continue
        out = np.tensordot(out, strategies[j], axes=([j], [0]))
    return out


def tensor_gains(table: np.ndarray, strategies: Sequence[np.ndarray]) -> list[float]:
    k = len(strategies)
    gains = []
    for i in range(k):
        v = _contract(table[..., i], strategies, i)
        gains.append(max(0.0, float(v.max() - v @ strategies[i])))
    return gains


def fictitious_play(table: np.ndarray, deadline: float, start: Sequence[int] | None = None,
                    rounds: int = 20_000) -> tuple[list[np.ndarray], float]:
    """Simultaneous fictitious play on a group's payoff table; returns the empirical
    mixture with the smallest epsilon seen (epsilon computed exactly on the table)."""
    k = table.ndim - 1
    sizes = table.shape[:k]
    counts = [np.zeros(s) for s in sizes]
    for i in range(k):
        counts[i][start[i] if start else 0] = 1.0
    best, best_eps = None, math.inf
    for t in range(1, rounds + 1):
        strategies = [c / c.sum() for c in counts]
        if t % 5 == 1 or t == rounds:
            eps = max(tensor_gains(table, strategies))
            if eps < best_eps:
                best, best_eps = [s.copy() for s in strategies], eps
            if eps <= 1e-12 or time.perf_counter() > deadline:
                break
        for i in range(k):
            v = _contract(table[..., i], strategies, i)
            counts[i][int(np.argmax(v))] += 1.0
    return best, best_eps


def correlated_lp(table: np.ndarray) -> np.ndarray | None:
    """A correlated equilibrium of a group's table maximising the sum of expected values:
    for every player ``i`` and options ``a != a'``, following the recommendation ``a``
    is at least as good as switching to ``a'``."""
    k = table.ndim - 1
    sizes = table.shape[:k]
    s = _glop()
    flat = int(np.prod(sizes))
    p = [s.NumVar(0, 1, f"p{t}") for t in range(flat)]
    P = np.array(p, dtype=object).reshape(sizes)
    s.Add(sum(p) == 1)
    scale = max(1.0, float(np.abs(table).max()))
    for i in range(k):
        U = np.moveaxis(table[..., i], i, 0) / scale
        Pi = np.moveaxis(P, i, 0)
        for a in range(sizes[i]):
            base = U[a].ravel()
            vars_a = Pi[a].ravel()
            for a2 in range(sizes[i]):
                if a2 == a:
                    continue
                diff = U[a2].ravel() - base
                terms = [(float(d), v) for d, v in zip(diff, vars_a) if d > 1e-15 or d < -1e-15]
                if terms and any(d > 0 for d, _ in terms):
                    s.Add(sum(d * v for d, v in terms) <= 0)
    welfare = table.sum(axis=-1).ravel() / scale
    s.Maximize(sum(float(w) * v for w, v in zip(welfare, p)))
    status = s.Solve()
    if status not in (0, 1):
        return None
    out = np.array([max(0.0, v.solution_value()) for v in p]).reshape(sizes)
    return out / out.sum()


# -- the whole answer --------------------------------------------------------------------------------

def solve_equilibrium(position: Position, evaluator: Evaluator, kind: str = "pure",
                      time_limit: float = 30.0, waives: bool = True,
                      tolerance: float = TOLERANCE, game: AdjustmentGame | None = None,
                      progress: Callable[[int, str], None] | None = None) -> Equilibrium:
    """An equilibrium of the adjustment phase of ``position`` with its certificate.

    ``kind``: ``pure`` (the combined search; a group whose search cycles falls back to
    mixed strategies), ``mixed`` (each group's game solved by LP/MILP, or approximately
    for three or more powers), ``correlated`` (an LP per group).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown equilibrium kind {kind!r} (expected one of {', '.join(KINDS)})")
    if position.phase.kind != "adjustment":
        raise ValueError(f"{position.phase} is not an adjustment phase")
    start = time.perf_counter()
    deadline = start + time_limit
    game = game or AdjustmentGame(position, evaluator, waives)
    game.progress = progress
    solver = _Solver(game, kind, deadline, tolerance, time_limit)
    return solver.run(start)


class _Solver:
    """One call of `solve_equilibrium`: the groups, their answers, the certificate."""

    def __init__(self, game: AdjustmentGame, kind: str, deadline: float, tolerance: float,
                 time_limit: float):
        self.game, self.kind, self.deadline, self.tolerance = game, kind, deadline, tolerance
        self.time_limit = time_limit
        self.notes: list[str] = []
        self.group_answers: list[GroupAnswer] = []
        self.timed_out = False

    def run(self, start: float) -> Equilibrium:
        g = self.game
        n = len(g.players)
        groups = interaction_groups(g) if n else ()
        mixed: Mixed = [{0: 1.0} for _ in range(n)]
        joint: list[dict[Profile, float]] = [{tuple(0 for _ in grp): 1.0} for grp in groups]
        orders: dict[int, list[int]] = {}
        #: the current profile, kept up to date by the searches: what a deadline leaves
        self.current = [0] * n
        solved: set[int] = set()
        try:
            g.stage = "preliminary search"
            for i in range(n):
                orders[i] = preliminary_order(g, i, self.deadline)
                self.current[i] = orders[i][0]
            profile = tuple(self.current)
            for k, grp in enumerate(groups):
                mixed, joint[k] = self._solve_group(grp, profile, orders, mixed)
                solved |= set(grp)
                profile = tuple(max(mixed[i], key=mixed[i].get) for i in range(n))
                self.current[:] = profile
        except TimeUp:
            self.timed_out = True
            mixed = [m if i in solved else {self.current[i]: 1.0} for i, m in enumerate(mixed)]
        return self._answer(start, groups, mixed, joint, orders)

    # each group ------------------------------------------------------------------------------
    def _solve_group(self, grp: tuple[int, ...], profile: Profile, orders: dict[int, list[int]],
                     mixed: Mixed) -> tuple[Mixed, dict[Profile, float]]:
        """Solve one group, the other players fixed at ``profile``.

        One player: its best response (the search walks all its options).  ``pure``: the
        combined search; if it cycles, every profile of the group is checked for a pure
        equilibrium (when the table is small enough), and if there is none the group
        goes to mixed strategies.  ``mixed`` and ``correlated``: the group's table is
        solved by LP/MILP; a group too large for a table falls back to the combined
        search (a pure equilibrium is also a mixed and a correlated one).
        """
        g = self.game
        powers = tuple(g.players[i] for i in grp)
        size = math.prod(len(g.options[i]) for i in grp)
        mixed = [dict(m) for m in mixed]

        def pure(found: Profile, method: str, note: str = "") -> tuple[Mixed, dict[Profile, float]]:
            for i in grp:
                mixed[i] = {found[i]: 1.0}
            self.group_answers.append(GroupAnswer(powers, size, method, "optimal", note))
            return mixed, {tuple(found[i] for i in grp): 1.0}

        g.stage = f"group {'+'.join(powers)}"
        use_table = len(grp) > 1 and size <= TABLE_LIMIT
        if self.kind == "correlated":
            use_table = use_table and size * sum(len(g.options[i]) for i in grp) <= CORRELATED_LIMIT
        if self.kind == "pure" or not use_table:
            if self.kind != "pure" and len(grp) > 1:
                self.notes.append(f"{', '.join(powers)}: {size:,} joint profiles, too many for "
                                  f"a table and an LP: combined search instead")
            outcome = combined_search(g, grp, profile, orders, self.deadline, track=self.current)
            method = "combined search" if len(grp) > 1 else "best response"
            if outcome.converged:
                return pure(outcome.profile, method, f"{outcome.steps} steps")
            profile = outcome.profile
            self.notes.append(f"{', '.join(powers)}: the combined search cycled after "
                              f"{outcome.steps} steps")
            if not use_table:
                found = double_oracle(g, grp, profile, self.deadline)
                if found is not None:
                    strategies, rounds = found
                    for i in grp:
                        mixed[i] = strategies[i]
                    self.group_answers.append(GroupAnswer(
                        powers, size, "double oracle after a cycle", "optimal",
                        f"{rounds} rounds; {' x '.join(str(len(strategies[i])) for i in grp)} "
                        f"support"))
                    joint = {}
                    for combo in itertools.product(*(mixed[i].items() for i in grp)):
                        joint[tuple(a for a, _ in combo)] = math.prod(q for _, q in combo)
                    return mixed, joint
                for i in grp:
                    mixed[i] = {profile[i]: 1.0}
                self.group_answers.append(GroupAnswer(powers, size, method, "feasible",
                                                      "cycled; too large for a table"))
                return mixed, {tuple(profile[i] for i in grp): 1.0}
        table = group_table(g, grp, profile, self.deadline)
        if self.kind == "pure":
            found = pure_equilibria(table, first_only=True)
            if found:
                full = list(profile)
                for i, a in zip(grp, found[0]):
                    full[i] = a
                return pure(tuple(full), "every profile checked after a cycle")
            self.notes.append(f"{', '.join(powers)}: no pure equilibrium (every one of the "
                              f"{size:,} profiles checked): mixed strategies")
        if self.kind == "correlated":
            dist = correlated_lp(table)
            if dist is None:
                raise RuntimeError("the correlated-equilibrium LP failed")   # one always exists
            joint = {idx: float(p) for idx, p in np.ndenumerate(dist) if p > 1e-12}
            total = sum(joint.values())
            joint = {k: v / total for k, v in joint.items()}
            for k, i in enumerate(grp):
                marg: dict[int, float] = {}
                for idx, p in joint.items():
                    marg[idx[k]] = marg.get(idx[k], 0.0) + p
                mixed[i] = marg
            self.group_answers.append(GroupAnswer(powers, size, "correlated LP (GLOP)", "optimal"))
            return mixed, joint
        strategies, method = self._mixed_group(table, [profile[i] for i in grp])
        for k, i in enumerate(grp):
            mixed[i] = {a: float(p) for a, p in enumerate(strategies[k]) if p > 1e-12}
            total = sum(mixed[i].values())
            mixed[i] = {a: p / total for a, p in mixed[i].items()}
        eps = max(tensor_gains(table, strategies))
        status = "optimal" if eps <= self.tolerance else "feasible"
        self.group_answers.append(GroupAnswer(powers, size, method, status,
                                              f"epsilon in the group's table {eps:.3g}"))
        joint = {}
        for combo in itertools.product(*(mixed[i].items() for i in grp)):
            joint[tuple(a for a, _ in combo)] = math.prod(p for _, p in combo)
        return mixed, joint

    def _mixed_group(self, table: np.ndarray, start: list[int]) -> tuple[list[np.ndarray], str]:
        k = table.ndim - 1
        if k == 2:
            A, B = table[..., 0], table[..., 1]
            total = A + B
            scale = max(1.0, float(np.abs(table).max()))
            if float(total.max() - total.min()) <= 1e-9 * scale:
                x, y = zero_sum_lp(A)
                return [x, y], "zero-sum LP"
            # support enumeration first, on a quarter of the time left; then the MILP
            now = time.perf_counter()
            try:
                found = support_enumeration(A, B, min(self.deadline, now + max(1.0, (self.deadline - now) / 4)))
            except TimeUp:
                found = []
            if found:
                return list(found[0]), "support enumeration"
            left = max(1.0, self.deadline - time.perf_counter())
            sol = sgc_milp(A, B, left)
            if sol is not None:
                return list(sol), "MILP (Sandholm-Gilpin-Conitzer, CBC)"
        # three or more powers (or the MILP gave nothing): approximate Nash
        candidates = []
        strategies, eps = fictitious_play(table, self.deadline, start)
        candidates.append((eps, strategies, "fictitious play"))
        if table[..., 0].size * sum(table.shape[:k]) <= CORRELATED_LIMIT:
            dist = correlated_lp(table)
            if dist is not None:
                margs = [dist.sum(axis=tuple(j for j in range(k) if j != i)) for i in range(k)]
                margs = [mm / mm.sum() for mm in margs]
                candidates.append((max(tensor_gains(table, margs)), margs,
                                   "correlated LP marginals"))
        eps, strategies, method = min(candidates, key=lambda c: c[0])
        return strategies, f"approximate Nash ({method})"

    # the certificate -------------------------------------------------------------------------
    def _answer(self, start: float, groups, mixed: Mixed, joint, orders) -> Equilibrium:
        """Certify: each power's largest deviation gain in the whole game.  The
        certificate may take as long again as the time limit; if it is cut short, the
        powers not reached have no gain and the answer is not certified."""
        g = self.game
        certified = True
        g.stage = "certificate"
        gains: dict[str, float] = {}
        values: dict[str, float] = {}
        cutoff = self.deadline + max(1.0, self.time_limit)
        try:
            if self.kind == "correlated":
                correlated_gains(g, groups, joint, cutoff, gains, values)
            else:
                if certificate_cost(g, mixed) > CERTIFICATE_LIMIT:
                    raise TimeUp
                nash_gains(g, mixed, cutoff, gains, values)
                bad = [p for p, v in gains.items() if v > self.tolerance]
                if (bad and not self.timed_out and all(len(m) == 1 for m in mixed)
                        and len(groups) > 1 and time.perf_counter() < self.deadline):
                    # the structure analysis did not hold for this evaluator: search again
                    # with every player in one group, from where we are
                    self.notes.append(f"{', '.join(bad)} can gain by deviating across groups: "
                                      f"searched again with all powers together")
                    profile = tuple(next(iter(m)) for m in mixed)
                    try:
                        outcome = combined_search(g, tuple(range(len(g.players))), profile,
                                                  orders, self.deadline)
                        if outcome.converged:
                            mixed = [{a: 1.0} for a in outcome.profile]
                            self.group_answers = [GroupAnswer(
                                tuple(g.players), g.joint_profiles, "combined search", "optimal",
                                "all powers together")]
                    except TimeUp:
                        self.timed_out = True
                    gains.clear()
                    values.clear()
                    nash_gains(g, mixed, cutoff, gains, values)
        except TimeUp:
            certified = False
            self.notes.append(f"the certificate was cut short: {len(gains)} of "
                              f"{len(g.players)} powers' gains computed")
        epsilon = max(gains.values(), default=0.0) if certified else math.inf
        if certified and epsilon <= self.tolerance:
            status = "optimal"           # proven by the certificate, deadline or not
            if self.timed_out:
                self.notes.append("the time limit stopped the search, but the profile it had "
                                  "reached is certified an equilibrium")
        elif self.timed_out:
            status = "timed out"
        else:
            status = "feasible"
        strategies = tuple(
            Strategy(p, tuple(sorted(((g.options[i][a], pr) for a, pr in mixed[i].items()),
                                     key=lambda t: -t[1])))
            for i, p in enumerate(g.players))
        next_position = None
        orders: dict[str, OrderSet] = {}
        if all(len(m) == 1 for m in mixed):
            # a pure answer is replayed through the adjudicator before it is reported
            from dipsolve.adjudicator import adjudicate
            profile = tuple(next(iter(m)) for m in mixed)
            orders = g.orders(profile)
            out = adjudicate(g.position, orders)
            failed = [r for r in out.results if not r.success]
            if failed or out.next.units != g.position_after(profile).units:
                raise RuntimeError(f"the adjudicator disagrees with the equilibrium: {failed[:1]}")
            next_position = out.next
        if (g._fast is not None and certified and self.kind != "correlated"
                and math.prod(len(m) for m in mixed) <= 256):
            # the vectorised influence against the evaluator itself: each player's value
            # of the answer, over the product of the supports
            real = [0.0] * len(g.players)
            for combo in itertools.product(*(m.items() for m in mixed)):
                after = g.position_after(tuple(a for a, _ in combo))
                weight = math.prod(q for _, q in combo)
                for i, p in enumerate(g.players):
                    real[i] += weight * float(g.evaluator(after, p))
            for i, p in enumerate(g.players):
                if abs(real[i] - values[p]) > 1e-9 * max(1.0, abs(real[i])):
                    raise RuntimeError(f"the vectorised influence evaluation gives {p} "
                                       f"{values[p]!r}, the evaluator {real[i]!r}")
        correlated = ()
        if self.kind == "correlated":
            correlated = tuple(
                (tuple(g.players[i] for i in grp),
                 tuple(sorted(((tuple(g.options[i][a] for i, a in zip(grp, idx)), pr)
                               for idx, pr in dist.items()), key=lambda t: -t[1])))
                for grp, dist in zip(groups, joint))
        kind = self.kind
        if kind == "pure" and any(len(m) > 1 for m in mixed):
            kind = "mixed"
        return Equilibrium(kind=kind, status=status, strategies=strategies, values=values,
                           gains=gains, epsilon=epsilon, groups=tuple(self.group_answers),
                           joint_profiles=g.joint_profiles, seconds=time.perf_counter() - start,
                           evaluations=g.evaluations, certified=certified, fixed=dict(g.fixed),
                           correlated=correlated, next_position=next_position,
                           orders=orders, notes=tuple(self.notes))


__all__ = ["AdjustmentGame", "Equilibrium", "Evaluator", "GroupAnswer", "KINDS", "Strategy",
           "TOLERANCE", "combined_search", "correlated_gains", "correlated_lp", "double_oracle",
           "fictitious_play", "group_table", "interaction_groups", "interaction_links", "nash_gains",
           "preliminary_order", "pure_equilibria", "sgc_milp", "solve_equilibrium", "support_enumeration",
           "tensor_gains", "zero_sum_lp"]
