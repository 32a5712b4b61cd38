"""The players of `dipsolve play`: one protocol, three kinds of bot.

A bot is anything with ``name`` and ``orders(position, power, deadline_s, rng)``: the
orders ``power`` gives in the position's phase (movement, retreat or adjustment),
decided within ``deadline_s`` seconds, with every random choice drawn from ``rng`` so a
seeded game replays exactly (a dipsolve seat with a node limit, `DipsolveBot.nodes`,
replays exactly too); and, if it needs one, ``prepare()``, called once before a
game outside the clock; and, if it learns from the table, ``observe(position, orders)``,
called after every phase with every power's orders (all public once a phase is
adjudicated); and, if it takes a game's `dipsolve.Limits` (its clock, its node limit),
``with_limits(limits)``, the bot as it plays under them (`dipsolve.play_game`).  The Victorybot seed (``004_…``, "Experimental design")
plays its configurations against each other and the DAIDE bots the same way: each of
the seven seats gets one.

* `RandomBot` — a legal order for each unit, at random (`dipsolve.core.legal`);
* `DumbBotPlayer` — David Norman's DumbBot (`dipsolve.algorithms.dumbbot`);
* `DipsolveBot` — dipsolve's own search, `dipsolve.api.solve` with one of its
  methods.

`make_bot` reads a bot's name as the command line spells it: ``random``, ``dumbbot``,
``dipsolve`` or ``dipsolve:METHOD``.
"""

from __future__ import annotations

import dataclasses
import gc
import random
from dataclasses import dataclass, field
from typing import Mapping, Protocol, Sequence

from .. import api
from ..algorithms import dumbbot, greedy
from ..algorithms.order_policy import Forbids, OrderPolicy, Restrained
from ..search.learned import LEARNING_SHARE, SEARCH_FLOOR, Table
from ..search.strategy import Influence, Learned, PhaseGame, Sampled, Strategy
from ..core import kernel
from ..core.errors import DipsolveArgumentError, DipsolveUnavailable
from ..core.orders import Build, Disband, Move, Order, Waive
from ..core.position import Position
from ..core.results import WALL_WORKERS, Deadline, Limits, clock_named
from ..core.legal import build_orders, legal_orders


class Bot(Protocol):
    """A player: ``name`` for the results table, ``orders`` for each phase."""

    @property
    def name(self) -> str: ...

    def orders(self, position: Position, power: str, deadline_s: float,
               rng: random.Random) -> list[Order]:
        """The orders ``power`` gives in ``position``'s phase (an empty list when it has
        nothing to order), within ``deadline_s`` seconds, drawing chance from ``rng``."""
        ...


class BotUnavailable(DipsolveUnavailable):
    """A bot that cannot play in this installation (its module is not there yet)."""


@dataclass(frozen=True)
class RandomBot:
    """Random legal orders: for each unit, a kind of order at random (hold, move, move
    by convoy, support, convoy; retreat or disband), then one of that kind at random, so
    the many supports a unit could give do not crowd out its moves.  Builds go to
    random vacant home centers as a random kind; removals take random units."""

    name: str = "random"

    def orders(self, position: Position, power: str, deadline_s: float,
               rng: random.Random) -> list[Order]:
        kind = position.phase.kind
        if kind == "adjustment":
            return _random_adjustment(position, power, rng)
        units = ([d.unit for d in position.dislodged if d.unit.power == power] if kind == "retreat"
                 else position.units_of(power))
        out: list[Order] = []
        for u in units:
            by_kind: dict[str, list[Order]] = {}
            for o in legal_orders(position, u):
                key = type(o).__name__ + ("Via" if getattr(o, "via_convoy", False) else "")
                by_kind.setdefault(key, []).append(o)
            kinds = sorted(by_kind)
            out.append(rng.choice(by_kind[rng.choice(kinds)]))
        return out


def _random_adjustment(position: Position, power: str, rng: random.Random) -> list[Order]:
    owed = position.adjustment(power)
    if owed > 0:
        by_site: dict[str, list[Order]] = {}
        for b in build_orders(position, power):
            if isinstance(b, Build):
                by_site.setdefault(position.map.province_of[b.location], []).append(b)
        sites = rng.sample(sorted(by_site), min(owed, len(by_site)))
        out = [rng.choice(by_site[site]) for site in sorted(sites)]
        return out + [Waive() for _ in range(owed - len(out))]
    if owed < 0:
        return [Disband(u.kind, u.location)
                for u in sorted(rng.sample(position.units_of(power), -owed))]
    return []


@dataclass(frozen=True)
class DumbBotPlayer:
    """DumbBot (`dipsolve.algorithms.dumbbot`); it takes a few milliseconds and ignores the deadline."""

    weights: dumbbot.Weights = dumbbot.DEFAULT_WEIGHTS
    name: str = "dumbbot"

    def orders(self, position: Position, power: str, deadline_s: float,
               rng: random.Random) -> list[Order]:
        return dumbbot.orders(position, power, rng, self.weights)


@dataclass(frozen=True)
class GreedyBot:
    """The greedy center grabber (`dipsolve.algorithms.greedy`): every unit heads for the nearest
    supply center its power does not own; a few milliseconds, the deadline ignored."""

    name: str = "greedy"

    def orders(self, position: Position, power: str, deadline_s: float,
               rng: random.Random) -> list[Order]:
        return greedy.orders(position, power, rng)


#: the search methods of `dipsolve.api.solve`
DIPSOLVE_METHODS = api.METHODS

#: the plan term (issue 51, docs/strength.md): a seat whose power has gained no center for
#: `STALL_YEARS` years plans, before each movement search, the fewest years to `PLAN_GAIN`
#: more centers against the others' units holding (`dipsolve.solve_path`, within
#: `PLAN_SHARE` of the phase's time), and the provinces the plan's first phase moves into
#: gain `PLAN_WEIGHT` in its influence values: a first step one phase cannot see the worth of
STALL_YEARS = 2
PLAN_GAIN = 2
PLAN_SHARE = 0.25
PLAN_WEIGHT = 60.0


@dataclass(frozen=True)
class DipsolveBot:
    """dipsolve's search: `dipsolve.solve` with a `Strategy` (a search, a model of the
    opponents, an evaluation: `dipsolve.strategy`; the package's seat by default), given
    the whole deadline and a seed drawn from the seat's stream, in every phase (``solve``
    answers retreats and adjustments too).  With the `Learned` model (the default) the
    seat fits its policy of the others to the orders the table gives (`observe`), from
    the package's prior.  Its games are reproducible only as far as the search is: an
    anytime search stopped by the clock may answer differently."""

    strategy: Strategy = field(default_factory=Strategy)
    #: the clock its time per move is measured on: "wall" or "cpu" (`dipsolve.Limits`)
    clock: str = "wall"
    #: with `Learned`: the movement phases of this game seen, and per power we play, the
    #: others' policy learned from them (`dipsolve.search.learned.Table`; reset by `prepare`)
    #: a limit counted in work for each phase's search (`dipsolve.Limits.nodes`), the time
    #: limit then its safety net: the seat gives the same orders in the same position with
    #: the same seed, whatever the machine's load (None: the time limit alone)
    nodes: int | None = None
    #: power -> (probability, what it forbids): the others' policy conditioned on what they
    #: agreed, each keeping its word in a draw with that probability (a negotiating seat's
    #: trust in it: `dipsolve.algorithms.order_policy.Restrained`, `dipsolve.play.negotiation`)
    restraints: Mapping[str, tuple[float, Forbids]] = field(default_factory=dict, compare=False, repr=False)
    _table: list = field(default_factory=lambda: [Table()], compare=False, repr=False)
    #: per power we play, its center count in each year it ordered (the plan term's stall)
    _counts: list = field(default_factory=lambda: [{}], compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.strategy, Strategy):
            raise DipsolveArgumentError(f"a dipsolve bot plays a Strategy (dipsolve.strategy), not "
                                        f"{self.strategy!r}", expected="a Strategy")
        clock_named(self.clock)

    @property
    def method(self) -> str:
        """The search's method name (``agenda``, ``minimax``, ``expectimax``, ``cpsat``)."""
        return self.strategy.search.method

    @property
    def learns(self) -> bool:
        """Whether the seat fits its model of the others to the table's orders."""
        return isinstance(self.strategy.opponents, Learned)

    @property
    def name(self) -> str:
        """``dipsolve:METHOD``, then ``/EVALUATION`` and ``[MODEL]`` where not the
        default's, and ``[pick=sample]``: the results table's name."""
        s = self.strategy
        tail = "" if isinstance(s.evaluation, Influence) else f"/{s.evaluation.name}"
        model = "" if self.learns else f"[{s.opponents.name}]"
        pick = getattr(s.opponents, "pick", "best")
        extra = "" if pick == "best" else f"[pick={pick}]"
        return f"dipsolve:{self.method}{tail}{model}{extra}"

    def limits(self, time_limit: float, seed: int = 0) -> Limits:
        """The limits the bot gives `dipsolve.api.solve` with ``time_limit`` seconds (on the
        CPU clock, with one CP-SAT worker, whose thread's time counts), and its node
        limit (one CP-SAT worker too)."""
        workers = 1 if self.clock == "cpu" or self.nodes is not None else WALL_WORKERS
        return Limits(time_limit=time_limit, seed=seed, clock=self.clock, workers=workers, nodes=self.nodes)

    def with_limits(self, limits: Limits) -> DipsolveBot:
        """This seat as it plays in a game under ``limits`` (`dipsolve.play_game`): it
        searches on the game's clock and within its node limit a phase (the time a phase
        comes with each call, the seed of each search from the seat's stream); itself when
        they are already its own; a node limit of its own stays when the game sets
        none).  The copy shares the seat's learner (`observe`)."""
        nodes = limits.nodes if limits.nodes is not None else self.nodes
        if (self.clock, self.nodes) == (limits.clock, nodes):
            return self
        return dataclasses.replace(self, clock=limits.clock, nodes=nodes)

    def check(self) -> None:
        """Raise `BotUnavailable` unless the search can answer with this method and this
        evaluation: the method's model is loaded (OR-Tools for ``cpsat``: before the
        game, not in its first phase), then one short search of the 1901 start."""
        try:
            self.prepare()
            api.solve(Position.initial(), "Austria", self.strategy, limits=self.limits(0.2))
        except (ValueError, api.MethodUnavailable) as e:
            raise BotUnavailable(str(e)) from None

    def prepare(self) -> None:
        """Load the method's model before a game (OR-Tools for ``cpsat``: about a second,
        which a phase's time limit would otherwise have to cover), and the rules engine,
        compiled where numba is installed (`dipsolve.core.kernel.load`: about 1 s from
        numba's cache).

        Then everything alive is moved out of the cyclic garbage collector's reach
        (`gc.freeze`): the modules just loaded (numba, OR-Tools, numpy) are most of the
        process's objects, and a full collection that scans them took 70 to 90 ms of a
        phase's time (at 1 s a move, 6 of 823 phases ran over the limit by more than 10%;
        with the freeze, none of 834).  Objects made later are collected as usual; an
        object alive at the freeze that later becomes garbage in a cycle is never freed."""
        kernel.load()
        api.check_method(self.method)
        if isinstance(self.strategy.opponents, PhaseGame):     # its best responses are CP-SAT's
            api.check_method("cpsat")
        self._table[0] = Table()
        self._counts[0] = {}
        gc.collect()
        gc.freeze()

    def observe(self, position: Position, orders: Mapping[str, Sequence[Order]]) -> None:
        """Keep a movement phase's orders (with "learned"; the others ignore them), read
        at once by the learner of every power this seat has played: between phases, not
        in the next phase's time (`dipsolve.search.learned.Table.observe`)."""
        if self.learns:
            self._table[0].observe(position, orders)

    def policy(self, power: str, deadline: Deadline | None = None) -> OrderPolicy:
        """The policy fitted to the orders every other power gave in the movement phases
        observed so far, from the package's prior (the prior itself before any is
        observed); its fit stops at ``deadline``."""
        return self._table[0].policy(power, deadline)

    def stalled(self, position: Position, power: str) -> bool:
        """Whether ``power`` has gained no center in the last `STALL_YEARS` years, by the
        counts this seat has seen in the movement phases it ordered (kept here)."""
        seen = self._counts[0].setdefault(power, {})
        have = len(position.centers_of(power))
        seen[position.phase.year] = max(have, seen.get(position.phase.year, 0))
        before = seen.get(position.phase.year - STALL_YEARS)
        return before is not None and have <= before

    def planned(self, position: Position, power: str, limits: Limits) -> Strategy:
        """The strategy with the plan term: the fewest-years plan to `PLAN_GAIN` more
        centers against held units (`dipsolve.solve_path` within ``limits``), the
        provinces its first phase moves into worth `PLAN_WEIGHT` more to ``power``; the
        strategy as it is when no plan is found in time."""
        from ..algorithms.evaluation import values_for
        from ..models.path import solve_path
        have = len(position.centers_of(power))
        target = min(len(position.map.centers) // 2 + 1, have + PLAN_GAIN)
        if target <= have or not position.units_of(power):
            return self.strategy
        sol = solve_path(position, power, target, opposition="hold", limits=limits)
        into = {position.map.province_of[o.target] for o in (sol.plan[0].orders if sol.plan else ())
                if isinstance(o, Move)}
        if not into:
            return self.strategy
        evaluation = self.strategy.evaluation
        own = evaluation.values.get(power) if isinstance(evaluation, Influence) and evaluation.values else None
        values = values_for(power, position.map, own)
        for p in into:
            values[p] += PLAN_WEIGHT
        others = dict(evaluation.values or {}) if isinstance(evaluation, Influence) else {}
        allies = evaluation.allies if isinstance(evaluation, Influence) else None
        return dataclasses.replace(self.strategy, evaluation=Influence(values={**others, power: values},
                                                                       allies=allies))

    def orders(self, position: Position, power: str, deadline_s: float,
               rng: random.Random) -> list[Order]:
        seed = rng.randrange(1 << 30)
        if self.learns and position.phase.kind == "movement":
            s = self.strategy
            nodes = self.nodes
            # the plan term, once stalled (`STALL_YEARS`): measured and kept (docs/strength.md)
            if isinstance(s.evaluation, Influence) and self.stalled(position, power):
                # the plan's share of the phase, on the seat's clock or of its nodes
                tick = clock_named(self.clock)
                t0 = tick()
                share = dataclasses.replace(self.limits(PLAN_SHARE * deadline_s, seed), workers=1)
                if nodes is not None:
                    planning = max(1, int(PLAN_SHARE * nodes))
                    share, nodes = dataclasses.replace(share, nodes=planning), max(1, nodes - planning)
                s = self.planned(position, power, share)
                deadline_s = max(SEARCH_FLOOR * deadline_s, deadline_s - (tick() - t0))
            assert isinstance(s.opponents, Learned)
            call: Deadline | None = None
            if nodes is not None:
                # one work clock for the phase: the fit takes at most its share of the
                # nodes, the search the rest
                call = dataclasses.replace(self.limits(deadline_s, seed), nodes=nodes).deadline()
                policy = self.policy(power, call.part(LEARNING_SHARE))
                left = deadline_s
            else:
                # the search gets what is left, and never less than a sliver of the phase
                # (a power's first call reads the phases seen so far, 20-70 ms each, within
                # the fit's share; later phases are read by `observe`, between phases)
                tick = clock_named(self.clock)
                started = tick()
                policy = self.policy(power, Deadline(LEARNING_SHARE * deadline_s, clock=tick))
                left = max(SEARCH_FLOOR * deadline_s, deadline_s - (tick() - started))
            if self.restraints:
                policy = Restrained(policy.weights, restraints=self.restraints)
            fitted = dataclasses.replace(s, opponents=Sampled(predictor=policy, samples=s.opponents.samples))
            return list(api.solve(position, power, fitted, limits=self.limits(left, seed), deadline=call).orders)
        solution = api.solve(position, power, self.strategy, limits=self.limits(deadline_s, seed))
        return list(solution.orders)
