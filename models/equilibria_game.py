"""The simultaneous game of one winter adjustment phase: players, options, payoffs,
which powers interact, and each player's exact expected payoffs (the certificates).

Loeb (seed ``003_…``) treats the builds and removals of the seven powers as a
simultaneous game: each power picks one legal adjustment order set
(`dipsolve.algorithms.adjustments.iter_adjustments`); the payoff of a power is the value of the
position after all adjustments, from an evaluator (any ``Callable[[Position, str],
float]``).  `AdjustmentGame` holds the game and answers its payoffs, cached: every
algorithm revisits profiles.  With the plain influence evaluation
(`dipsolve.algorithms.evaluation.influence`) it values a player's options many at a time
(`dipsolve.algorithms.evaluation.InfluenceBatch`: the same numbers up to rounding).

Every step that can take long takes a `dipsolve.core.results.Deadline` and raises
`dipsolve.core.results.TimeUp` when it passes: the enumeration of the options and the
game's set-up, the batches of payoffs, the structure analysis, the tables and the
certificates.

Structure (`interaction_groups`): powers whose adjustments cannot change each other's
values are solved apart.  Certificates (`nash_gains`, `correlated_gains`): each power's
largest gain from deviating, computed in the whole game by exact best responses over
every order set of the power, never by building the joint table.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Callable, Sequence

import numpy as np

from dipsolve.algorithms.adjustments import OrderSet, iter_adjustments
from dipsolve.algorithms.evaluation import InfluenceBatch, distances, influence
from dipsolve.algorithms.influence_rows import InfluenceRows
from dipsolve.core.orders import Build, Disband
from dipsolve.core.position import Phase, Position, Unit
from dipsolve.core.results import Deadline

from .games import Mixed, Profile

__all__ = ["AdjustmentGame", "Evaluator", "Mixed", "Profile", "certificate_cost",
           "correlated_gains", "first_options", "group_table", "interaction_groups",
           "interaction_links", "nash_gains"]

Evaluator = Callable[[Position, str], float]

#: steps of a long loop between two looks at the clock
_EVERY = 64


def _check(deadline: Deadline | None, k: int = _EVERY - 1) -> None:
    """Look at the clock every `_EVERY` steps of a loop (``k`` the step)."""
    if deadline is not None and k % _EVERY == _EVERY - 1:
        deadline.check()


class AdjustmentGame:
    """The simultaneous game of one adjustment phase.

    ``players`` are the powers with two or more legal order sets; a power with one (no
    adjustment, no free home center, or removing every unit) plays it (``fixed``).  A
    profile is a tuple of option indices, one per player.  Payoffs are cached per
    (profile, player): the evaluator is the expensive part.  ``deadline`` bounds the
    set-up (enumerating 24,310 removals takes a while): `TimeUp` when it passes.
    """

    def __init__(self, position: Position, evaluator: Evaluator, waives: bool = True, *,
                 deadline: Deadline | None = None):
        self.position = position
        self.evaluator = evaluator
        self.waives = waives
        options: dict[str, tuple[OrderSet, ...]] = {}
        for p in position.powers():
            if deadline is not None:
                deadline.check()
            sets = []
            for k, os in enumerate(iter_adjustments(position, p, waives)):
                sets.append(os)
                _check(deadline, k)
            options[p] = tuple(sets)
        self.players: tuple[str, ...] = tuple(p for p, os in options.items() if len(os) > 1)
        self.fixed: dict[str, OrderSet] = {p: os[0] for p, os in options.items() if len(os) == 1}
        self.options: tuple[tuple[OrderSet, ...], ...] = tuple(options[p] for p in self.players)
        po = position.map.province_of
        # each option as (units it removes, units it builds): applying a profile is a set
        # difference and a concatenation, the same result as the adjudicator's
        effects = []
        for p, opts in zip(self.players, self.options):
            mine = []
            memo: dict[Any, Any] = {}
            for k, os in enumerate(opts):
                mine.append(_effect(p, os, po, memo))
                _check(deadline, k)
            effects.append(tuple(mine))
        self._effects = tuple(effects)
        fixed_removed: set[tuple[str, str]] = set()
        self._fixed_built: list[Unit] = []
        for p, os in self.fixed.items():
            removed, built = _effect(p, os, po)
            fixed_removed |= removed
            self._fixed_built += built
        self._base = [u for u in position.units if (u.kind, u.location) not in fixed_removed]
        self._next_phase = Phase("Spring", position.phase.year + 1, "movement")
        self._payoff: dict[tuple[Profile, int], float] = {}
        #: whole rows (`option_values`): (player, the others' choices with -1 for the
        #: player's) -> the player's value of each of its options
        self._rows: dict[tuple[int, Profile], np.ndarray] = {}
        #: the last positions built: the evaluator keeps its per-position tables (the
        #: influence evaluation's control table) in them, shared by every power
        self._positions: dict[Profile, Position] = {}
        self.evaluations = 0
        #: the plain influence evaluation, many profiles at once; None for any other
        self._batch: _Batch | None = None
        if evaluator is influence and self.players:
            self._batch = _Batch(self, deadline)
        #: called now and then with (evaluations, what is being done), for a progress bar
        self.progress: Callable[[int, str], None] | None = None
        self.stage = ""

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(len(o) for o in self.options)

    @property
    def joint_profiles(self) -> int:
        return math.prod(self.sizes)

    @property
    def batched(self) -> bool:
        """True when payoffs are valued many at a time (`prefetch`, `skip_values`)."""
        return self._batch is not None

    def cached(self, profile: Profile, i: int) -> bool:
        """Whether player ``i``'s payoff of ``profile`` is known already."""
        return (profile, i) in self._payoff

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
        if v is None and self._rows:
            row = self._rows.get((i, profile[:i] + (-1,) + profile[i + 1:]))
            if row is not None:
                return float(row[profile[i]])
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

    def prefetch(self, profile: Profile, i: int, options: Sequence[int],
                 deadline: Deadline | None = None) -> None:
        """Player ``i``'s values of ``options`` against the others' choices in
        ``profile``, computed together into the cache `payoff` reads (a no-op unless
        `batched`)."""
        if self._batch is None:
            return
        head, tail = profile[:i], profile[i + 1:]
        todo = [a for a in dict.fromkeys(options) if (head + (a,) + tail, i) not in self._payoff]
        if not todo:
            return
        vals = self._batch.row(profile, i, todo, deadline)
        for a, v in zip(todo, vals):
            self._payoff[(head + (a,) + tail, i)] = float(v)
        self.evaluations += len(todo)
        if self.progress is not None:
            self.progress(self.evaluations, self.stage)

    def skip_values(self, i: int, deadline: Deadline | None = None) -> list[float]:
        """`skip_value` of every option of player ``i``."""
        if self._batch is not None:
            vals = self._batch.row_all(None, i, deadline)
            self.evaluations += len(vals)
            return [float(v) for v in vals]
        out = []
        for a in range(len(self.options[i])):
            out.append(self.skip_value(i, a))
            if deadline is not None:
                deadline.check()
        return out

    def skip_value(self, i: int, a: int) -> float:
        """Player ``i``'s value when it plays ``a`` and every other power skips its
        adjustment (the seed's preliminary search; a hypothetical position)."""
        r, b = self._effects[i][a]
        units = [u for u in self.position.units if (u.kind, u.location) not in r] + list(b)
        pos = Position.build(self._next_phase, units, self.position.centers, game_map=self.position.map)
        self.evaluations += 1
        return float(self.evaluator(pos, self.players[i]))

    def option_values(self, profile: Profile, i: int, deadline: Deadline | None = None
                      ) -> np.ndarray:
        """Player ``i``'s value of every one of its options, the others playing their
        options in ``profile`` (``profile[i]`` is ignored): one row of the game, exact,
        cached.  With the plain influence evaluation the row is one array computation
        (`dipsolve.algorithms.influence_rows.InfluenceRows`); otherwise option by option."""
        key = (i, profile[:i] + (-1,) + profile[i + 1:])
        row = self._rows.get(key)
        if row is not None:
            return row
        if deadline is not None:
            deadline.check()
        if self._batch is not None:
            row = self._batch.row_all(key[1], i, deadline)
        else:
            head, tail = profile[:i], profile[i + 1:]
            row = np.empty(len(self.options[i]))
            for a in range(len(row)):
                row[a] = self.payoff(head + (a,) + tail, i)
                _check(deadline, a)
        self.evaluations += len(row)
        if self.progress is not None:
            self.progress(self.evaluations, self.stage)
        if len(self._rows) >= 4096:
            self._rows.clear()
        self._rows[key] = row
        return row

    def values(self, profile: Profile, i: int, options: Sequence[int],
               deadline: Deadline | None = None) -> np.ndarray:
        """Player ``i``'s values of some of its ``options``, the others playing
        ``profile`` (from a cached row when there is one; else valued together)."""
        row = self._rows.get((i, profile[:i] + (-1,) + profile[i + 1:]))
        if row is not None:
            return row[list(options)]
        self.prefetch(profile, i, options, deadline)
        head, tail = profile[:i], profile[i + 1:]
        return np.array([self.payoff(head + (a,) + tail, i) for a in options])

    def expectations(self, mixed: Mixed, i: int, deadline: Deadline | None = None
                     ) -> tuple[np.ndarray, float]:
        """Player ``i``'s expected value of each of its options against the others'
        mixed strategies, and of its own mixed strategy: exact, over the product of the
        others' supports, one vectorised row per profile of the others (the
        `dipsolve.models.games.Oracle` of `double_oracle`)."""
        others = [(j, list(mixed[j].items())) for j in range(len(mixed)) if j != i]
        values = np.zeros(len(self.options[i]))
        for combo in itertools.product(*(s for _, s in others)):
            prob = math.prod(p for _, p in combo)
            profile = [0] * len(mixed)
            for (j, _), (a, _) in zip(others, combo):
                profile[j] = a
            values += prob * self.option_values(tuple(profile), i, deadline)
        own = sum(p * values[a] for a, p in mixed[i].items())
        return values, float(own)


class _Batch:
    """The game's profiles as masks over every unit that can stand on the board after
    some profile, valued by `InfluenceBatch`: a profile removes its options' removals
    from the base and adds their builds."""

    def __init__(self, game: AdjustmentGame, deadline: Deadline | None):
        pos = game.position
        units: list[Unit] = list(dict.fromkeys(
            list(pos.units) + list(game._fixed_built)
            + [u for eff in game._effects for _, built in eff for u in built]))
        col = {u: k for k, u in enumerate(units)}
        at = {(u.kind, u.location): col[u] for u in pos.units}
        self.influence = InfluenceBatch(game.position_after(tuple(0 for _ in game.players)), units)
        self.base = np.zeros(len(units), bool)
        self.base[[col[u] for u in list(game._base) + list(game._fixed_built)]] = True
        self.skip_base = np.zeros(len(units), bool)
        self.skip_base[[col[u] for u in pos.units]] = True
        self.removes: list[np.ndarray] = []
        self.adds: list[np.ndarray] = []
        for i, effects in enumerate(game._effects):
            rem = np.zeros((len(effects), len(units)), bool)
            add = np.zeros((len(effects), len(units)), bool)
            rows, cols, brows, bcols = [], [], [], []
            for a, (removed, built) in enumerate(effects):
                for kl in removed:
                    rows.append(a)
                    cols.append(at[kl])
                for u in built:
                    brows.append(a)
                    bcols.append(col[u])
                _check(deadline, a)
            rem[rows, cols] = True
            add[brows, bcols] = True
            self.removes.append(rem)
            self.adds.append(add)
        self.players = game.players
        #: per player: its variable units, which of them each option leaves on the board,
        #: and the rows evaluator over them (`row_all`)
        self.rows: list[tuple[np.ndarray, np.ndarray, InfluenceRows]] = []
        for rem, add in zip(self.removes, self.adds):
            var = np.nonzero(rem.any(axis=0) | add.any(axis=0))[0]
            present = (self.base[var][None, :] & ~rem[:, var]) | add[:, var]
            self.rows.append((var, present, InfluenceRows(self.influence, var.tolist())))

    def row_all(self, profile: Profile | None, i: int, deadline: Deadline | None) -> np.ndarray:
        """Player ``i``'s values of all its options, the others playing ``profile``
        (None: the others skip their adjustments, as in `AdjustmentGame.skip_value`)
        (`dipsolve.algorithms.influence_rows.InfluenceRows`: only the player's variable units and
        the provinces they reach are raced per option)."""
        _, present, rows = self.rows[i]
        return rows.values(self._rest(profile, i), present, self.players[i], deadline)

    def _rest(self, profile: Profile | None, i: int) -> np.ndarray:
        """The units on the board when the players but ``i`` play ``profile`` (None:
        skip their adjustments) and ``i`` keeps its base units (a fresh mask)."""
        if profile is None:
            return self.skip_base.copy()
        mask = self.base.copy()
        for j, a in enumerate(profile):
            if j != i:
                mask &= ~self.removes[j][a]
                mask |= self.adds[j][a]
        return mask

    def row(self, profile: Profile | None, i: int, options: Sequence[int],
            deadline: Deadline | None) -> np.ndarray:
        """Player ``i``'s values of ``options``, the others playing ``profile`` (None:
        the others skip their adjustments, as in `AdjustmentGame.skip_value`)."""
        mask = self._rest(profile, i)
        opts = np.asarray(list(options), dtype=np.int64)
        masks = (mask[None, :] & ~self.removes[i][opts]) | self.adds[i][opts]
        return self.influence.values(masks, self.players[i], deadline)


def _effect(power: str, orders: OrderSet, province_of: dict[str, str],
            memo: dict[Any, Any] | None = None
            ) -> tuple[frozenset[tuple[str, str]], tuple[Unit, ...]]:
    """What an order set does: the units it removes (kind, location) and the units it
    builds.  ``memo`` shares one key or unit per order among the sets (a remover's
    12,870 sets repeat its 16 orders): fewer objects to make, and to free."""
    memo = {} if memo is None else memo
    removed: list[tuple[str, str]] = []
    built: list[Unit] = []
    for o in orders:
        got = memo.get(o)
        if got is None:
            if isinstance(o, Disband):
                got = memo[o] = (o.kind, o.location)
            elif isinstance(o, Build):
                got = memo[o] = Unit(power, o.kind,
                                     province_of[o.location] if o.kind == "A" else o.location)
            else:
                continue
        if isinstance(got, Unit):
            built.append(got)
        else:
            removed.append(got)
    return frozenset(removed), tuple(built)


# -- structure: which powers interact ------------------------------------------------------------

def interaction_links(game: AdjustmentGame, deadline: Deadline | None = None
                      ) -> dict[tuple[int, int], frozenset[str]]:
    """For each pair of players ``(i, j)`` that interact, the provinces through which
    ``j``'s adjustments can change ``i``'s value (see `interaction_groups`).

    The reasoning of the influence evaluation (Hall & Loeb 4.1): a unit controls its
    province; an empty province is shared by the units nearest to it, each unit's
    distance counted by its own type (`dipsolve.algorithms.evaluation.distances`).  A unit that is
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
    m = game.position.map
    n = len(game.players)
    variable: list[set[Unit]] = [set() for _ in range(n)]
    for i, effects in enumerate(game._effects):
        mine = [u for u in game.position.units if u.power == game.players[i]]
        for k, (removed, built) in enumerate(effects):
            variable[i].update(built)
            variable[i].update(u for u in mine if (u.kind, u.location) in removed)
            _check(deadline, k)
    moving: set[Unit] = set().union(*variable) if variable else set()
    fixed = [u for u in game._base + game._fixed_built if u not in moving]
    far = 1 << 20
    bound: dict[str, int] = {p: far for p in m.provinces}
    for u in fixed:
        for p, d in distances(m, u.kind, u.location).items():
            if d < bound[p]:
                bound[p] = d

    def near(kind: str, location: str) -> set[str]:
        if deadline is not None:
            deadline.check()
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
                for kind, loc in m.unit_places(h):
                    reads[i] |= near(kind, loc)
    return {(i, j): frozenset(touches[j] & reads[i]) for i in range(n) for j in range(n)
            if i != j and touches[j] & reads[i]}


def interaction_groups(game: AdjustmentGame, deadline: Deadline | None = None
                       ) -> tuple[tuple[int, ...], ...]:
    """Split the players into groups whose adjustments cannot change each other's values:
    the connected parts of `interaction_links`."""
    n = len(game.players)
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j in interaction_links(game, deadline):
        parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return tuple(tuple(g) for g in sorted(groups.values()))


def group_table(game: AdjustmentGame, group: Sequence[int], base: Profile,
                deadline: Deadline | None = None) -> np.ndarray:
    """The payoff table of a group, the other players fixed at ``base``: shape
    ``(m_1, …, m_k, k)`` (the input of the solvers of `dipsolve.models.games`)."""
    sizes = [len(game.options[i]) for i in group]
    table = np.empty(sizes + [len(group)])
    profile = list(base)
    for idx in itertools.product(*(range(s) for s in sizes)):
        for i, a in zip(group, idx):
            profile[i] = a
        key = tuple(profile)
        for k, i in enumerate(group):
            table[idx + (k,)] = game.payoff(key, i)
        if deadline is not None:
            deadline.check()
    return table


# -- certificates ------------------------------------------------------------------------------------

def certificate_cost(game: AdjustmentGame, mixed: Mixed) -> int:
    """Payoff evaluations the exact certificate of ``mixed`` needs at most."""
    sizes = [len(m) for m in mixed]
    return sum(len(game.options[i]) * math.prod(s for j, s in enumerate(sizes) if j != i)
               for i in range(len(mixed)))


def nash_gains(game: AdjustmentGame, mixed: Mixed, deadline: Deadline | None = None,
               gains: dict[str, float] | None = None, values: dict[str, float] | None = None
               ) -> tuple[dict[str, float], dict[str, float]]:
    """Each player's largest gain from a unilateral deviation, and its expected value
    (filled into ``gains`` and ``values`` power by power: what was computed before a
    `TimeUp` stays there)."""
    gains = {} if gains is None else gains
    values = {} if values is None else values
    for i, power in enumerate(game.players):
        vals, own = game.expectations(mixed, i, deadline)
        gains[power] = max(0.0, float(vals.max()) - own)
        values[power] = own
    return gains, values


def correlated_gains(game: AdjustmentGame, groups: Sequence[tuple[int, ...]],
                     joint: Sequence[dict[Profile, float]], deadline: Deadline | None = None,
                     gains: dict[str, float] | None = None, values: dict[str, float] | None = None,
                     coarse: bool = False) -> tuple[dict[str, float], dict[str, float]]:
    """Each player's largest gain from a deviation rule (recommendation -> order set)
    under the product of the groups' joint distributions, and its expected value;
    ``coarse``: from one order set played whatever the recommendation (a coarse
    correlated equilibrium's certificate).  One exact row of the game per profile of
    the support (`AdjustmentGame.option_values`)."""
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
            row = game.option_values(tuple(profile), i, deadline)
            base = row[a0]
            own += prob * base
            key = -1 if coarse else a0
            swap[key] = swap.get(key, 0) + prob * (row - base)
            if deadline is not None:
                deadline.check()
        gains[power] = float(sum(max(0.0, float(r.max())) for r in swap.values()))
        values[power] = own
    return gains, values


def first_options(position: Position, waives: bool = True) -> dict[str, OrderSet]:
    """Each power's first legal order set (`iter_adjustments`), without enumerating
    the rest: the answer when the time limit comes before the game is set up."""
    return {p: next(iter(iter_adjustments(position, p, waives))) for p in position.powers()}

