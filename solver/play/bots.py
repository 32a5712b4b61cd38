"""The players of `dipsolve play`: one protocol, three kinds of bot.

A bot is anything with ``name`` and ``orders(position, power, deadline_s, rng)``: the
orders ``power`` gives in the position's phase (movement, retreat or adjustment),
decided within ``deadline_s`` seconds, with every random choice drawn from ``rng`` so a
seeded game replays exactly (a dipsolve seat with a node limit, `DipsolveBot.nodes`,
replays exactly too); and, if it needs one, ``prepare()``, called once before a
game outside the clock; and, if it learns from the table, ``observe(position, orders)``,
called after every phase with every power's orders (all public once a phase is
adjudicated).  The Victorybot seed (``004_…``, "Experimental design")
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
from ..algorithms.order_policy import OrderPolicy, PolicyLearner, default_prior
from ..core import kernel
from ..core.errors import DipsolveSyntaxError, DipsolveUnavailable
from ..core.orders import Build, Disband, Order, Waive
from ..core.position import Position
from ..core.results import WALL_WORKERS, Deadline, Limits, clock_named
from ..core.legal import build_orders, legal_orders
from . import SEAT_DEFAULT


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
#: with "learned": the share of a phase's time the policy's fit may take at most, and the
#: least share left to the search (the phase then overruns by at most that much)
LEARNING_SHARE = 0.25
SEARCH_FLOOR = 0.05


@dataclass(frozen=True)
class DipsolveBot:
    """dipsolve's search, `dipsolve.api.solve` with this method, evaluation and opponent
    model, given the whole deadline and a seed drawn from the seat's stream, in every
    phase (``solve`` answers retreats and adjustments too).  Its games are reproducible
    only as far as the search is: an anytime search stopped by the clock may answer
    differently."""

    method: str = "agenda"
    #: the position evaluation the search maximises (`dipsolve.algorithms.evaluation.evaluator`)
    evaluator: str = "influence"
    #: the opponent model: "learned" (`SEAT_DEFAULT`) is a best response to draws of a
    #: policy fitted to the orders the others have given in this game
    #: (`dipsolve.algorithms.order_policy`), from a prior fitted to dipsolve's own
    #: self-play (`prior`; the prior alone in the first phase); the others are
    #: ``solve``'s ``opponents``: "equilibrium" plays each movement phase as a game among
    #: the powers that interact, knowing nobody's policy;
    #: "sampled" is a best response to draws of DumbBot's policy for every other power;
    #: "worst", "expected" and "hold" are the search-built models of the seeds
    opponents: str = SEAT_DEFAULT
    #: the clock its time per move is measured on: "wall" or "cpu" (`dipsolve.Limits`)
    clock: str = "wall"
    #: the phase game's best-response oracle and how our move is picked (``solve``'s)
    oracle: str = "cpsat"
    pick: str = "best"
    #: with "learned": start from the package's prior policy and pull the fit toward it
    #: (`dipsolve.algorithms.order_policy.default_prior`), or (False) from every legal
    #: order alike, playing the phase game until a movement phase has been seen.  The
    #: prior predicts a table's first phases better; in play it is level with the seat
    #: without it (+0.29 centers a game, 95% −0.92 to +1.50, 70 paired games against six
    #: DumbBots at 2 s to 1910: docs/history/2026-11-27-issue-24.md, "The issue's run with
    #: the prior")
    prior: bool = True
    #: a limit counted in work for each phase's search (`dipsolve.Limits.nodes`), the time
    #: limit then its safety net: the seat gives the same orders in the same position with
    #: the same seed, whatever the machine's load (None: the time limit alone)
    nodes: int | None = None
    #: with "learned": this game's movement phases seen (position, orders), and per power
    #: we play, its learner and how many of them it has read (reset by `prepare`)
    _seen: list = field(default_factory=list, compare=False, repr=False)
    _learners: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def name(self) -> str:
        tail = "" if self.evaluator == "influence" else f"/{self.evaluator}"
        model = "" if self.opponents == SEAT_DEFAULT else f"[{self.opponents}]"
        extra = "".join(f"[{k}={v}]" for k, v, d in (("oracle", self.oracle, "cpsat"),
                                                       ("pick", self.pick, "best")) if v != d)
        if not self.prior and self.opponents == "learned":
            extra += "[no prior]"
        return f"dipsolve:{self.method}{tail}{model}{extra}"

    def settings(self, time_limit: float, seed: int = 0) -> api.SolveSettings:
        """What the bot asks of `dipsolve.api.solve` with ``time_limit`` seconds (on the
        CPU clock, with one CP-SAT worker, whose thread's time counts), and its node
        limit (one CP-SAT worker too)."""
        workers = 1 if self.clock == "cpu" or self.nodes is not None else WALL_WORKERS
        opponents = "equilibrium" if self.opponents == "learned" else self.opponents
        return api.SolveSettings(method=self.method, evaluation=self.evaluator,
                                 opponents=opponents, oracle=self.oracle, pick=self.pick,
                                 limits=Limits(time_limit=time_limit, seed=seed, clock=self.clock,
                                               workers=workers, nodes=self.nodes))

    def check(self) -> None:
        """Raise `BotUnavailable` unless the search can answer with this method and this
        evaluation: the method's model is loaded (OR-Tools for ``cpsat``: before the
        game, not in its first phase), then one short search of the 1901 start."""
        from ..algorithms.evaluation import evaluator
        try:
            evaluator(self.evaluator)
            self.prepare()
            api.solve(Position.initial(), "Austria", self.settings(0.2))
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
        if self.opponents in ("equilibrium", "learned") and self.oracle == "cpsat":
            api.check_method("cpsat")
        self._seen.clear()
        self._learners.clear()
        gc.collect()
        gc.freeze()

    def observe(self, position: Position, orders: Mapping[str, Sequence[Order]]) -> None:
        """Keep a movement phase's orders (with "learned"; the others ignore them), read
        at once by the learner of every power this seat has played: between phases, not
        in the next phase's time.  A power missing from ``orders`` is not learned from
        (its units did not necessarily hold: a DAIDE server may report a seat its own
        orders only); one present with fewer orders than units held with the rest."""
        if self.opponents == "learned" and position.phase.kind == "movement":
            self._seen.append((position, {p: tuple(os) for p, os in orders.items()}))
            for power in list(self._learners):
                self._read(power)

    def _read(self, power: str) -> tuple[PolicyLearner, int, int]:
        """``power``'s learner, having read every phase kept so far; how many it has
        read, and how many it had read at its last fit."""
        learner, read, fitted = self._learners.get(power) or (
            PolicyLearner(prior=default_prior() if self.prior else None), 0, 0)
        for position, orders in self._seen[read:]:
            # only the powers whose orders were reported: a DAIDE server may report a seat
            # its own orders only, and the others' units did not all hold
            learner.observe(position, orders,
                            [p for p in position.powers() if p != power and p in orders])
        self._learners[power] = entry = (learner, len(self._seen), fitted)
        return entry

    def policy(self, power: str, deadline: Deadline | None = None) -> OrderPolicy | None:
        """The policy fitted to the orders every other power gave in the movement phases
        observed so far, from the package's prior (`default_prior`: the prior itself
        before any is observed); without the prior, from every legal order alike, and
        None before the first.  Its fit stops at ``deadline``."""
        learner, read, fitted = self._read(power)
        if fitted < read:
            learner.fit(deadline=deadline)   # once for whatever is new, from the last fit
            self._learners[power] = (learner, read, read)
        return learner.policy if learner.observed or self.prior else None

    def orders(self, position: Position, power: str, deadline_s: float,
               rng: random.Random) -> list[Order]:
        seed = rng.randrange(1 << 30)
        if self.opponents == "learned" and position.phase.kind == "movement" and self.nodes is not None:
            # one work clock for the phase: the fit takes at most its share of the nodes, the
            # search the rest (the phases seen are read outside it, as below)
            settings = self.settings(deadline_s, seed)
            call = settings.limits.deadline()
            policy = self.policy(power, call.part(LEARNING_SHARE))
            if policy is not None:
                settings = dataclasses.replace(settings, opponents="sampled", predictor=policy)
            return list(api.solve(position, power, settings, deadline=call).orders)
        if self.opponents == "learned" and position.phase.kind == "movement":
            tick = clock_named(self.clock)
            started = tick()
            policy = self.policy(power, Deadline(LEARNING_SHARE * deadline_s, clock=tick))
            if policy is not None:
                # the search gets what is left, and never less than a sliver of the phase
                # (a power's first call reads every phase seen so far, 20-70 ms each, in
                # this phase's time: the clock bounds only the fit; later phases are read
                # by `observe`, between phases)
                left = max(SEARCH_FLOOR * deadline_s, deadline_s - (tick() - started))
                settings = dataclasses.replace(self.settings(left, seed), opponents="sampled",
                                               predictor=policy)
                return list(api.solve(position, power, settings).orders)
        solution = api.solve(position, power, self.settings(deadline_s, seed))
        return list(solution.orders)
