"""``solve(position, power, settings)``: the best orders for one power in any phase, by the
search's own methods, with their value, status and wall time as a `Solution`.

Movement phases, by ``settings.method``:

``agenda`` (default)
    Hall & Loeb's best-first agenda search (`agenda.AgendaSearch`, seed ``002_…`` 3.2–3.4)
    whose complete order sets are tested against the relevant opponents' orders (their
    likely sets, the sets worst for us, and holding: `opponents.build_model`), each set
    judged by its worst outcome — the seed's "paranoid conservative approach" (3.3) and
    the test of its worked example (4.2: a set "gets some points knocked off for the
    possible conflict in the Black Sea").  ``opponents="expected"`` judges by the mean
    instead.
``minimax`` / ``expectimax``
    Victorybot (seed ``004_…``): the agenda search proposes complete sets, each scored
    by factorized pruning (against each opponent alone, the others holding: worst case
    for minimax, the mean over equally likely opponent sets for expectimax); the best
    ``keep`` of them are then judged against every combination of the opponents' sets
    (paranoid min, or expectation).
``cpsat``
    the rules as a CP-SAT model.  It lives in `dipsolve.models.order_method` (the models
    sit above the search), so this module does not run it by itself: ``dipsolve.solve``
    (`dipsolve.api`) hands it in as a `Method`, a function of a `Task`, and any caller may
    hand in a method of its own the same way.

Opponent models (movement): the seeds' models are built by search (`opponents.build_model`:
each relevant opponent's likely and hostile sets and holding, equally weighted);
``opponents="sampled"`` takes instead joint draws of DumbBot's policy for every other
power (`opponents.sample_model`), weighted by how often each is drawn — the model the
bots of `dipsolve play` use.  With it the agenda values partial sets against the first
draw instead of everybody holding, and DumbBot's own orders for the power join the seeds;
the agenda's best set is then polished against every draw in the last `POLISH_SHARE` of
the time (`_polish`).

Retreat phases: every combination of retreats and disbands of the power's dislodged
units, the others' dislodged units disbanding; adjustment phases: every choice of
builds (or waives) or removals; each judged by the evaluation of the position that
follows.  So `solve` always answers, whatever the phase.

The clock: one `dipsolve.results.Deadline` for the whole call (``settings.limits.time_limit``
seconds from the call, or the one handed in), checked while the opponent model is built
or sampled, in every step of the agenda, in every test against the opponents and in
every choice of a retreat or adjustment; a small slice of it is kept to replay the
answer through the adjudicator.  The best set found so far is returned: ``status`` is
``optimal`` when every useful order set was judged (the answer is then the best there is
for this evaluation and opponent model, over the order sets the searches consider: no
supports or convoys of foreign units, no set that breaks a maxim of `legal.useless`),
``feasible`` when a beam or the factorized pruning left some out, ``timed out`` when the
clock stopped it.  With ``settings.limits.nodes`` the clock counts work instead of seconds
(`dipsolve.core.results.WorkClock`): every check above counts one node, the same call
with the same seed gives the same answer on every run, and ``node limit`` says the nodes
ran out first (``timed out``: the time limit, its safety net, came first).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Mapping, Sequence

from ..core.adjudicator import REFUSED, adjudicate
from ..core.errors import DipsolveInternalError, DipsolveRuleError, DipsolveSyntaxError, DipsolveUnavailable
from ..algorithms.evaluation import Evaluation, ProvinceValues, evaluator as named_evaluator
from ..algorithms.order_policy import OrderPolicy
from ..core.orders import Build, Disband, Hold, Move, Order, SupportHold, SupportMove, Waive
from ..core.position import Position
from ..core.results import Deadline, Limits, Result, Status, limited
from .agenda import AgendaSearch
from ..core.legal import backs, build_orders, legal_orders, useful_orders
from . import learned, phase_game
from .opponents import (MAX_SCENARIOS, Judge, OpponentModel, Opponents, SampledModel, build_model,
                        sample_model)
from .phase_game import BestResponseQuery, Oracle, PhaseEquilibrium

#: every method `dipsolve.solve` knows (``cpsat`` is wired by `dipsolve.api`)
METHODS = ("agenda", "minimax", "expectimax", "cpsat")
#: how a set is judged against the opponents' orders
OPPONENT_MODELS = ("learned", "equilibrium", "worst", "expected", "sampled", "hold")
#: the opponent model of `solve`, of a seat at `dipsolve play` and of the DAIDE client,
#: unless told otherwise: a best response to draws of a policy fitted to the orders the
#: others have given (`learned.Table`; the package's prior policy when none are known).
#: It knows nobody's program, as the phase game does not, and played better than the
#: phase game in every field measured (docs/strength.md)
DEFAULT_OPPONENTS = "learned"
#: how our move is chosen from the phase game's equilibrium
PICKS = phase_game.PICKS
PREDICTORS = ("dumbbot",)
STATUSES = tuple(Status)
#: the part of the time left spent building the opponent model
MODEL_SHARE = 0.25
#: Victorybot's k: candidates kept by factorized pruning for the joint test
KEEP = 5
#: joint draws of the predictor for ``opponents="sampled"``
SAMPLES = 8
#: with joint draws (``opponents="sampled"``, a seat's fitted policy): the share of the
#: agenda method's time kept to polish its best set against every draw (`_polish`)
POLISH_SHARE = 0.3
#: the limits of a `solve` call unless told otherwise: `Limits()` itself (5 s, seed 0,
#: one CP-SAT worker: the same answer for the same seed), the one default of every
#: solver's settings; more workers (``Limits(workers=2)``, ``solve --workers 2``) may
#: prove an optimum sooner, and race each other
DEFAULT_LIMITS = Limits()


class MethodUnavailable(DipsolveUnavailable):
    """The method cannot run here: ``cpsat`` asked of `dipsolve.search.solve` (which leaves
    it to `dipsolve.solve`), or its model could not be imported."""


@dataclass(frozen=True, kw_only=True)
class SolveSettings:
    """How `solve` looks for the orders: the search's internal record of one call, flat,
    every field with a default.  Users say what to play with a `strategy.Strategy` and how
    long with `Limits`; `dipsolve.solve` turns the two into this record
    (`strategy.settings`), which is not part of the public API.

    ``method``: one of `METHODS`.  ``evaluation``: "influence" (default), "centers"
    or a function ``(position, power) -> float``; ``values``: power -> province
    values for the influence evaluation; ``allies``: power -> ally -> how far the ally's
    control counts as the power's own (from 0 to 1).  ``opponents`` (movement): "equilibrium" plays
    the phase as a game among every power
    whose units can reach ours (`dipsolve.search.phase_game`): no model of who the others
    are, an equilibrium of their own interests, grown by best responses (the agenda
    search's, and for our power the CP-SAT order model's over every legal order set of
    ours, which `dipsolve.solve` hands in), our orders chosen by ``pick`` ("best": the
    best of our working set against the others' mixture; "sample": a draw from our own
    mixture).  ``lookahead``: retreats, builds and removals judged by the movement phase
    that follows (the default with the phase game).  "worst" or "expected" — how the agenda method judges a set against the
    opponents' orders (minimax is always "worst", expectimax "expected"), "sampled" (the mean over
    ``samples`` joint draws of the predictor, `SAMPLES` by default: a best response to a
    model of how the others play), or "hold" to assume everybody else holds.
    ``samples``: instead of candidate sets from searches, the opponent model is that many
    joint draws of the predictor (DumbBot unless told otherwise) for every other power,
    each drawn with its own random stream (``limits.seed`` varies them):
    `opponents.SampledModel`.  ``predictor``: "dumbbot" adds DumbBot's guess of each
    opponent's orders to the opponent model; an `OrderPolicy` (fitted to orders seen,
    `dipsolve.algorithms.order_policy`) is drawn instead of DumbBot.  ``beam``: keep at most this many entries on
    the agenda.  ``keep``: Victorybot's k.  ``trace``: keep the search's trace.
    ``opponents="learned"`` (the default of the agenda and cpsat methods,
    `DEFAULT_OPPONENTS`) is a best response to draws of a policy of the others' orders
    fitted to ``history`` — the game's earlier movement phases, each a position and every
    power's orders — from the package's prior (the prior alone without a history:
    `learned.Table`); retreats and adjustments are then judged with look-ahead, as with the
    phase game.  ``background``: orders assumed for the other powers (default: they hold); ``seeds``:
    complete order sets to start from (last turn's orders, suggestions).  ``limits``: the
    time limit of the whole call, the seed, and CP-SAT's workers (`DEFAULT_LIMITS`).

        >>> SolveSettings(method="minimax", limits=Limits(time_limit=2)).limits.time_limit
        2
        >>> try:
        ...     SolveSettings(method="chess")
        ... except DipsolveSyntaxError as e:
        ...     print(e)
        unknown method 'chess' (expected one of agenda, minimax, expectimax, cpsat)
    """

    method: str = "agenda"
    evaluation: str | Evaluation = "influence"
    values: Mapping[str, Mapping[str, float] | ProvinceValues] | None = None
    allies: Mapping[str, Mapping[str, float]] | None = None
    opponents: str | None = None
    pick: str = "best"
    lookahead: bool | None = None
    samples: int = 0
    predictor: str | OrderPolicy | None = None
    beam: int | None = None
    keep: int = KEEP
    trace: bool = False
    background: Mapping[str, Sequence[Order]] | None = None
    seeds: tuple[tuple[Order, ...], ...] = ()
    history: tuple[tuple[Position, Mapping[str, Sequence[Order]]], ...] = ()
    limits: Limits = DEFAULT_LIMITS

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise DipsolveSyntaxError(f"unknown method {self.method!r} (expected one of "
                                      f"{', '.join(METHODS)})", found=str(self.method),
                                      expected="a method")
        if self.opponents is not None and self.opponents not in OPPONENT_MODELS:
            raise DipsolveSyntaxError(f"opponents must be one of {', '.join(OPPONENT_MODELS)}, "
                                      f"not {self.opponents!r}", found=str(self.opponents))
        if self.pick not in PICKS:
            raise DipsolveSyntaxError(f"pick must be one of {', '.join(PICKS)}, not {self.pick!r}",
                                      found=str(self.pick))
        if self.opponents == "equilibrium" and self.method in ("minimax", "expectimax"):
            raise DipsolveRuleError(f"method {self.method!r} judges sets against the opponents' "
                                    f"candidate sets; the phase game (opponents 'equilibrium') is "
                                    f"a search of its own: use method agenda or cpsat",
                                    rule="equilibrium-method")
        if self.opponents == "learned" and self.predictor is not None:
            raise DipsolveRuleError("the learned model fits its own policy to the history: to give "
                                    "a policy, use opponents 'sampled' with it as the predictor",
                                    rule="learned-predictor")
        history = tuple(self.history)
        if any(not (isinstance(h, tuple) and len(h) == 2 and isinstance(h[0], Position)
                    and isinstance(h[1], Mapping)) for h in history):
            raise DipsolveSyntaxError("history must be pairs of a position and a mapping of each "
                                      "power's orders", expected="(Position, {power: orders})")
        if history and self.model != "learned":
            raise DipsolveRuleError(f"a history of orders is what the learned model fits; "
                                    f"opponents {self.model!r} does not read one",
                                    rule="history-model")
        object.__setattr__(self, "history", history)
        if self.opponents == "equilibrium" and (self.samples or self.predictor or self.background):
            raise DipsolveRuleError("the phase game (opponents 'equilibrium') takes no samples, "
                                    "predictor or background: it models no opponent's policy "
                                    "and chooses every player's orders itself",
                                    rule="equilibrium-model")
        if self.predictor is not None and not isinstance(self.predictor, OrderPolicy) \
                and self.predictor not in PREDICTORS:
            raise DipsolveSyntaxError(f"unknown predictor {self.predictor!r} (expected dumbbot)",
                                      found=str(self.predictor))
        for name, least in (("samples", 0), ("keep", 1), ("beam", 1)):
            n = getattr(self, name)
            if n is not None and (not isinstance(n, int) or n < least):
                raise DipsolveSyntaxError(f"{name} must be a whole number of at least {least}, "
                                          f"not {n!r}", found=str(n))
        if self.method == "cpsat" and self.background:
            raise DipsolveRuleError("method 'cpsat' takes the opponents' orders from its "
                                    "scenarios, not a background", rule="cpsat-background")
        object.__setattr__(self, "seeds", tuple(tuple(s) for s in self.seeds))

    @property
    def model(self) -> str:
        """The opponent model these settings play by: ``opponents``, or unless told, the
        learned model for the agenda and cpsat methods (`DEFAULT_OPPONENTS`; the seeds'
        searched model when samples, a predictor or a background ask for one), the worst
        case for minimax, the mean for expectimax."""
        if self.opponents is not None:
            return self.opponents
        if self.method in ("agenda", "cpsat") and not self.samples and not self.predictor \
                and not self.background:
            return DEFAULT_OPPONENTS
        return "expected" if self.method == "expectimax" else "worst"

    @property
    def equilibrium(self) -> bool:
        """Whether movement phases are played as a game (`phase_game`)."""
        return self.model == "equilibrium"

    @property
    def looks_ahead(self) -> bool:
        """Whether retreats and adjustments are judged by the movement that follows (by
        default with the learned model and the phase game)."""
        return self.model in ("equilibrium", "learned") if self.lookahead is None else self.lookahead

    @property
    def draws(self) -> int:
        """Joint draws of the predictor in the opponent model (0: a searched model)."""
        return self.samples or (SAMPLES if self.opponents == "sampled" else 0)

    @property
    def judged_by(self) -> str:
        """How a set is judged against the opponents: "worst", "expected" or "hold"."""
        how = {"minimax": "worst", "expectimax": "expected"}.get(self.method, self.opponents or "worst")
        return "expected" if how == "sampled" else how


@dataclass(frozen=True, kw_only=True)
class Solution(Result):
    """The answer of `solve`: orders for one power, how good they are, how they were found.

    ``objective`` is the value the method maximised (after its test against the
    opponents), ``bound`` an upper bound on it when one was proven (the value itself when
    ``optimal``), ``seconds`` the wall time of the whole call."""

    power: str
    phase: str                      # "S1901M"
    method: str
    orders: tuple[Order, ...]
    nodes: int                      # positions evaluated
    #: value of the chosen orders with every other power holding (movement phases)
    plain_value: float | None = None
    #: the opponents considered and how many order sets each (movement phases)
    opponents: Mapping[str, int] = field(default_factory=dict)
    trace: tuple[str, ...] = ()
    #: the phase game's answer (``opponents="equilibrium"``, movement phases): every
    #: player's mixed strategy, values and gains (its exploitability estimate)
    equilibrium: PhaseEquilibrium | None = None
    #: the opponent model assumed, in a few words (`SolveSettings.model`)
    model: str = ""

    def summary(self) -> str:
        """How good the orders are, in one line: ``value 916.667 (985 if everybody else
        holds), optimal, bound 916.667, 0.52 s, 1740 positions``."""
        value = self.objective if self.objective is not None else float("nan")
        plain = (f" ({self.plain_value:g} if everybody else holds)"
                 if self.plain_value is not None and abs(self.plain_value - value) > 1e-9 else "")
        bound = f", bound {self.bound:g}" if self.bound is not None else ""
        return f"value {value:g}{plain}, {self.status}{bound}, {self.seconds:.2f} s, {self.nodes} positions"

    def __str__(self) -> str:
        """A few lines for people: the power, phase and method, `summary`, the orders."""
        lines = [f"{self.power}, {self.phase} ({self.method}): {self.summary()}"]
        if self.equilibrium is not None:
            lines.append(f"{self.power}: the phase game of {len(self.equilibrium.players)} players, "
                         f"exploitability {self.equilibrium.exploitability:.1f}")
        if self.model:
            lines.append(f"{self.power}: opponents {self.model}")
        return "\n".join(lines + ([f"{self.power}: {o}" for o in self.orders] or [f"{self.power}: no orders"]))

    def __repr__(self) -> str:
        """Short (`to_json` has every field): ``<Solution Turkey S1901M agenda: optimal,
        value 916.667: A CON - BUL, A SMY - ARM, F ANK - BLA>``."""
        value = f"{self.objective:g}" if self.objective is not None else "none"
        return (f"<Solution {self.power} {self.phase} {self.method}: {self.status}, value {value}: "
                f"{', '.join(map(str, self.orders)) or 'no orders'}>")


#: a movement method: the orders for a `Task`
Method = Callable[["Task"], Solution]


def resolve_evaluator(evaluator: str | Evaluation = "influence",
                      values: Mapping[str, Mapping[str, float] | ProvinceValues] | None = None,
                      allies: Mapping[str, Mapping[str, float]] | None = None) -> Evaluation:
    """An evaluation function from a name (`dipsolve.evaluation.evaluator`) or itself."""
    if callable(evaluator):
        return evaluator
    return named_evaluator(evaluator, values, allies)


def _ending_before(deadline: Deadline, seconds: float) -> Deadline:
    """A deadline on the same clock that ends ``seconds`` before ``deadline`` does."""
    return Deadline(deadline.end - deadline.start - seconds, clock=deadline.clock,
                    start=deadline.start)


@dataclass(frozen=True)
class Task:
    """One power's orders to find in one position, as `solve` hands it to a method:
    the settings, the evaluation resolved, how sets are judged (``how``), the call's
    deadline (``call``: its elapsed time is the answer's ``seconds``) and the method's
    own (``deadline``: the call's less the slice kept for the replay)."""

    position: Position
    power: str
    settings: SolveSettings
    evaluate: Evaluation
    how: str
    call: Deadline
    deadline: Deadline

    @property
    def method(self) -> str:
        return self.settings.method

    def opponent_model(self) -> Opponents:
        """The opponent model the settings ask for, built within `MODEL_SHARE` of the
        time left: everybody holding, joint draws of the predictor, or the searched
        candidates of `opponents.build_model`."""
        s = self.settings
        if self.how == "hold":
            return OpponentModel(self.power, {})
        part = self.deadline.part(MODEL_SHARE)
        if s.draws:
            return sample_model(self.position, self.power, _sampler(s.predictor or "dumbbot"),
                                samples=s.draws, seed=s.limits.seed, deadline=part)
        guess = _predictor(s.predictor)
        likely, hostile = (2, 2) if self.how == "worst" else (3, 1)
        return build_model(self.position, self.power, self.evaluate, deadline=part,
                           likely=likely, hostile=hostile, radius=2, predictor=guess)

    def guidance(self, model: Opponents) -> tuple[Mapping[str, Sequence[Order]] | None,
                                                  list[tuple[Order, ...]]]:
        """The agenda's background and seeds.  With a sampled opponent model
        (`opponents.SampledModel`) the agenda values its partial sets against the first
        sample, not against everybody holding (its order follows what the others are
        likely to do), and two draws of the predictor's own orders for the power join
        the seeds.  Otherwise the background and seeds of the settings."""
        s = self.settings
        seeds = list(s.seeds)
        if not isinstance(model, SampledModel) or not model.samples:
            return s.background, seeds
        guide = dict(s.background or {})
        for p, orders in model.samples[0].items():
            guide.setdefault(p, orders)
        draw = _sampler(s.predictor or "dumbbot")
        for i in range(2):
            mine = tuple(draw(self.position, self.power,
                              random.Random(f"dipsolve-seed:{s.limits.seed}:{i}")))
            if mine and mine not in seeds:
                seeds.append(mine)
        return guide, seeds

    def finish(self, orders: Sequence[Order], value: float, status: Status, nodes: int,
               lines: Sequence[str] = (), model: Opponents | None = None, *,
               bound: float | None = None) -> Solution:
        """Replay the orders through the adjudicator (every one must be accepted as
        given: `dipsolve.errors.DipsolveInternalError` otherwise) and wrap them up."""
        orders = tuple(orders)
        check = {p: list(os) for p, os in (self.settings.background or {}).items()}
        check[self.power] = list(orders)
        outcome = adjudicate(self.position, check)
        bad = [r for r in outcome.results if r.power == self.power and r.order in orders
               and r.reason in REFUSED]
        if bad:
            raise DipsolveInternalError(f"solve produced an order the adjudicator rejects: {bad[0]}")
        plain = None
        if orders and self.position.phase.kind == "movement":
            plain = self.evaluate(outcome.next, self.power)
        if status == Status.OPTIMAL and bound is None:
            bound = value
        return Solution(status=status, objective=value, bound=bound, seconds=self.call.seconds(),
                        power=self.power, phase=self.position.phase.short, method=self.method,
                        orders=orders, nodes=nodes, plain_value=plain,
                        opponents=describe_sizes(model), trace=tuple(lines))


def solve(position: Position, power: str, settings: SolveSettings | None = None, *,
          method: Method | None = None, deadline: Deadline | None = None,
          oracle: Oracle | None = None) -> Solution:
    """The best orders for ``power`` in ``position`` within ``settings.limits.time_limit``
    seconds (default `SolveSettings`).

    ``method``: the function that orders a movement phase when ``settings.method`` is
    not one of this module's (``cpsat``: `dipsolve.solve` hands in
    `dipsolve.models.order_method.cpsat`); otherwise `MethodUnavailable`.
    ``deadline``: the call's deadline when it began earlier than this function (the
    caller's set-up counts), or runs on a clock of the caller's (a test's).
    ``oracle``: the phase game's best-response oracle for our power beside the agenda
    search (`dipsolve.solve` hands in the CP-SAT one; without it the agenda search alone).
    """
    settings = settings if settings is not None else SolveSettings()
    call = deadline if deadline is not None else settings.limits.deadline()
    settings, model = _assumed(settings, position, power, call)
    return dataclasses.replace(_solve(position, power, settings, method, call, oracle), model=model)


def _assumed(settings: SolveSettings, position: Position, power: str,
             call: Deadline) -> tuple[SolveSettings, str]:
    """The settings the search runs with, and the opponent model in a few words.  The
    learned model becomes, in a movement phase, a best response to draws of the policy
    fitted to ``settings.history`` (within `learned.LEARNING_SHARE` of the call); in
    retreats and adjustments, the look-ahead the phase game has."""
    model = settings.model
    if position.phase.kind != "movement":
        how = "the movement that follows" if settings.looks_ahead else "the position it leaves"
        if model == "learned":      # no opponent is modelled there; the look-ahead stays
            settings = dataclasses.replace(settings, opponents="hold", lookahead=settings.looks_ahead,
                                           history=())
        return settings, f"{model}: a retreat or adjustment judged by {how}"
    if model == "learned":
        if not position.units_of(power):
            return dataclasses.replace(settings, opponents="hold", history=()), "learned: no units"
        table = learned.Table(reversed(settings.history))     # the latest first, if time is short
        policy = table.policy(power, call.part(learned.LEARNING_SHARE))
        return (dataclasses.replace(settings, opponents="sampled", predictor=policy, history=()),
                table.describe(power))
    if model == "sampled" or settings.draws:
        who = "a fitted policy" if isinstance(settings.predictor, OrderPolicy) else "DumbBot's policy"
        return settings, f"{model}: a best response to {settings.draws} draws of {who}"
    return settings, {
        "equilibrium": "equilibrium: the phase game among the powers that interact, nobody's policy assumed",
        "worst": "worst: each set judged by its worst outcome against likely and hostile sets",
        "expected": "expected: each set judged by its mean outcome against likely and hostile sets",
        "hold": "hold: everybody else holds"}[model]


def _solve(position: Position, power: str, settings: SolveSettings, method: Method | None,
           call: Deadline, oracle: Oracle | None) -> Solution:
    run = method if method is not None else SEARCH_METHODS.get(settings.method)
    if settings.equilibrium:
        def run(task: Task) -> Solution:
            return run_phase_game(task, oracle)
    if run is None:
        raise MethodUnavailable(f"method {settings.method!r} is the CP-SAT order model of "
                                f"dipsolve.models: call dipsolve.solve (dipsolve.api.solve), "
                                f"which wires it, not dipsolve.search.solve")
    evaluate = resolve_evaluator(settings.evaluation, settings.values, settings.allies)
    total = call.end - call.start
    # keep a slice for the replay and the bookkeeping after the search
    task = Task(position, power, settings, evaluate, settings.judged_by, call,
                _ending_before(call, min(0.05 * total, 0.25)))
    kind = position.phase.kind
    if kind == "retreat":
        solution = _retreats(task)
    elif kind == "adjustment":
        solution = _adjustments(task)
    elif not position.units_of(power):
        solution = task.finish((), evaluate(position, power), Status.OPTIMAL, 0)
    else:
        solution = run(task)
    return limited(solution, call)


# -- movement ------------------------------------------------------------------------------

def _sampler(name: str | OrderPolicy) -> Callable[[Position, str, random.Random], Sequence[Order]]:
    """A predictor that draws its chance from a given stream, by name: ``"dumbbot"`` is
    DumbBot's order generator (`dipsolve.dumbbot.orders`); an `OrderPolicy` draws itself."""
    if isinstance(name, OrderPolicy):
        return name.draw
    if name == "dumbbot":
        from ..algorithms import dumbbot
        return dumbbot.orders
    raise DipsolveSyntaxError(f"unknown predictor {name!r} (expected dumbbot)", found=name)


def _predictor(name: str | OrderPolicy | None) -> Callable[[Position, str], Sequence[Order]] | None:
    """The same predictor with a fixed random seed, as one guess (None for no name)."""
    if name is None:
        return None
    draw = _sampler(name)
    return lambda position, power: draw(position, power, random.Random(0))


def run_agenda(task: Task) -> Solution:
    """The ``agenda`` method: the agenda search, its complete sets tested against the
    opponent model (or everybody holding)."""
    model = task.opponent_model()
    judge = Judge(task.position, task.power, task.evaluate, model,
                  background=task.settings.background, deadline=task.deadline)
    guide, seeds = task.guidance(model)
    polish = isinstance(model, SampledModel) and bool(model.samples) and task.how != "hold"
    search = AgendaSearch(task.position, task.power, task.evaluate, background=guide, seeds=seeds,
                          test=None if task.how == "hold" else judge.test(task.how),
                          beam_width=task.settings.beam,
                          deadline=task.deadline.part(1 - POLISH_SHARE) if polish else task.deadline,
                          trace=task.settings.trace)
    r = search.run()
    lines = describe_model(model, task.how) + r.trace if task.settings.trace else []
    status = Status.TIMED_OUT if r.timed_out else (Status.OPTIMAL if r.exhausted else Status.FEASIBLE)
    assert r.best is not None
    orders, value = r.best.orders, r.best.value
    if polish and orders:
        orders, value, changed = _polish(task.position, task.power, orders, value, judge.test(task.how),
                                         task.deadline, random.Random(task.settings.limits.seed))
        if changed:
            if status == Status.OPTIMAL:
                status = Status.FEASIBLE
            if task.settings.trace:
                lines.append(f"polished: {changed} unit order(s) changed, {r.best.value:g} -> {value:g}")
    return task.finish(orders, value, status, r.evaluations + judge.evaluations, lines, model)


def _polish(position: Position, power: str, orders: tuple[Order, ...], value: float,
            test: Callable[[tuple[Order, ...]], float | None], deadline: Deadline,
            rng: random.Random) -> tuple[tuple[Order, ...], float, int]:
    """The agenda's best set improved one unit's order at a time, each change judged by
    the full ``test`` (the mean over every draw, where the agenda values its partial sets
    against the first draw alone): the units in a random order, each trying a hold, its
    moves and its supports of what the set's other units do, every gain kept, until a
    round gains nothing or the deadline passes.  Returns the set, its tested value
    (``value`` as given when no test could be made) and how many changes were kept.

    Judged on 48 fresh draws of DumbBot's program in 122 positions of saved games, the
    polished answer was ahead in 34 and behind in 4 (a mean of +9.0 points, +-4.4); the
    default seat with it, +0.97 centers a game over 70 games
    (docs/history/2026-11-27-issue-24.md)."""
    first = test(orders)
    if first is None:
        return orders, value, 0
    value = first
    best = list(orders)
    changed = 0
    po = position.map.province_of
    units = {u.location: u for u in position.units_of(power)}
    # each unit's legal orders, once (the rounds try them again)
    options = {i: legal_orders(position, units[loc]) for i, loc in
               enumerate(getattr(o, "location", "") for o in best) if loc in units}
    improved = True
    while improved:
        improved = False
        turn = list(options)
        rng.shuffle(turn)
        for i in turn:
            # the others' orders as they stand at this unit's turn (its own change does not
            # alter which of its supports fit: a unit never supports itself)
            given = {getattr(o, "location", ""): o for o in best}
            for o in options[i]:
                if o == best[i] or not _fits(o, given, po):
                    continue
                if deadline.expired():
                    return tuple(best), value, changed
                trial = list(best)
                trial[i] = o
                v = test(tuple(trial))
                if v is None:
                    return tuple(best), value, changed
                if v > value + 1e-9:
                    best, value, improved = trial, v, True
                    changed += 1
    return tuple(best), value, changed


def _fits(order: Order, given: Mapping[str, Order], province_of: Mapping[str, str]) -> bool:
    """Whether ``order`` is worth a test beside the set's ``given`` orders: a hold or a
    move, or a support of what the supported unit of ours does (`dipsolve.core.legal.backs`;
    no convoys).  Of this order alone: `dipsolve.core.legal.useless` judges a whole set, and
    would also turn down a change that voids another unit's support of the order it replaces."""
    if isinstance(order, (Hold, Move)):
        return True
    if isinstance(order, (SupportHold, SupportMove)):
        other = given.get(order.supported_location)
        return other is not None and backs(order, other, province_of)
    return False


def run_victorybot(task: Task) -> Solution:
    """The ``minimax`` and ``expectimax`` methods: factorized pruning while the agenda
    proposes candidates, then the joint test of the best ``keep``."""
    model = task.opponent_model()
    judge = Judge(task.position, task.power, task.evaluate, model,
                  background=task.settings.background, deadline=task.deadline)
    guide, seeds = task.guidance(model)
    how, trace = task.how, task.settings.trace
    search = AgendaSearch(task.position, task.power, task.evaluate, background=guide, seeds=seeds,
                          test=lambda ours: judge.factorized(ours, how),
                          beam_width=task.settings.beam, deadline=task.deadline.part(0.7),
                          trace=trace)
    r = search.run()
    lines = describe_model(model, how) + r.trace if trace else []
    assert r.best is not None
    best_orders, best_value = r.best.orders, r.best.value
    kept = r.tested[:task.settings.keep]
    judged = 0
    if kept:
        if trace:
            exact = model.joint_size <= MAX_SCENARIOS
            lines.append(f"factorized pruning kept {len(kept)} of {len(r.tested)} tested sets; "
                         f"joint test over {model.joint_size} opponent scenarios"
                         + ("" if exact else f" (a stand-in of {len(model.scenarios(MAX_SCENARIOS))})"))
        best_joint = None
        for t in kept:
            v = judge.joint(t.orders, how)
            if v is None:
                break
            judged += 1
            if trace:
                lines.append(f"  joint {{{', '.join(map(str, t.orders))}}}: {v:g} (factorized {t.value:g})")
            if best_joint is None or v > best_joint:
                best_joint, best_orders = v, t.orders
        if best_joint is not None:
            best_value = best_joint
    timed_out = r.timed_out or judged < len(kept)
    complete = (r.exhausted and len(r.tested) <= task.settings.keep
                and model.joint_size <= MAX_SCENARIOS)
    status = Status.TIMED_OUT if timed_out else (Status.OPTIMAL if complete else Status.FEASIBLE)
    return task.finish(best_orders, best_value, status, r.evaluations + judge.evaluations,
                       lines, model)


def run_phase_game(task: Task, oracle: Oracle | None = None) -> Solution:
    """The phase as a game (`phase_game`): our orders from its equilibrium, with every
    player's strategy and the exploitability estimate in ``Solution.equilibrium``.

    The status is never "optimal": the equilibrium is approximate (its gains are in the
    answer).  ``objective`` is our expected value under the final mixtures, ``bound``
    the CP-SAT oracle's proven bound on our best response when it proved one."""
    from ..algorithms import dumbbot
    s = task.settings
    eq = phase_game.solve_phase_game(
        task.position, task.power, task.evaluate, deadline=task.deadline, seed=s.limits.seed,
        workers=s.limits.workers, heuristic=dumbbot.orders, seeds=s.seeds, pick=s.pick,
        oracle=oracle)
    lines: list[str] = []
    if s.trace:
        lines = describe_equilibrium(eq)
    me = eq.player(task.power)
    status = Status.TIMED_OUT if eq.timed_out else Status.FEASIBLE
    solution = task.finish(eq.orders, me.value, status, eq.profiles, lines,
                           bound=me.bound if me.bound is not None and me.bound >= me.value else None)
    sizes = {p.power: p.actions for p in eq.players if p.power != task.power}
    return dataclasses.replace(solution, equilibrium=eq, opponents=sizes)


def describe_equilibrium(eq: PhaseEquilibrium) -> list[str]:
    """The phase game's answer as trace lines: each player's strategy and gains."""
    lines = [f"phase game: {len(eq.players)} players, {eq.iterations} iterations, "
             f"{eq.profiles} profiles adjudicated, {eq.oracle_calls} best-response "
             f"searches; exploitability {eq.exploitability:.1f} within the working sets, "
             f"{eq.exploitability_found:.1f} with the best responses found"]
    for p in eq.players:
        lines.append(f"  {p.power} ({len(p.units)} units, {p.actions} order sets, {p.added} added "
                     f"by best responses): value {p.value:.1f}, gain {p.gain_in_sets:.1f} within "
                     f"the sets, {p.gain_found:.1f} found")
        for a, w in p.strategy[:5]:
            lines.append(f"    {w:5.1%} {{{', '.join(map(str, a))}}}")
    return lines


#: the methods of this module, by name
SEARCH_METHODS: dict[str, Method] = {"agenda": run_agenda, "minimax": run_victorybot,
                                     "expectimax": run_victorybot}


def describe_sizes(model: Opponents | None) -> dict[str, int]:
    """Opponent -> how many order sets the model gives it."""
    if model is None:
        return {}
    return {p: len(c) for p, c in sorted(model.candidates.items())}


def describe_model(model: Opponents, how: str) -> list[str]:
    """The opponent model as trace lines."""
    if not model.candidates:
        return ["opponents: everybody else holds"]
    lines = [f"opponents ({how} case over {model.joint_size} scenarios):"]
    for p, cands in sorted(model.candidates.items()):
        for os, w in cands:
            lines.append(f"  {p}: {{{', '.join(map(str, os))}}} (weight {w:.2f})")
    return lines


# -- retreats and adjustments --------------------------------------------------------------

#: with look-ahead: the share of the time for judging every choice by the evaluation,
#: and how many of the best are then judged by the movement phase that follows
STATIC_SHARE = 0.3
LOOKAHEAD_CHOICES = 4
#: the look-ahead's searches end at this share of the time (a retreat or a build needs
#: less thought than a movement; the rest of the time is not used)
LOOKAHEAD_END = 0.7


def _best_of(task: Task, choices: Iterable[Sequence[Order]],
             first: Sequence[Order] | None = None) -> Solution:
    """The best of ``choices`` (each a complete order set for the power) by the
    evaluation of the position that follows; anytime.  With look-ahead
    (`SolveSettings.looks_ahead`) when a movement phase follows, the best few by the
    evaluation are judged again by `_lookahead`: an offensive retreat, a disband to rebuild
    at home, a build that leaves a home center free, the fleet or the army, are valued by
    what they let us do next (Hall & Loeb 3.3; Loeb, *Disband and Build*)."""
    position, power, evaluate = task.position, task.power, task.evaluate
    ahead = task.settings.looks_ahead and _next_is_movement(position)
    deadline = task.deadline.part(STATIC_SHARE) if ahead else task.deadline
    best: tuple[Order, ...] | None = None
    best_v = float("-inf")
    n = 0
    seen: set[frozenset] = set()
    timed_out = False
    scored: list[tuple[float, tuple[Order, ...]]] = []
    head = [first] if first is not None else []
    for orders in itertools.chain(head, choices):
        key = frozenset(orders)
        if key in seen:
            continue
        if n and deadline.expired():
            timed_out = True
            break
        seen.add(key)
        v = evaluate(adjudicate(position, {power: list(orders)}).next, power)
        n += 1
        scored.append((v, tuple(orders)))
        if v > best_v:
            best, best_v = tuple(orders), v
    lines = []
    if task.settings.trace:
        lines.append(f"{n} order sets judged{' (stopped by the time limit)' if timed_out else ''}:")
        for v, os in sorted(scored, key=lambda x: -x[0])[:20]:
            lines.append(f"  {{{', '.join(map(str, os)) or 'no orders'}}} = {v:g}")
    status = Status.TIMED_OUT if timed_out else Status.OPTIMAL
    if ahead and len(scored) > 1:
        # the searches of the next phase are compared only among choices that leave us
        # the same number of units (a search over more units is less complete in the same
        # time, which would favour waiving and disbanding)
        ranked = [os for _, os in sorted(scored, key=lambda x: -x[0])]
        size = _units_after(ranked[0])
        top = [os for os in ranked if _units_after(os) == size][:LOOKAHEAD_CHOICES]
        judged = _lookahead(task, top)
        if judged:
            value, best = max(judged, key=lambda x: x[0])
            best_v = dict((os, v) for v, os in scored)[best]
            status = Status.FEASIBLE if not timed_out else status
            if task.settings.trace:
                lines.append(f"the best {len(top)} judged by the movement that follows "
                             f"(our best orders there, everybody else holding):")
                lines += [f"  {{{', '.join(map(str, os)) or 'no orders'}}} -> {v:g}"
                          for v, os in sorted(judged, key=lambda x: -x[0])]
    return task.finish(best or (), best_v, status, n, lines)


def _units_after(orders: Sequence[Order]) -> int:
    """How many units these retreat or adjustment orders add (builds) or take away
    (disbands, removals)."""
    return sum(isinstance(o, Build) for o in orders) - sum(isinstance(o, Disband) for o in orders)


def _next_is_movement(position: Position) -> bool:
    """Whether the phase after this one is a movement phase (the look-ahead's ground)."""
    return position.phase.kind == "adjustment" or (position.phase.kind == "retreat"
                                                   and position.phase.season == "Spring")


def _lookahead(task: Task, choices: Sequence[tuple[Order, ...]]) -> list[tuple[float, tuple[Order, ...]]]:
    """Each choice valued by our best orders in the movement phase that follows (the
    agenda search, everybody else holding, an equal part of the time left each)."""
    out = []
    d = task.deadline
    until = Deadline(LOOKAHEAD_END * (d.end - d.start) - d.elapsed(), clock=d.clock)
    for i, orders in enumerate(choices):
        if until.expired():
            break
        nxt = adjudicate(task.position, {task.power: list(orders)}).next
        if nxt.phase.kind != "movement" or not nxt.units_of(task.power):
            return []
        r = AgendaSearch(nxt, task.power, task.evaluate,
                         deadline=until.part(1.0 / (len(choices) - i))).run()
        if r.best is None or not r.tested:
            break
        out.append((r.best.value, orders))
    return out if len(out) == len(choices) else []


def _retreats(task: Task) -> Solution:
    options = list(useful_orders(task.position, task.power).values())
    if not options:
        return task.finish((), task.evaluate(task.position, task.power), Status.OPTIMAL, 0)
    return _best_of(task, (list(c) for c in itertools.product(*options)))


def _adjustments(task: Task) -> Solution:
    position, power = task.position, task.power
    n = position.adjustment(power)
    if n < 0:
        units = position.units_of(power)
        k = min(-n, len(units))
        greedy = _greedy_removals(task, k)
        removals = ([Disband(u.kind, u.location) for u in c] for c in itertools.combinations(units, k))
        return _best_of(task, removals, first=greedy)
    builds = [o for o in build_orders(position, power) if isinstance(o, Build)]
    if n == 0 or not builds:
        return task.finish((), task.evaluate(adjudicate(position, {}).next, power), Status.OPTIMAL, 0)
    m = position.map
    by_prov: dict[str, list[Order]] = {}
    for b in builds:
        by_prov.setdefault(m.province_of[b.location], []).append(b)
    provs = sorted(by_prov)
    k = min(n, len(provs))

    def choices() -> Iterator[list[Order]]:
        for size in range(k, -1, -1):
            for ps in itertools.combinations(provs, size):
                for bs in itertools.product(*(by_prov[p] for p in ps)):
                    yield list(bs) + [Waive()] * (n - size)
    return _best_of(task, choices())


def _greedy_removals(task: Task, k: int) -> list[Order]:
    """Remove the least valuable unit, one at a time (an answer at once, before the
    whole choice of C(n, k) is looked at)."""
    position, power = task.position, task.power
    chosen: list[Order] = []
    units = position.units_of(power)
    for _ in range(k):
        best: Order | None = None
        best_v = float("-inf")
        for u in units:
            o = Disband(u.kind, u.location)
            if o in chosen:
                continue
            if best is not None and task.deadline.expired():
                break
            v = task.evaluate(adjudicate(position, {power: chosen + [o]}).next, power)
            if v > best_v:
                best, best_v = o, v
        if best is None:
            break
        chosen.append(best)
    return chosen
