"""The phase as a game: every interacting power a player, solved to an approximate
equilibrium by smooth fictitious play over working sets that exact best responses grow.

"What should I order?" depends on what the others order, and no real table says who they
are.  So instead of guessing a policy for them, each movement phase is treated as a
simultaneous-move game (Gray et al. 2020, *Human-level performance in no-press Diplomacy
via equilibrium search*: SearchBot):

*players*
    the power we order for, and every power whose units can reach our units or the land
    around them (`opponents.relevant_units`, radius 2).  An opponent's *units in the game*
    are those relevant units; its others hold, as do the powers that are not players.
*actions*
    each player's working set of complete order sets for its units in the game, seeded
    from several sources (`seed_actions`): the agenda search under the player's own
    evaluation with everybody else holding, draws of DumbBot's heuristic (one source
    among several, never the model of the opponents), and holding.
*payoffs*
    each player's own evaluation of the position the adjudicator makes of the joint
    profile (cached per profile: one adjudication serves every player).

The players' strategies are logit quantal responses (McKelvey & Palfrey 1995) to each
other at `TEMPERATURE`, found by smooth fictitious play on sampled profiles: each
iteration draws one action per player from the current strategies and, for every
player, updates the running utility of each of its actions against the others' draw.
(Regret matching+, a Nash equilibrium of the working sets, was measured and not kept:
its equilibria came out nearly pure and a best response to them played badly,
docs/strength.md.)  The working sets grow as in a double oracle (McMahan, Gordon & Blum
2003): a few times a phase, each player's best response to the others' mixture is
searched over all of its order sets — by the
agenda search against scenarios drawn from that mixture, and, for our power, by an
oracle handed in from above (the CP-SAT order model of `dipsolve.models`, over every
legal order set: the search sits below the models and never imports them) — and joins
the working set when it beats the player's mixture.

Everything is anytime: a strategy exists from the first iteration, and the search stops
at its `Deadline`.  The answer reports its quality honestly (`PlayerReport`): for each
player, how much it could gain by switching to the best action of its working set against
the others' final mixture (``gain_in_sets``, the working sets' exploitability, estimated
on scenarios drawn from the mixture), the largest gain a best-response search found
outside the working set in the last round (``gain_found``: a lower bound on the gain
over all order sets), and, where the oracle proves one, an upper bound.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from ..core.errors import DipsolveRuleError, DipsolveSyntaxError
from ..core.resolver import Resolver
from ..core.orders import Hold, Order, unit_key
from ..core.position import Position, Unit
from ..core.results import Deadline
from .agenda import AgendaSearch, Evaluation
from .opponents import relevant_units

#: a complete order set of one player for its units in the game, in unit order
Action = tuple[Order, ...]
#: (weight, power -> orders): the other players' orders in one scenario
Scenario = tuple[float, dict[str, Action]]

#: the share of the time for seeding the working sets
SEED_SHARE = 0.1
#: the share of the time at which the iterations end and our final best response to
#: the others' mixture begins
EQUILIBRIUM_END = 0.3
#: the share of the time kept for the final report (exploitability, our move judged on
#: held-out scenarios)
REPORT_SHARE = 0.10
#: best-response rounds during the iterations, at these shares of their time
ORACLE_ROUNDS = (0.3, 0.65)
#: the share of each round's time a player's best-response search may use, ours first
OUR_ORACLE_SHARE = 0.5
#: scenarios drawn from the others' mixture for a best-response search and the report
SCENARIOS = 12
#: iterations at most (a game that converges stops before its deadline)
MAX_ITERATIONS = 100_000
#: the working sets the seeding gives: agenda sets of our own, of each opponent, and
#: DumbBot draws of each
OUR_AGENDA_SETS = 4
THEIR_AGENDA_SETS = 2
HEURISTIC_DRAWS = 2
#: the temperature of the logit responses, in evaluation points (a supply center is worth
#: 100): the players' strategies are logit quantal responses (McKelvey & Palfrey 1995) to
#: each other, found by smooth fictitious play
TEMPERATURE = 30.0
#: how our move is chosen from the equilibrium: "best" (the best action of our working
#: set against the others' mixture) or "sample" (a draw from our own mixture)
PICKS = ("best", "sample")
#: scenarios drawn from the others' mixtures for our final best response
FINAL_SCENARIOS = 24


@dataclass(frozen=True)
class BestResponseQuery:
    """What a best-response oracle is asked: ``power``'s best orders for ``units`` (its
    other units hold) against ``scenarios`` of the other players' orders (their weights
    sum to 1), by the mean of ``evaluate``; ``hint`` is the best action known so far, and
    ``hint_value`` its mean over the scenarios when the caller has measured it already."""

    position: Position
    power: str
    units: tuple[Unit, ...]
    scenarios: tuple[Scenario, ...]
    evaluate: Evaluation
    hint: Action
    deadline: Deadline
    seed: int = 0
    workers: int = 1
    hint_value: float | None = None


@dataclass(frozen=True)
class BestResponse:
    """An oracle's answer: ``orders`` for the queried units, ``value`` their mean
    evaluation over the scenarios (by the adjudicator), ``bound`` a proven upper bound on
    that mean over every order set the oracle considered (None when none is proven)."""

    orders: Action
    value: float
    bound: float | None = None
    source: str = "oracle"


#: a best-response oracle: the CP-SAT order model, handed in from above
Oracle = Callable[[BestResponseQuery], "BestResponse | None"]


@dataclass(frozen=True)
class PlayerReport:
    """One player's part of the equilibrium."""

    power: str
    units: tuple[Unit, ...]
    #: its mixed strategy: (orders, probability), most likely first (probability > 0.5%)
    strategy: tuple[tuple[Action, float], ...]
    #: its expected value under the final profile of mixtures
    value: float
    #: the best action of its working set against the others' mixture gains this much
    gain_in_sets: float
    #: the largest gain a best-response search found over all its order sets, in the last
    #: round (against the mixture of that moment): a lower bound on its true gain
    gain_found: float
    #: a proven upper bound on that best response's value (None unless an oracle proved it)
    bound: float | None
    #: actions in its working set, and how many the best-response searches added
    actions: int
    added: int


@dataclass(frozen=True)
class PhaseEquilibrium:
    """The phase game's answer for ``power``: every player's strategy and gains."""

    power: str
    orders: Action                       # our orders, complete for every unit of ours
    pick: str                            # how they were chosen from our strategy
    players: tuple[PlayerReport, ...]
    iterations: int
    profiles: int                        # distinct joint profiles adjudicated
    oracle_calls: int
    #: the clock cut the work short of its plan: the seeding of the working sets, or the
    #: report's measure of some action (the figures are then of what was measured)
    timed_out: bool

    @property
    def exploitability(self) -> float:
        """The sum over players of the gain within the working sets (NashConv of the
        restricted game, estimated on scenarios drawn from the mixture)."""
        return sum(p.gain_in_sets for p in self.players)

    @property
    def exploitability_found(self) -> float:
        """The same sum with each player's gain over all its order sets as far as the
        best-response searches found (a lower bound on the true NashConv)."""
        return sum(max(p.gain_in_sets, p.gain_found) for p in self.players)

    def player(self, power: str) -> PlayerReport:
        for p in self.players:
            if p.power == power:
                return p
        raise DipsolveSyntaxError(power)

    def to_json(self) -> dict:
        return {
            "power": self.power, "pick": self.pick,
            "orders": [str(o) for o in self.orders],
            "exploitability": self.exploitability,
            "exploitability_found": self.exploitability_found,
            "iterations": self.iterations, "profiles": self.profiles,
            "oracle_calls": self.oracle_calls, "timed_out": self.timed_out,
            "players": [{
                "power": p.power, "value": p.value, "gain_in_sets": p.gain_in_sets,
                "gain_found": p.gain_found, "bound": p.bound, "actions": p.actions,
                "added": p.added, "units": [str(u) for u in p.units],
                "strategy": [{"orders": [str(o) for o in a], "probability": w}
                             for a, w in p.strategy],
            } for p in self.players],
        }


# -- the game -------------------------------------------------------------------------------

@dataclass
class _Player:
    power: str
    units: tuple[Unit, ...]
    temperature: float = TEMPERATURE
    actions: list[Action] = field(default_factory=list)
    #: each action's utility against the others' strategies, a running (linearly
    #: weighted) mean over the iterations, and how many iterations measured it
    utility: list[float] = field(default_factory=list)
    measured: list[int] = field(default_factory=list)
    #: the values of the working set (and of the best responses found) against the
    #: scenarios of the last best-response search
    estimates: dict[Action, float] = field(default_factory=dict)
    added: int = 0
    gain_found: float = 0.0
    bound: float | None = None

    def add(self, action: Action) -> bool:
        if action in self.actions:
            return False
        self.actions.append(action)
        self.utility.append(0.0)
        self.measured.append(0)
        return True

    def current(self) -> list[float]:
        """The strategy of this iteration: the logit response to the utilities measured
        so far (smooth fictitious play: its rest points are the logit quantal response
        equilibria); uniform before any is measured."""
        known = [u for u, m in zip(self.utility, self.measured) if m]
        if not known:
            return [1.0 / len(self.actions)] * len(self.actions)
        top = max(known)
        # an action not measured yet is tried as if it were as good as the best
        z = [math.exp(((u if m else top) - top) / self.temperature)
             for u, m in zip(self.utility, self.measured)]
        s = sum(z)
        return [x / s for x in z]

    def mixture(self) -> list[float]:
        """The strategy the equilibrium reports: the current logit response."""
        return self.current()


def _draw(weights: Sequence[float], rng: random.Random) -> int:
    x = rng.random()
    acc = 0.0
    for i, w in enumerate(weights):
        acc += w
        if x < acc:
            return i
    return len(weights) - 1


def _restrict(orders: Sequence[Order], units: Sequence[Unit]) -> Action:
    """The orders of ``units`` (in their order; a unit without one holds)."""
    by_key = {unit_key(o): o for o in orders}
    return tuple(by_key.get((u.kind, u.location), Hold(u.kind, u.location)) for u in units)


class PhaseGame:
    """The phase game of ``power`` in a movement ``position`` (see the module notes).

    ``evaluate``: every player's payoff, ``evaluate(next_position, player)``.
    ``heuristic``: ``(position, power, rng) -> orders``, a source of candidate sets
    (DumbBot's move generator); ``oracle``: our best-response oracle (the CP-SAT one);
    ``holdout``: our pick judged on scenarios drawn afresh (`_held_out`), not on those our
    search maximised over.
    ``seeds``: order sets for our power to start from.  ``clock`` of the ``deadline``
    is used for every check, so a test can drive the whole search with its own clock.
    """

    def __init__(self, position: Position, power: str, evaluate: Evaluation, *,
                 deadline: Deadline, seed: int = 0, workers: int = 1,
                 heuristic: Callable[[Position, str, random.Random], Sequence[Order]] | None = None,
                 oracle: Oracle | None = None, seeds: Sequence[Sequence[Order]] = (),
                 radius: int = 2, pick: str = "best", temperature: float = TEMPERATURE,
                 holdout: bool = True) -> None:
        if position.phase.kind != "movement":
            raise DipsolveRuleError(f"the phase game is played in a movement phase, not {position.phase}")
        if pick not in PICKS:
            raise DipsolveSyntaxError(f"pick must be one of {', '.join(PICKS)}, not {pick!r}")
        self.position, self.power, self.evaluate = position, power, evaluate
        self.deadline, self.seed, self.workers = deadline, seed, workers
        self.heuristic, self.oracle, self.pick = heuristic, oracle, pick
        #: our actions judged for the pick on fresh scenarios (`_held_out`)
        self.holdout = holdout
        self.rng = random.Random(f"dipsolve-phase-game:{seed}")
        ours = tuple(position.units_of(power))
        relevant = relevant_units(position, power, radius)
        self.players = [_Player(power, ours, temperature=temperature)] + \
            [_Player(p, tuple(us), temperature=temperature) for p, us in sorted(relevant.items())]
        self._seeds = [tuple(s) for s in seeds]
        #: the position's tables made once for every profile (`dipsolve.core.resolver`)
        self._resolver = Resolver(position)
        #: profile (action index per player) -> (next position, payoffs computed so far)
        self._profiles: dict[tuple[int, ...], tuple[Position, dict[int, float]]] = {}
        self.iterations = 0
        self.oracle_calls = 0
        self.timed_out = False

    # -- payoffs --------------------------------------------------------------------------
    def payoff(self, profile: tuple[int, ...], player: int) -> float:
        entry = self._profiles.get(profile)
        if entry is None:
            orders = {p.power: list(p.actions[a]) for p, a in zip(self.players, profile)}
            entry = self._profiles[profile] = (self._resolver.resolve(orders).next, {})
        nxt, values = entry
        v = values.get(player)
        if v is None:
            v = values[player] = self.evaluate(nxt, self.players[player].power)
        return v

    def _value_against(self, player: int, action: Action, others: dict[str, Action]) -> float:
        """``player``'s value of ``action`` (maybe outside its working set) against a
        scenario."""
        p = self.players[player]
        if action in p.actions:
            profile = tuple(p.actions.index(action) if j == player
                            else self.players[j].actions.index(others[q.power])
                            for j, q in enumerate(self.players))
            return self.payoff(profile, player)
        orders = {q: list(a) for q, a in others.items()}
        orders[p.power] = list(action)
        return self.evaluate(self._resolver.resolve(orders).next, p.power)

    # -- seeding -------------------------------------------------------------------------
    def seed_actions(self, deadline: Deadline) -> None:
        """Each player's first working set: holding, the agenda search's best sets under
        its own evaluation (everybody else holding), draws of the heuristic, and for our
        power the seeds handed in."""
        for i, p in enumerate(self.players):
            p.add(tuple(Hold(u.kind, u.location) for u in p.units))
            if i == 0:
                for s in self._seeds:
                    p.add(_restrict(s, p.units))
            if self.heuristic is not None and not deadline.expired():
                for k in range(HEURISTIC_DRAWS):
                    rng = random.Random(f"dipsolve-phase-heuristic:{self.seed}:{p.power}:{k}")
                    p.add(_restrict(self.heuristic(self.position, p.power, rng), p.units))
        n = len(self.players)
        for i, p in enumerate(self.players):
            if deadline.expired():
                self.timed_out = True
                break
            # ours gets a larger slice: it is the answer
            share = 0.4 if i == 0 and n > 1 else 1.0 / (n - i)
            part = deadline.part(share)
            k = OUR_AGENDA_SETS if i == 0 else THEIR_AGENDA_SETS
            search = AgendaSearch(self.position, p.power, self.evaluate, units=p.units,
                                  deadline=part)
            r = search.run()
            got = 0
            for _, orders in r.complete:
                if p.add(_restrict(orders, p.units)):
                    got += 1
                if got >= k:
                    break
            if r.best is not None:
                p.add(_restrict(r.best.orders, p.units))

    # -- the iterations ------------------------------------------------------------------
    def iterate(self) -> None:
        """One iteration on a sampled profile: every player's actions valued against the
        others' draw, which updates their running utilities (the logit responses of
        smooth fictitious play read them: `_Player.current`)."""
        self.iterations += 1
        strategies = [p.current() for p in self.players]
        draw = [_draw(s, self.rng) for s in strategies]
        for i, p in enumerate(self.players):
            values = []
            for a in range(len(p.actions)):
                profile = tuple(a if j == i else draw[j] for j in range(len(draw)))
                values.append(self.payoff(profile, i))
            for a, u in enumerate(values):
                p.measured[a] += 1
                p.utility[a] += (u - p.utility[a]) * 2.0 / (p.measured[a] + 1)

    def scenarios(self, player: int, count: int, rng: random.Random) -> list[Scenario]:
        """The other players' orders drawn ``count`` times from their mixtures
        (every combination, weighted exactly, when there are at most ``count``)."""
        others = [j for j in range(len(self.players)) if j != player]
        mixes = {j: self.players[j].mixture() for j in others}
        size = math.prod(len(self.players[j].actions) for j in others)
        if size <= count:
            out: list[Scenario] = [(1.0, {})]
            for j in others:
                q = self.players[j]
                out = [(w * mixes[j][a], {**sc, q.power: q.actions[a]})
                       for w, sc in out for a in range(len(q.actions)) if mixes[j][a] > 0]
            return out
        counts: dict[tuple, int] = {}
        for _ in range(count):
            key = tuple(_draw(mixes[j], rng) for j in others)
            counts[key] = counts.get(key, 0) + 1
        return [(c / count, {self.players[j].power: self.players[j].actions[a]
                             for j, a in zip(others, key)})
                for key, c in counts.items()]

    def _expected(self, player: int, action: Action, scenarios: Sequence[Scenario]) -> float:
        return sum(w * self._value_against(player, action, sc) for w, sc in scenarios)

    def best_response(self, player: int, deadline: Deadline, scenarios: int = SCENARIOS) -> None:
        """Search ``player``'s best response to the others' mixture; add it to
        the working set when it beats the mixture."""
        p = self.players[player]
        scen = self.scenarios(player, scenarios, self.rng)
        mix = p.mixture()
        values = [self._expected(player, a, scen) for a in p.actions]
        mixed = sum(m * v for m, v in zip(mix, values))
        best_known = p.actions[max(range(len(values)), key=values.__getitem__)]
        guide = dict(max(scen, key=lambda s: s[0])[1])
        cache: dict[Action, float] = {}

        def test(orders: tuple[Order, ...]) -> float | None:
            mine = _restrict(orders, p.units)
            v = cache.get(mine)
            if v is None:
                total = 0.0
                for w, sc in scen:
                    if deadline.expired():
                        return None
                    total += w * self._value_against(player, mine, sc)
                v = cache[mine] = total
            return v

        found: list[BestResponse] = []
        use_oracle = player == 0 and self.oracle is not None
        search_by = deadline.part(0.6) if use_oracle else deadline
        r = AgendaSearch(self.position, p.power, self.evaluate, units=p.units, background=guide,
                         seeds=[best_known], test=test, deadline=search_by).run()
        self.oracle_calls += 1
        if r.tested and r.best is not None:
            found.append(BestResponse(_restrict(r.best.orders, p.units), r.best.value, None, "agenda"))
        if use_oracle and not deadline.expired():
            assert self.oracle is not None
            hint, hint_value = ((found[0].orders, found[0].value)
                                if found and found[0].value > max(values) else (best_known, max(values)))
            answer = self.oracle(BestResponseQuery(self.position, p.power, p.units, tuple(scen),
                                                   self.evaluate, hint, deadline, self.seed,
                                                   self.workers, hint_value))
            self.oracle_calls += 1
            if answer is not None:
                found.append(answer)
                if answer.bound is not None:
                    p.bound = answer.bound
        p.estimates = dict(zip(p.actions, values))
        for b in found:
            p.estimates[b.orders] = b.value
        if not found:
            return
        best = max(found, key=lambda b: b.value)
        p.gain_found = max(0.0, best.value - mixed)
        if best.value > mixed + 1e-9:
            if p.add(best.orders):
                p.added += 1

    # -- the whole search ----------------------------------------------------------------
    def run(self) -> PhaseEquilibrium:
        total = max(0.0, self.deadline.end - self.deadline.clock())
        self.seed_actions(self.deadline.part(SEED_SHARE))
        # the iterations until EQUILIBRIUM_END, with best-response rounds
        iter_end = self.deadline.start + EQUILIBRIUM_END * (self.deadline.end - self.deadline.start)
        iter_start = self.deadline.clock()
        iter_total = max(0.0, iter_end - iter_start)
        rounds = list(ORACLE_ROUNDS)
        clock = self.deadline.clock
        while self.iterations < MAX_ITERATIONS:
            now = clock()
            if now >= iter_end or self.deadline.expired():
                break
            if rounds and now >= iter_start + rounds[0] * iter_total:
                rounds.pop(0)
                budget = 0.3 * iter_total
                round_end = min(now + budget, iter_end)
                for i in range(len(self.players)):
                    left = round_end - clock()
                    if left <= 0:
                        break
                    share = OUR_ORACLE_SHARE if i == 0 else 1.0 / (len(self.players) - i)
                    self.best_response(i, Deadline(left * share, clock=clock))
                continue
            self.iterate()
        if self.iterations == 0 and not self.deadline.expired():
            self.iterate()
        # then our own best response to the others' mixture, with more scenarios, until
        # the report's share is left
        for p in self.players:
            p.estimates = {}          # measured against older mixtures
        final = self.deadline.end - REPORT_SHARE * total - clock()
        if final > 0 and len(self.players) > 1:
            self.best_response(0, Deadline(final, clock=clock), scenarios=FINAL_SCENARIOS)
        return self.report()

    def _measure(self, i: int, rng: random.Random) -> tuple[list[float], bool]:
        """Player ``i``'s actions valued against the others' final mixtures: ours on
        held-out scenarios (`_held_out`) while the clock allows; otherwise by our last
        best-response search's measure when it saw every action (ours, last), else by
        the running utilities of the iterations (each action's utility against the
        others' strategies as they converged), an action the iterations never measured
        on fresh scenarios while the clock allows.  Also whether every action got a
        value."""
        p = self.players[i]
        if i == 0 and self.holdout and len(self.players) > 1:
            held = self._held_out()
            if held is not None:
                return held, True
        if p.estimates and all(a in p.estimates for a in p.actions):
            return [p.estimates[a] for a in p.actions], True
        values = list(p.utility)
        missing = [k for k, m in enumerate(p.measured) if not m]
        if not missing:
            return values, True
        scen = self.scenarios(i, SCENARIOS, rng)
        for k in missing:
            if self.deadline.expired():
                known = [values[j] for j, m in enumerate(p.measured) if m]
                floor = min(known) if known else 0.0
                for j in missing:
                    if not p.measured[j]:
                        values[j] = floor
                return values, False
            values[k] = self._expected(i, p.actions[k], scen)
            p.measured[k] = 1
        return values, True

    def holdout_scenarios(self) -> list[Scenario]:
        """The others' orders drawn afresh from their final mixtures (`FINAL_SCENARIOS`
        of them, with a draw of their own), on which our working set is judged for the
        pick."""
        return self.scenarios(0, FINAL_SCENARIOS, random.Random(f"dipsolve-phase-holdout:{self.seed}"))

    def _held_out(self) -> list[float] | None:
        """Our actions valued on `holdout_scenarios`, not on the scenarios our best-response
        search maximised over: the best of many sets on one sample is the set that did
        best on that sample, so its value there overstates it (the optimizer's curse,
        Smith & Winkler 2006), the more so the more sets the search tried.  Measured in
        play (docs/history/2026-11-26-issue-24.md) the gain is not proven: +0.61 centers
        by 1906 over 28 games (95% -0.37 to +1.58).  None when the clock runs out before every action is
        measured: the pick then falls back on the search's own measure (one measure for
        every action, never a mix of the two)."""
        p = self.players[0]
        fresh = self.holdout_scenarios()
        values: list[float] = []
        for a in p.actions:
            if self.deadline.expired():
                return None
            values.append(self._expected(0, a, fresh))
        return values

    def report(self) -> PhaseEquilibrium:
        """The final mixtures, each player's gains, and our orders."""
        rng = random.Random(f"dipsolve-phase-report:{self.seed}")
        reports = []
        ours_values: list[float] = []
        for i, p in enumerate(self.players):
            mix = p.mixture()
            values, fresh = self._measure(i, rng)
            if not fresh:
                self.timed_out = True
            value = sum(m * v for m, v in zip(mix, values))
            gain = max(0.0, max(values) - value)
            if i == 0:
                ours_values = values
            order = sorted(range(len(p.actions)), key=lambda a: -mix[a])
            strategy = tuple((p.actions[a], mix[a]) for a in order if mix[a] > 0.005)
            reports.append(PlayerReport(p.power, p.units, strategy, value, gain, p.gain_found,
                                        p.bound, len(p.actions), p.added))
        us = self.players[0]
        if self.pick == "sample":
            chosen = us.actions[_draw(us.mixture(), random.Random(f"dipsolve-phase-pick:{self.seed}"))]
        else:
            chosen = us.actions[max(range(len(ours_values)), key=ours_values.__getitem__)]
        return PhaseEquilibrium(self.power, chosen, self.pick, tuple(reports), self.iterations,
                                len(self._profiles), self.oracle_calls, self.timed_out)


def solve_phase_game(position: Position, power: str, evaluate: Evaluation, *,
                     deadline: Deadline, **options) -> PhaseEquilibrium:
    """Play the phase game of ``power`` (`PhaseGame`'s keyword options) to its deadline."""
    return PhaseGame(position, power, evaluate, deadline=deadline, **options).run()
