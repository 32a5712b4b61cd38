"""Equilibria of a winter adjustment phase, each with the certificate that proves it.

The game is `dipsolve.models.equilibria_game.AdjustmentGame` (Loeb, seed ``003_…``:
each power picks one legal adjustment order set; its payoff is the value of the position
after all adjustments, from an evaluator; the CLI uses the influence evaluation of Hall
& Loeb, seed ``002_…`` section 4.1).  `solve_equilibrium` answers it four ways:

pure
    Loeb's combined search (`combined_search`), "Possible improvements 1", steps 1–16:
    every power walks its list of order sets, first ordered by the preliminary search
    (`preliminary_order`), takes any set better for it, and when a power changes its
    mind the others walk again the sets they had tried, best first.  When every list is
    exhausted no power can gain alone: a pure Nash equilibrium.  A profile seen twice is
    the seed's "infinite loop" (a best-response cycle, found with a hash set): a small
    group's table is checked for a pure equilibrium and solved in mixed strategies; a
    group too large for a table (`_Solver._large_group`) gets a correlated equilibrium
    by LP with column and row generation (`correlated_generation`), then the double
    oracle from its support (a mixed equilibrium, if found in `ORACLE_SECONDS`).
mixed
    Two interacting powers: LP when their game is constant-sum, otherwise support
    enumeration and, failing it, the MILP of Sandholm, Gilpin and Conitzer.  Three or
    more: the logit branch to its limit, else small supports (`table_nash`), else an approximate Nash
    equilibrium.  Large groups: the double oracle (its restricted game by the same
    solvers), before and after a correlated equilibrium; else the best epsilon-Nash.
correlated, coarse
    A (coarse) correlated equilibrium of each group: by LP over its table (GLOP,
    maximising the sum of the values), or, too large for a table, by column and row
    generation after the search cycles.

The generic solvers are pure functions of `dipsolve.models.games`, one module each.
Structure first (`interaction_groups`): powers whose adjustments cannot change each
other's values are solved apart.

Every answer carries each power's largest gain from deviating alone (for a correlated
equilibrium: from any rule that maps the power's recommendation to another order set;
for a coarse one: from one order set whatever the recommendation),
computed in the whole game by exact best responses over every order set of the power
(`nash_gains`, `correlated_gains`), never by building the joint table.  ``status`` is
``optimal`` when every gain is at most 1e-6 (the answer is an equilibrium), ``feasible``
for an approximate one (its epsilon is the largest gain), ``timed out`` when the time
limit came first: the best answer so far, with its epsilon when the certificate had the
time.

The time limit is one `dipsolve.core.results.Deadline` for the whole call: the game's
set-up (enumerating the options, the structure analysis) and every search, table,
batch of payoffs and LP/MILP look at it; the work ends at `WORK_SHARE` of the limit
(freeing the game's tables comes after); the searches get `SEARCH_SHARE` of the time
the set-up leaves, the certificate the rest (at least `CERTIFICATE_MARGIN` times what
the preliminary search took).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from dipsolve.core.adjudicator import adjudicate
from dipsolve.algorithms.adjustments import OrderSet, count_adjustments, joint_count
from dipsolve.core.errors import DipsolveInternalError, DipsolveRuleError, DipsolveSyntaxError
from dipsolve.core.position import Position
from dipsolve.core.results import Deadline, Limits, Result, Status, TimeUp, limited

from .equilibria_game import (AdjustmentGame, Evaluator, Mixed, Profile, certificate_cost,
                              correlated_gains, first_options, group_table,
                              interaction_groups, interaction_links, nash_gains)
from .games import (Generation, correlated_generation, correlated_lp, double_oracle,
                    fictitious_play, pure_equilibria, sgc_milp, table_nash,
                    support_enumeration, tensor_gains, zero_sum_lp)

KINDS = ("pure", "mixed", "correlated", "coarse")
#: the largest deviation gain an answer may have to be called an equilibrium (optimal)
TOLERANCE = 1e-6
#: most joint profiles of one group whose payoff table may be built (mixed, correlated)
TABLE_LIMIT = 40_000
#: most payoff evaluations a certificate may spend before it reports itself partial
CERTIFICATE_LIMIT = 2_000_000
#: most coefficients of a correlated-equilibrium LP (profiles x the sum of the options)
CORRELATED_LIMIT = 2_000_000
#: the share of the time limit the work may use: the rest is for freeing the game's
#: tables and printing the answer (within the limit's 10%)
WORK_SHARE = 0.93
#: the share of a group's time left that the double oracle gets after a correlated
#: equilibrium, for ``mixed`` (for ``mixed`` it first has all of it: the correlated LP
#: is the way on only where its restricted game finds no equilibrium; a first share of
#: 0.3, 0.6 or 0.85 left stress-correlated.dip uncertified at 5 s: docs/adjustments.md)
ORACLE_SHARE = 0.3
#: ... and, after a correlated equilibrium was found for ``pure``, at most this long
ORACLE_SECONDS = 1.0
#: the last profiles of a cycled search that seed the correlated LP's working set
GENERATION_SEEDS = 64
#: options of one player the combined search values together (vectorised influence)
PREFETCH = 512
#: the share of the time left after the set-up that the searches get (the certificate
#: has the rest: 0.75 until 2026-11-29, when the certificates of every answer on
#: examples/adjustments took at most 0.01 s, their rows cached by the search, and the
#: quarter held back left stress-three-removers.dip's mixed equilibrium uncertified at
#: 5 s) ...
SEARCH_SHARE = 0.9
#: ... and at least this many times what the preliminary search took (which values
#: every option of every player once, as the certificate of a pure answer does)
CERTIFICATE_MARGIN = 1.5


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
    status: Status
    note: str = ""


@dataclass(frozen=True, kw_only=True)
class Equilibrium(Result):
    """An equilibrium (or the best approximation found) with its certificate.

    ``gains[p]`` is the most power ``p`` can gain by deviating alone (for a correlated
    equilibrium, by any deviation rule on its recommendations), computed exactly in the
    whole game; ``epsilon`` is their maximum, and the ``objective`` (0 is the
    ``bound``).  When the certificate was cut short by the time limit, ``certified`` is
    False, the powers not reached are missing from ``gains``, ``epsilon`` is infinite
    and the objective None.
    """

    kind: str                                    # pure / mixed / correlated
    strategies: tuple[Strategy, ...]             # every player's (marginal) strategy
    values: dict[str, float]                     # each player's expected value
    gains: dict[str, float]
    epsilon: float
    groups: tuple[GroupAnswer, ...]
    joint_profiles: int
    evaluations: int
    certified: bool                              # gains computed in the whole game
    fixed: dict[str, OrderSet] = field(default_factory=dict)
    #: a correlated equilibrium: per group, the joint distribution over its profiles
    correlated: tuple[tuple[tuple[str, ...], tuple[tuple[tuple[OrderSet, ...], float], ...]], ...] = ()
    #: a pure equilibrium replayed through the adjudicator: the position that follows
    next_position: Position | None = None
    #: a pure answer's orders, power by power (empty for a mixed one)
    orders: dict[str, OrderSet] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


# -- pure: Loeb's combined search ---------------------------------------------------------------------

@dataclass
class SearchOutcome:
    profile: Profile
    converged: bool                # every list exhausted: no player of the group gains alone
    cycle: bool                    # a profile came back: a best-response cycle
    steps: int


def preliminary_order(game: AdjustmentGame, i: int, deadline: Deadline | None = None) -> list[int]:
    """Player ``i``'s options, best first, each valued while the others skip their
    adjustments (the seed's preliminary search; ties keep the enumeration order)."""
    values = game.skip_values(i, deadline)
    if deadline is not None:
        deadline.check()
    return sorted(range(len(values)), key=lambda a: -values[a])


def combined_search(game: AdjustmentGame, group: Sequence[int], start: Profile,
                    orders: dict[int, list[int]], deadline: Deadline | None = None,
                    tolerance: float = 1e-9, track: list[int] | None = None,
                    visited: list[Profile] | None = None) -> SearchOutcome:
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
    apply: the evaluator is static.  (15) Otherwise the next player, until the deadline
    (`TimeUp`).  A profile reached a second time is a better-response cycle (the seed's
    "infinite loop", detected with a hash set): the search stops and says so.
    ``track``, if given, follows the current profile, so that a search stopped by the
    deadline leaves its best state behind; ``visited``, if given, receives every profile
    the search adopts (the seeds of `correlated_generation` after a cycle).
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
        if deadline is not None:
            deadline.check()
        c = members[turn % len(members)]
        turn += 1
        if not new[c]:
            idle += 1
            continue
        idle = 0
        if game.batched:
            # the options C will try next, valued together against the others' choices
            ahead = list(profile)
            ahead[c] = new[c][0]
            if not game.cached(tuple(ahead), c):
                game.prefetch(tuple(profile), c, new[c][:PREFETCH], deadline)
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
            if visited is not None:
                visited.append(key)
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


# -- the whole answer --------------------------------------------------------------------------------

#: `solve_equilibrium`'s settings when none are given: 30 seconds
EQUILIBRIUM_LIMITS = Limits(time_limit=30.0)


def solve_equilibrium(position: Position, evaluator: Evaluator, kind: str = "pure",
                      waives: bool = True,
                      tolerance: float = TOLERANCE, game: AdjustmentGame | None = None,
                      progress: Callable[[int, str], None] | None = None, *,
                      deadline: Deadline | None = None, limits: Limits | None = None) -> Equilibrium:
    """An equilibrium of the adjustment phase of ``position`` with its certificate.

    ``kind``: ``pure`` (the combined search; a group whose search cycles goes on to a
    mixed or, too large for a table, a correlated equilibrium), ``mixed`` (each group's
    game by LP/MILP/support enumeration, or the best epsilon-Nash found), ``correlated``
    or ``coarse`` (an LP per group; by column generation for a large one).
    ``limits.time_limit`` (`dipsolve.Limits`, default `EQUILIBRIUM_LIMITS`; seconds,
    set-up included) or a ``deadline`` (whose clock may be injected) bounds the whole
    call: at the deadline the best answer so far is returned, ``timed out`` unless its
    certificate proves it an equilibrium (the LPs and the searches here make no random
    choice: the seed has nothing to change).  ``tolerance`` may only tighten what
    ``optimal`` means (never beyond 1e-6).
    """
    limits = limits or EQUILIBRIUM_LIMITS
    if kind not in KINDS:
        raise DipsolveSyntaxError(f"unknown equilibrium kind {kind!r} "
                                  f"(expected one of {', '.join(KINDS)})")
    if position.phase.kind != "adjustment":
        raise DipsolveRuleError(f"{position.phase} is not an adjustment phase",
                                rule="equilibria are of an adjustment phase")
    if deadline is None:
        deadline = limits.deadline()
    # the work ends a little before the limit: freeing the game's tables (25,000 order
    # sets and their effects take 20-30 ms to free) and printing the answer come after
    deadline = Deadline(WORK_SHARE * (deadline.end - deadline.start), clock=deadline.clock,
                        start=deadline.start)
    return limited(_Solver(position, evaluator, kind, waives, deadline, min(tolerance, TOLERANCE),
                           game, progress).run(), deadline)


def _product(mixed: Mixed, grp: Sequence[int]) -> dict[Profile, float]:
    """The joint distribution of independent mixed strategies over the group's profiles."""
    joint = {}
    for combo in itertools.product(*(mixed[i].items() for i in grp)):
        joint[tuple(a for a, _ in combo)] = math.prod(q for _, q in combo)
    return joint


def _marginals(dist: dict[Profile, float], grp: Sequence[int], mixed: Mixed) -> None:
    """Each group member's marginal of a joint distribution over the group's profiles,
    written into ``mixed``."""
    for k, i in enumerate(grp):
        marg: dict[int, float] = {}
        for idx, q in dist.items():
            marg[idx[k]] = marg.get(idx[k], 0.0) + q
        mixed[i] = marg


class _Solver:
    """One call of `solve_equilibrium`: the set-up, the groups, their answers, the
    certificate."""

    def __init__(self, position: Position, evaluator: Evaluator, kind: str, waives: bool,
                 deadline: Deadline, tolerance: float, game: AdjustmentGame | None,
                 progress: Callable[[int, str], None] | None):
        self.position, self.evaluator, self.waives = position, evaluator, waives
        self.kind, self.deadline, self.tolerance = kind, deadline, tolerance
        self.given, self.progress = game, progress
        self.notes: list[str] = []
        self.group_answers: list[GroupAnswer] = []
        self.timed_out = False
        #: a group answered by a correlated equilibrium (the whole answer is one)
        self.correlated_found = False

    def run(self) -> Equilibrium:
        try:
            g = self.given or AdjustmentGame(self.position, self.evaluator, self.waives,
                                             deadline=self.deadline)
            g.progress = self.progress
            g.stage = "structure"
            groups = interaction_groups(g, self.deadline) if g.players else ()
        except TimeUp:
            return self._unfinished()
        self.game = g
        n = len(g.players)
        search = self.deadline.part(SEARCH_SHARE)
        mixed: Mixed = [{0: 1.0} for _ in range(n)]
        joint: list[dict[Profile, float]] = [{tuple(0 for _ in grp): 1.0} for grp in groups]
        orders: dict[int, list[int]] = {}
        #: the current profile, kept up to date by the searches: what a deadline leaves
        self.current = [0] * n
        solved: set[int] = set()
        try:
            g.stage = "preliminary search"
            began = self.deadline.clock()
            for i in range(n):
                orders[i] = preliminary_order(g, i, search)
                self.current[i] = orders[i][0]
            # the certificate of a pure answer values every option of every player once,
            # as the preliminary search just did: it keeps at least CERTIFICATE_MARGIN
            # times that long
            end = min(search.end, self.deadline.end
                      - CERTIFICATE_MARGIN * (self.deadline.clock() - began))
            search = Deadline(end - search.start, clock=search.clock, start=search.start)
            profile = tuple(self.current)
            for k, grp in enumerate(groups):
                mixed, joint[k] = self._solve_group(grp, profile, orders, mixed, search)
                solved |= set(grp)
                profile = tuple(max(mixed[i], key=mixed[i].__getitem__) for i in range(n))
                self.current[:] = profile
        except TimeUp:
            self.timed_out = True
            mixed = [m if i in solved else {self.current[i]: 1.0} for i, m in enumerate(mixed)]
            for k, grp in enumerate(groups):
                if not set(grp) <= solved:
                    joint[k] = {tuple(self.current[i] for i in grp): 1.0}
                    self.group_answers.append(GroupAnswer(
                        tuple(g.players[i] for i in grp), math.prod(g.sizes[i] for i in grp),
                        f"cut short by {self.deadline.limit_name()}", Status.TIMED_OUT,
                        "the profile the search had reached"))
        return self._answer(groups, mixed, joint, orders)

    def _unfinished(self) -> Equilibrium:
        """The answer when the time limit came during the set-up: every power's first
        order set, not certified (its gains are not known)."""
        pos, waives = self.position, self.waives
        first = first_options(pos, waives)
        players = [p for p in pos.powers() if count_adjustments(pos, p, waives) > 1]
        self.notes.append(f"{self.deadline.limit_name()} came before the game was set up: every "
                          f"power's first order set, not certified")
        return Equilibrium(
            status=Status.TIMED_OUT, objective=None, bound=0.0, seconds=self.deadline.seconds(),
            kind=self.kind,
            strategies=tuple(Strategy(p, ((first[p], 1.0),)) for p in players),
            values={}, gains={}, epsilon=math.inf, groups=(),
            joint_profiles=joint_count(pos, waives), evaluations=0, certified=False,
            fixed={p: first[p] for p in pos.powers() if p not in players},
            notes=tuple(self.notes))

    # each group ------------------------------------------------------------------------------
    def _solve_group(self, grp: tuple[int, ...], profile: Profile, orders: dict[int, list[int]],
                     mixed: Mixed, deadline: Deadline) -> tuple[Mixed, dict[Profile, float]]:
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
            self.group_answers.append(GroupAnswer(powers, size, method, Status.OPTIMAL, note))
            return mixed, {tuple(found[i] for i in grp): 1.0}

        g.stage = f"group {'+'.join(powers)}"
        use_table = len(grp) > 1 and size <= TABLE_LIMIT
        if self.kind in ("correlated", "coarse"):
            use_table = use_table and size * sum(len(g.options[i]) for i in grp) <= CORRELATED_LIMIT
        if self.kind == "pure" or not use_table:
            if self.kind != "pure" and len(grp) > 1:
                self.notes.append(f"{', '.join(powers)}: {size:,} joint profiles, too many for "
                                  f"a table: the combined search first (a pure equilibrium "
                                  f"is also a {self.kind} one), the LP only if it cycles")
            visited: list[Profile] = []
            outcome = combined_search(g, grp, profile, orders, deadline, track=self.current,
                                      visited=visited)
            method = "combined search" if len(grp) > 1 else "best response"
            if outcome.converged:
                return pure(outcome.profile, method, f"{outcome.steps} steps")
            profile = outcome.profile
            self.notes.append(f"{', '.join(powers)}: the combined search cycled after "
                              f"{outcome.steps} steps")
            if not use_table:
                return self._large_group(grp, profile, visited, mixed, deadline)
        table = group_table(g, grp, profile, deadline)
        if self.kind == "pure":
            found_pure = pure_equilibria(table, first_only=True)
            if found_pure:
                full = list(profile)
                for i, a in zip(grp, found_pure[0]):
                    full[i] = a
                return pure(tuple(full), "every profile checked after a cycle")
            self.notes.append(f"{', '.join(powers)}: no pure equilibrium (every one of the "
                              f"{size:,} profiles checked): mixed strategies")
        if self.kind in ("correlated", "coarse"):      # a correlated one is also coarse
            dist = correlated_lp(table, deadline)
            if dist is None:       # one always exists
                raise DipsolveInternalError("GLOP found no correlated equilibrium of a finite game")
            joint = {tuple(int(a) for a in idx): float(p) for idx, p in np.ndenumerate(dist)
                     if p > 1e-12}
            total = sum(joint.values())
            joint = {k: v / total for k, v in joint.items()}
            _marginals(joint, grp, mixed)
            self.group_answers.append(GroupAnswer(powers, size, "correlated LP (GLOP)" + (
                "; a correlated equilibrium is also a coarse one" if self.kind == "coarse" else ""),
                                                  Status.OPTIMAL))
            return mixed, joint
        strategies, method = self._mixed_group(table, [profile[i] for i in grp], deadline)
        for k, i in enumerate(grp):
            mixed[i] = {a: float(p) for a, p in enumerate(strategies[k]) if p > 1e-12}
            total = sum(mixed[i].values())
            mixed[i] = {a: p / total for a, p in mixed[i].items()}
        eps = max(tensor_gains(table, strategies))
        status = Status.OPTIMAL if eps <= self.tolerance else Status.FEASIBLE
        self.group_answers.append(GroupAnswer(powers, size, method, status,
                                              f"epsilon in the group's table {eps:.3g}"))
        return mixed, _product(mixed, grp)

    def _large_group(self, grp: tuple[int, ...], profile: Profile, visited: list[Profile],
                     mixed: Mixed, deadline: Deadline) -> tuple[Mixed, dict[Profile, float]]:
        """A group too large for a table whose combined search cycled at ``profile``.

        A correlated (``coarse``: coarse correlated) equilibrium by LP with column and
        row generation, seeded with the profiles the search walked through
        (`correlated_generation`).  ``pure`` then gives the double oracle (a mixed Nash
        equilibrium; `table_nash` when three or more powers mix) a short look
        from the options that equilibrium uses, and answers the mixed equilibrium if it
        finds one, else the correlated one.  ``mixed`` runs the double oracle first
        (all of the time; it stops early where its restricted game has no equilibrium it
        finds), then, after the correlated equilibrium, again from its support; failing
        both it answers the better epsilon-Nash of the cycle's
        last profile and the product of the distribution's marginals, by their exact
        epsilon (never called an equilibrium unless that epsilon is at most 1e-6)."""
        g = self.game
        powers = tuple(g.players[i] for i in grp)
        size = math.prod(len(g.options[i]) for i in grp)
        def oracle(share: float, kept: dict[int, list[int]] | None = None,
                   how: str = "") -> tuple[Mixed, dict[Profile, float]] | None:
            g.stage = "double oracle"
            try:
                found = double_oracle(g, grp, profile, deadline.part(share), kept=kept)
            except TimeUp:
                deadline.check()
                found = None
            if found is None:
                return None
            oracle_mixed, rounds = found
            for i in grp:
                mixed[i] = oracle_mixed[i]
            self.group_answers.append(GroupAnswer(
                powers, size, f"double oracle after a cycle{how}", Status.OPTIMAL,
                f"{rounds} rounds; {' x '.join(str(len(mixed[i])) for i in grp)} support"))
            return mixed, _product(mixed, grp)

        if self.kind == "mixed":
            done = oracle(1.0)
            if done is not None:
                return done
            self.notes.append(f"{', '.join(powers)}: no mixed equilibrium from the double "
                              f"oracle in its share of the time: a correlated equilibrium "
                              f"by column generation, then the oracle again from its support")
        coarse = self.kind == "coarse"
        g.stage = "correlated generation"
        seeds = [profile] + list(dict.fromkeys(reversed(visited[-GENERATION_SEEDS:])))
        state = Generation({profile: 1.0}, coarse)
        try:
            correlated_generation(g, grp, seeds, deadline, coarse=coarse,
                                  tolerance=self.tolerance / 10, state=state)
            status = Status.OPTIMAL if state.converged else Status.FEASIBLE
        except TimeUp:
            self.timed_out = True
            status = Status.TIMED_OUT
        dist = {tuple(s[i] for i in grp): q for s, q in state.distribution.items()}
        method = (f"{'coarse ' if coarse else ''}correlated LP by column and row generation "
                  f"(GLOP) after a cycle")
        note = (f"{state.rounds} rounds, {state.columns} profiles in the working set, "
                f"{state.rows} deviation rows, {len(dist)} in the support; epsilon "
                f"{state.epsilon:.3g}" if state.gains else f"{state.rounds} rounds; cut short")
        _marginals(dist, grp, mixed)
        if self.kind == "pure" and status == Status.OPTIMAL:
            # a mixed Nash equilibrium is worth a short look: the double oracle from
            # the options the correlated equilibrium uses
            kept = {i: sorted({s[i] for s in state.distribution}) for i in grp}
            left = deadline.remaining()
            share = min(ORACLE_SHARE, ORACLE_SECONDS / left) if left > 0 else 0.0
            done = oracle(share, kept, ", from the correlated equilibrium's support")
            if done is not None:
                return done
            self.notes.append(f"{', '.join(powers)}: no mixed equilibrium from the double "
                              f"oracle in {share * left:.2g} s: the correlated equilibrium")
        if self.kind != "mixed":
            self.correlated_found = True
            self.group_answers.append(GroupAnswer(powers, size, method, status, note))
            return mixed, dist
        # mixed: the double oracle again, from the options the correlated equilibrium uses
        if status != Status.TIMED_OUT:
            kept = {i: sorted({s[i] for s in state.distribution}) for i in grp}
            done = oracle(ORACLE_SHARE * 2, kept, ", from the correlated equilibrium's support")
            if done is not None:
                return done
            _marginals(dist, grp, mixed)      # again: the oracle's attempt used them
        # else the better epsilon-Nash of two candidates, each by its exact epsilon
        candidates = []
        for name, cand in (("the cycle's last profile", {i: {profile[i]: 1.0} for i in grp}),
                           ("the correlated equilibrium's marginals", {i: mixed[i] for i in grp})):
            trial = [cand.get(i, m) for i, m in enumerate(mixed)]
            if certificate_cost(g, trial) > CERTIFICATE_LIMIT // 4 or deadline.expired():
                continue
            try:
                eps = max(max(0.0, float(v.max()) - own)
                          for v, own in (g.expectations(trial, i, deadline) for i in grp))
            except TimeUp:
                self.timed_out = True
                break
            candidates.append((eps, name, trial))
        if candidates:
            eps, name, trial = min(candidates, key=lambda c: c[0])
        else:
            eps, name, trial = math.inf, "the cycle's last profile", [
                {profile[i]: 1.0} if i in grp else m for i, m in enumerate(mixed)]
        exact = eps <= self.tolerance
        self.group_answers.append(GroupAnswer(
            powers, size, f"{'mixed' if exact else 'approximate'} Nash ({name})",
            Status.OPTIMAL if exact else Status.FEASIBLE if eps < math.inf else Status.TIMED_OUT,
            f"epsilon in the group {eps:.3g}; from {method}: {note}"))
        return trial, _product(trial, grp)

    def _mixed_group(self, table: np.ndarray, start: list[int], deadline: Deadline
                     ) -> tuple[list[np.ndarray], str]:
        k = table.ndim - 1
        if k == 2:
            A, B = table[..., 0], table[..., 1]
            total = A + B
            scale = max(1.0, float(np.abs(table).max()))
            if float(total.max() - total.min()) <= 1e-9 * scale:
                x, y = zero_sum_lp(A, deadline)
                return [x, y], "zero-sum LP"
            # support enumeration first, on a quarter of the time left; then the MILP
            try:
                found = support_enumeration(A, B, deadline.part(0.25))
            except TimeUp:
                deadline.check()
                found = []
            if found:
                return list(found[0]), "support enumeration"
            sol = sgc_milp(A, B, deadline)
            if sol is not None:
                return list(sol), "MILP (Sandholm-Gilpin-Conitzer, CBC)"
        if k > 2:
            # three or more powers: the logit branch, then small supports, each
            # answer checked exactly in the table
            try:
                nash = table_nash(table, deadline.part(0.5), start)
            except TimeUp:
                deadline.check()
                nash = None
            if nash is not None:
                return nash[0], nash[1]
        # otherwise (or the MILP gave nothing): approximate Nash
        candidates = []
        strategies, eps = fictitious_play(table, deadline, start)
        candidates.append((eps, strategies, "fictitious play"))
        if table[..., 0].size * sum(table.shape[:k]) <= CORRELATED_LIMIT and not deadline.expired():
            try:
                dist = correlated_lp(table, deadline)
            except TimeUp:
                dist = None
            if dist is not None:
                margs = [dist.sum(axis=tuple(j for j in range(k) if j != i)) for i in range(k)]
                margs = [mm / mm.sum() for mm in margs]
                candidates.append((max(tensor_gains(table, margs)), margs,
                                   "correlated LP marginals"))
        eps, strategies, method = min(candidates, key=lambda c: c[0])
        exact = "mixed" if eps <= self.tolerance else "approximate"
        return strategies, f"{exact} Nash ({method})"

    # the certificate -------------------------------------------------------------------------
    def _answer(self, groups: Sequence[tuple[int, ...]], mixed: Mixed,
                joint: list[dict[Profile, float]], orders: dict[int, list[int]]) -> Equilibrium:
        """Certify: each power's largest deviation gain in the whole game, in the time
        left.  If it is cut short, the powers not reached have no gain and the answer
        is not certified."""
        g = self.game
        certified = True
        g.stage = "certificate"
        gains: dict[str, float] = {}
        values: dict[str, float] = {}
        kind = self.kind
        if kind == "pure" and self.correlated_found:
            kind = "correlated"
        elif kind == "pure" and any(len(m) > 1 for m in mixed):
            kind = "mixed"
        joint_kind = kind in ("correlated", "coarse")
        try:
            self.deadline.check()        # no time left: no certificate begun, none reported
            if joint_kind:
                correlated_gains(g, groups, joint, self.deadline, gains, values,
                                 coarse=kind == "coarse")
            elif certificate_cost(g, mixed) > CERTIFICATE_LIMIT:
                certified = False
                self.notes.append(f"the certificate would need more than {CERTIFICATE_LIMIT:,} "
                                  f"evaluations: not computed")
            else:
                nash_gains(g, mixed, self.deadline, gains, values)
                mixed = self._again(groups, mixed, orders, gains, values)
        except TimeUp:
            certified = False
            self.timed_out = True
            self.notes.append(f"the certificate was cut short by {self.deadline.limit_name()}: {len(gains)} of "
                              f"{len(g.players)} powers' gains computed")
        epsilon = max(gains.values(), default=0.0) if certified else math.inf
        if certified and epsilon <= self.tolerance:
            status = Status.OPTIMAL      # proven by the certificate, deadline or not
            if self.timed_out:
                self.notes.append(f"{self.deadline.limit_name()} stopped the search, but the profile "
                                  f"it had reached is certified an equilibrium")
        elif self.timed_out:
            status = Status.TIMED_OUT
        else:
            status = Status.FEASIBLE
        strategies = tuple(
            Strategy(p, tuple(sorted(((g.options[i][a], pr) for a, pr in mixed[i].items()),
                                     key=lambda t: -t[1])))
            for i, p in enumerate(g.players))
        next_position = None
        pure_orders: dict[str, OrderSet] = {}
        if all(len(m) == 1 for m in mixed):
            # a pure answer is replayed through the adjudicator before it is reported
            profile = tuple(next(iter(m)) for m in mixed)
            pure_orders = g.orders(profile)
            out = adjudicate(g.position, pure_orders)
            failed = [r for r in out.results if not r.success]
            if failed or out.next.units != g.position_after(profile).units:
                raise DipsolveInternalError(
                    f"the adjudicator disagrees with the equilibrium: {failed[:1]}")
            next_position = out.next
        if g.batched and certified and not joint_kind:
            self._check_batch(mixed, values)
        correlated: tuple = ()
        if joint_kind:
            correlated = tuple(
                (tuple(g.players[i] for i in grp),
                 tuple(sorted(((tuple(g.options[i][a] for i, a in zip(grp, idx)), pr)
                               for idx, pr in dist.items()), key=lambda t: -t[1])))
                for grp, dist in zip(groups, joint))
        return Equilibrium(status=status, objective=epsilon if certified else None, bound=0.0,
                           seconds=self.deadline.seconds(), kind=kind, strategies=strategies,
                           values=values, gains=gains, epsilon=epsilon,
                           groups=tuple(self.group_answers), joint_profiles=g.joint_profiles,
                           evaluations=g.evaluations, certified=certified, fixed=dict(g.fixed),
                           correlated=correlated, next_position=next_position,
                           orders=pure_orders, notes=tuple(self.notes))

    def _again(self, groups: Sequence[tuple[int, ...]], mixed: Mixed,
               orders: dict[int, list[int]], gains: dict[str, float],
               values: dict[str, float]) -> Mixed:
        """If a pure answer of several groups lets a power gain across groups (the
        structure analysis did not hold for this evaluator), search again with every
        player in one group from there, on half the time left, and certify again."""
        g = self.game
        bad = [p for p, v in gains.items() if v > self.tolerance]
        if not (bad and not self.timed_out and all(len(m) == 1 for m in mixed)
                and len(groups) > 1 and not self.deadline.expired()):
            return mixed
        self.notes.append(f"{', '.join(bad)} can gain by deviating across groups: "
                          f"searched again with all powers together")
        profile = tuple(next(iter(m)) for m in mixed)
        try:
            outcome = combined_search(g, tuple(range(len(g.players))), profile, orders,
                                      self.deadline.part(0.5))
            if outcome.converged:
                mixed = [{a: 1.0} for a in outcome.profile]
                self.group_answers = [GroupAnswer(
                    tuple(g.players), g.joint_profiles, "combined search", Status.OPTIMAL,
                    "all powers together")]
        except TimeUp:
            self.timed_out = True
        gains.clear()
        values.clear()
        nash_gains(g, mixed, self.deadline, gains, values)
        return mixed

    def _check_batch(self, mixed: Mixed, values: dict[str, float]) -> None:
        """The vectorised influence against the evaluator itself: each player's value of
        the answer, over the product of the supports (at most 256 profiles; skipped when
        the time is up)."""
        g = self.game
        if math.prod(len(m) for m in mixed) > 256:
            return
        real = [0.0] * len(g.players)
        for combo in itertools.product(*(m.items() for m in mixed)):
            if self.deadline.expired():
                return
            after = g.position_after(tuple(a for a, _ in combo))
            weight = math.prod(q for _, q in combo)
            for i, p in enumerate(g.players):
                real[i] += weight * float(g.evaluator(after, p))
        for i, p in enumerate(g.players):
            if abs(real[i] - values[p]) > 1e-9 * max(1.0, abs(real[i])):
                raise DipsolveInternalError(f"the vectorised influence evaluation gives {p} "
                                            f"{values[p]!r}, the evaluator {real[i]!r}")


__all__ = ["AdjustmentGame", "CERTIFICATE_LIMIT", "CERTIFICATE_MARGIN", "Equilibrium", "Evaluator", "GroupAnswer",
           "KINDS", "SEARCH_SHARE", "SearchOutcome", "Strategy", "TABLE_LIMIT", "TOLERANCE",
           "combined_search", "correlated_gains", "group_table", "interaction_groups",
           "interaction_links", "nash_gains", "preliminary_order", "solve_equilibrium"]
