"""``solve(position, power, method=..., time_limit=...)``: the best orders for one power in
any phase, with their value, status, wall time and (optionally) the search's trace.

Movement phases, by ``method``:

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
    `dipsolve.models.order_model.select_orders`: the rules as a CP-SAT model, over the
    same opponent scenarios (max-min, or expected), warm-started from a short agenda
    search.  The model maximises a linear value of the outcome (for the influence
    evaluation, its occupation part); unless that is the evaluation itself, its answer
    is re-scored with the evaluation and the warm start is kept when it scores better.

Opponent models (movement): the seeds' models are built by search (`opponents.build_model`:
each relevant opponent's likely and hostile sets and holding, equally weighted);
``opponents="sampled"`` takes instead joint draws of DumbBot's policy for every other
power (`opponents.sample_model`), weighted by how often each is drawn — the model the
bots of `dipsolve play` use.  With it the agenda values partial sets against the first
draw instead of everybody holding, and DumbBot's own orders for the power join the seeds.

Retreat phases: every combination of retreats and disbands of the power's dislodged
units, the others' dislodged units disbanding; adjustment phases: every choice of
builds (or waives) or removals; each judged by the evaluation of the position that
follows.  So `solve` always answers, whatever the phase.

The clock: every search stops at ``time_limit`` seconds after the call (a small slice
is kept to replay the answer through the adjudicator) and returns the best set found so
far: ``status`` is ``"optimal"`` when every useful order set was judged (the answer is
then the best there is for this evaluation and opponent model, over the order sets the
searches consider: no supports or convoys of foreign units, no set that breaks a maxim
of `legal.useless`), ``"feasible"`` when a beam or the factorized pruning left some
out, ``"timed out"`` when the clock stopped it.
"""

from __future__ import annotations

import concurrent.futures
import importlib
import importlib.util
import itertools
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from ..adjudicator import REFUSED, adjudicate
from ..errors import DipsolveUnavailable
from ..evaluation import Evaluation, ProvinceValues, evaluator as named_evaluator
from ..orders import Build, Disband, Order, Waive
from ..position import Position
from .agenda import AgendaSearch
from ..legal import build_orders, useful_orders
from .opponents import (MAX_JOINT, MAX_SCENARIOS, Judge, OpponentModel, SampledModel, build_model,
                        sample_model)

METHODS = ("agenda", "minimax", "expectimax", "cpsat")
STATUSES = ("optimal", "feasible", "infeasible", "timed out")
#: the part of the time limit spent building the opponent model
MODEL_SHARE = 0.25
#: Victorybot's k: candidates kept by factorized pruning for the joint test
KEEP = 5
#: joint draws of the predictor for ``opponents="sampled"``
SAMPLES = 8


class MethodUnavailable(DipsolveUnavailable):
    """The method's model is not installed (``cpsat`` without `dipsolve.models.order_model`)."""


@dataclass(frozen=True)
class Solution:
    """The answer of `solve`: orders for one power, how good they are, how they were found."""

    power: str
    phase: str                      # "S1901M"
    orders: tuple[Order, ...]
    value: float                    # the evaluation the method maximised (after its test)
    bound: float | None             # an upper bound on it, when one was proven
    status: str                     # optimal / feasible / infeasible / timed out
    method: str
    wall_time: float                # seconds
    nodes: int                      # positions evaluated
    trace: tuple[str, ...] = ()
    #: value of the chosen orders with every other power holding (the agenda's value)
    plain_value: float | None = None
    #: the opponents considered and how many order sets each (movement phases)
    opponents: Mapping[str, int] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"power": self.power, "phase": self.phase, "method": self.method,
                "orders": [str(o) for o in self.orders], "value": self.value,
                "bound": self.bound, "status": self.status, "wall_time": round(self.wall_time, 4),
                "nodes": self.nodes, "plain_value": self.plain_value,
                "opponents": dict(self.opponents)}


def resolve_evaluator(evaluator: str | Evaluation = "influence",
                      values: Mapping[str, Mapping[str, float] | ProvinceValues] | None = None
                      ) -> Evaluation:
    """An evaluation function from a name (`dipsolve.evaluation.evaluator`) or itself."""
    if callable(evaluator):
        return evaluator
    return named_evaluator(evaluator, values)


def solve(position: Position, power: str, method: str = "agenda", time_limit: float = 5.0,
          evaluator: str | Evaluation = "influence", *,
          values: Mapping[str, Mapping[str, float] | ProvinceValues] | None = None,
          trace: bool = False, opponents: str | None = None,
          background: Mapping[str, Sequence[Order]] | None = None,
          seeds: Iterable[Iterable[Order]] = (), beam_width: int | None = None,
          keep: int = KEEP, predictor: str | None = None, samples: int = 0,
          seed: int = 0) -> Solution:
    """The best orders for ``power`` in ``position`` within ``time_limit`` seconds.

    ``evaluator``: "influence" (default), "centers", "dumbbot" or a function
    ``(position, power) -> float``; ``values``: power -> province values for the influence
    evaluation.  ``opponents`` (movement): "worst" or "expected" — how the agenda method
    judges a set against the opponents' orders ("worst" by default; minimax is always
    "worst", expectimax "expected"), "sampled" (the mean over ``samples`` joint draws
    of the predictor, `SAMPLES` by default: a best response to a model of how the
    others play), or "hold" to assume everybody else holds.
    ``background``: orders assumed for the other powers (default: they hold);
    ``seeds``: complete order sets to start from (last turn's orders, suggestions).
    ``predictor``: "dumbbot" adds DumbBot's guess of each opponent's orders to the
    opponent model.  ``samples``: instead of candidate sets from searches, the opponent
    model is that many joint draws of the predictor (DumbBot unless told otherwise) for
    every other power, each drawn with its own random stream (``seed`` varies them):
    `opponents.SampledModel`.
    """
    start = time.monotonic()
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (expected one of {', '.join(METHODS)})")
    if time_limit <= 0:
        raise ValueError(f"time limit must be positive, not {time_limit}")
    evaluate = resolve_evaluator(evaluator, values)
    deadline = start + time_limit
    # keep a slice for the replay and the bookkeeping after the search
    end = deadline - min(0.05 * time_limit, 0.25)
    kind = position.phase.kind
    if kind == "retreat":
        return _finish(position, power, method, start, *_retreats(position, power, evaluate, end, trace))
    if kind == "adjustment":
        return _finish(position, power, method, start, *_adjustments(position, power, evaluate, end, trace))
    if not position.units_of(power):
        return _finish(position, power, method, start, (), evaluate(position, power), "optimal", 0, [], {})
    if opponents == "sampled":           # minimax: the worst draw; the others: the mean
        samples = samples or SAMPLES
    how = {"minimax": "worst", "expectimax": "expected"}.get(method, opponents or "worst")
    if how == "sampled":
        how = "expected"
    if how not in ("worst", "expected", "hold"):
        raise ValueError(f"opponents must be worst, expected, sampled or hold, not {how!r}")
    if samples < 0:
        raise ValueError(f"samples must be 0 or more, not {samples}")
    predict = (predictor, samples, seed)
    if method == "cpsat":
        return _cpsat(position, power, evaluate, start, end, how, trace,
                      background, seeds, beam_width, predict)
    if method == "agenda":
        return _agenda(position, power, evaluate, start, end, how, trace, background, seeds,
                       beam_width, predict)
    return _victorybot(position, power, evaluate, start, end, how, trace, background, seeds,
                       beam_width, keep, method, predict)


# -- movement ------------------------------------------------------------------------------

def _model(position: Position, power: str, evaluate: Evaluation, start: float, end: float,
           how: str, predict: tuple = (None, 0, 0)) -> OpponentModel | SampledModel:
    if how == "hold":
        return OpponentModel(power, {})
    predictor, samples, seed = predict
    now = time.monotonic()
    model_end = now + MODEL_SHARE * max(0.0, end - now)
    if samples:
        return sample_model(position, power, _sampler(predictor or "dumbbot"), samples=samples,
                            seed=seed, deadline=model_end)
    guess = _predictor(predictor)
    if how == "worst":
        return build_model(position, power, evaluate, deadline=model_end, likely=2, hostile=2,
                           radius=2, predictor=guess)
    return build_model(position, power, evaluate, deadline=model_end, likely=3, hostile=1,
                       radius=2, predictor=guess)


def _sampler(name: str):
    """A predictor that draws its chance from a given stream, by name: ``"dumbbot"`` is
    DumbBot's order generator (`dipsolve.dumbbot.orders`)."""
    if name == "dumbbot":
        from .. import dumbbot
        return dumbbot.orders
    raise ValueError(f"unknown predictor {name!r} (expected dumbbot)")


def _predictor(name: str | None):
    """The same predictor with a fixed random seed, as one guess (None for no name)."""
    if name is None:
        return None
    draw = _sampler(name)
    return lambda position, power: draw(position, power, random.Random(0))


def _agenda(position: Position, power: str, evaluate: Evaluation, start: float, end: float,
            how: str, trace: bool, background, seeds, beam_width, predictor) -> Solution:
    model = _model(position, power, evaluate, start, end, how, predictor)
    judge = Judge(position, power, evaluate, model, background=background, deadline=end)
    guide, seeds = _guidance(position, power, model, background, seeds, predictor)
    search = AgendaSearch(position, power, evaluate, background=guide, seeds=seeds,
                          test=None if how == "hold" else judge.test(how), beam_width=beam_width,
                          deadline=end, trace=trace)
    r = search.run()
    lines = _model_lines(model, how) + r.trace if trace else []
    status = "timed out" if r.timed_out else ("optimal" if r.exhausted else "feasible")
    assert r.best is not None
    return _finish(position, power, "agenda", start, r.best.orders, r.best.value, status,
                   r.evaluations + judge.evaluations, lines, _sizes(model),
                   evaluate=evaluate, background=background)


def _victorybot(position: Position, power: str, evaluate: Evaluation, start: float, end: float,
                how: str, trace: bool, background, seeds, beam_width, keep: int,
                method: str, predictor) -> Solution:
    model = _model(position, power, evaluate, start, end, how, predictor)
    judge = Judge(position, power, evaluate, model, background=background, deadline=end)
    guide, seeds = _guidance(position, power, model, background, seeds, predictor)
    # factorized pruning while the agenda proposes candidates, then the joint test
    search_end = time.monotonic() + 0.7 * max(0.0, end - time.monotonic())
    search = AgendaSearch(position, power, evaluate, background=guide, seeds=seeds,
                          test=lambda ours: judge.factorized(ours, how),
                          beam_width=beam_width, deadline=search_end, trace=trace)
    r = search.run()
    lines = _model_lines(model, how) + r.trace if trace else []
    assert r.best is not None
    best_orders, best_value = r.best.orders, r.best.value
    kept = r.tested[:keep]
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
    complete = r.exhausted and len(r.tested) <= keep and model.joint_size <= MAX_SCENARIOS
    status = "timed out" if timed_out else ("optimal" if complete else "feasible")
    return _finish(position, power, method, start, best_orders, best_value, status,
                   r.evaluations + judge.evaluations, lines, _sizes(model),
                   evaluate=evaluate, background=background)


def _guidance(position: Position, power: str, model, background, seeds, predict):
    """With a sampled opponent model (`opponents.SampledModel`) the agenda values its
    partial sets against the first sample, not against everybody holding (its order
    follows what the others are likely to do), and two draws of the predictor's own
    orders for ``power`` join the seeds.  Otherwise the background and seeds as given."""
    seeds = [tuple(s) for s in seeds]
    if not isinstance(model, SampledModel) or not model.samples:
        return background, seeds
    guide = dict(background or {})
    for p, orders in model.samples[0].items():
        guide.setdefault(p, orders)
    draw = _sampler(predict[0] or "dumbbot")
    for i in range(2):
        mine = tuple(draw(position, power, random.Random(f"dipsolve-seed:{predict[2]}:{i}")))
        if mine and mine not in seeds:
            seeds.append(mine)
    return guide, seeds


def _sizes(model: OpponentModel) -> dict[str, int]:
    return {p: len(c) for p, c in sorted(model.candidates.items())}


def _model_lines(model: OpponentModel, how: str) -> list[str]:
    if not model.candidates:
        return ["opponents: everybody else holds"]
    lines = [f"opponents ({how} case over {model.joint_size} scenarios):"]
    for p, cands in sorted(model.candidates.items()):
        for os, w in cands:
            lines.append(f"  {p}: {{{', '.join(map(str, os))}}} (weight {w:.2f})")
    return lines


_LOADING: list[concurrent.futures.Future] = []


def _order_model() -> concurrent.futures.Future:
    """`dipsolve.models.order_model`, imported in a background thread (OR-Tools takes a
    second or more to load, which must not break a short time limit): the future of the
    module.  Raises `MethodUnavailable` at once when the module is not installed."""
    name = "dipsolve.models.order_model"
    if _LOADING:                     # loading, or loaded, by our own thread
        return _LOADING[0]
    if name in sys.modules:          # imported by the program itself
        done: concurrent.futures.Future = concurrent.futures.Future()
        done.set_result(sys.modules[name])
        return done
    if importlib.util.find_spec(name) is None:
        raise MethodUnavailable(f"method 'cpsat' is not available: {name} is not installed")
    if not _LOADING:
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="dipsolve-load")
        _LOADING.append(pool.submit(importlib.import_module, name))
        pool.shutdown(wait=False)
    return _LOADING[0]


def _cpsat(position: Position, power: str, evaluate: Evaluation, start: float,
           end: float, how: str, trace: bool, background, seeds, beam_width, predictor) -> Solution:
    """The CP-SAT order model (`dipsolve.models.order_model.select_orders`) over the
    opponent model's scenarios, warm-started from a short agenda search's best set."""
    if background:
        raise ValueError("method 'cpsat' takes the opponents' orders from its scenarios, not a background")
    loading = _order_model()
    model = _model(position, power, evaluate, start, end, how, predictor)
    judge = Judge(position, power, evaluate, model, deadline=end)
    guide, seeds = _guidance(position, power, model, None, seeds, predictor)
    # a quarter of what is left warm-starts the model with the agenda search's best set
    hint_end = time.monotonic() + 0.25 * max(0.0, end - time.monotonic())
    search = AgendaSearch(position, power, evaluate, background=guide, seeds=seeds, beam_width=beam_width,
                          test=None if how == "hold" else judge.test(how), deadline=hint_end)
    hint = search.run().best
    try:
        module = loading.result(timeout=max(0.0, end - time.monotonic() - 0.05))
    except concurrent.futures.TimeoutError:
        module = None
    if hint is not None and (module is None or end - time.monotonic() < 0.05):
        # no time left for the model (loading OR-Tools alone can take a second or two)
        lines = _model_lines(model, how) + ["no time left for the CP-SAT model: the warm start stands"] \
            if trace else []
        return _finish(position, power, "cpsat", start, hint.orders, hint.value, "timed out",
                       search.expansions + judge.evaluations, lines, _sizes(model),
                       evaluate=evaluate)
    scenarios = model.scenarios(MAX_JOINT) if model.candidates else [(1.0, {})]
    # the model linearizes `evaluate` itself (first order around the all-hold board,
    # exact for one moving unit), values file included
    try:
        sel = module.select_orders(
            position, power, scenarios=[(w, {p: list(os) for p, os in sc.items()}) for w, sc in scenarios],
            evaluate=evaluate, objective="expected" if how == "expected" else "maxmin",
            time_limit=max(0.01, end - time.monotonic()), hint=list(hint.orders) if hint else None)
    except module.ParadoxError as e:
        if hint is None:
            raise
        # the opponents' orders alone may make a convoy paradox, which the model does not
        # encode: the agenda search's answer stands
        lines = _model_lines(model, how) + [f"the CP-SAT model cannot take these scenarios ({e}): "
                                            f"the warm start stands"] if trace else []
        return _finish(position, power, "cpsat", start, hint.orders, hint.value, "feasible",
                       search.expansions + judge.evaluations, lines, _sizes(model),
                       evaluate=evaluate)
    # the model proves its bound for the value it optimizes; that is the evaluation
    # itself only when the evaluation is linear (``exact``).  Otherwise the model's
    # answer is one candidate: the warm start is kept when the evaluation, aggregated
    # over the same scenarios, says it is better.
    orders, value = tuple(sel.orders), float(sel.score)
    kept_hint = False
    if not sel.exact and hint is not None:
        outcomes = [(w, judge.outcome(tuple(hint.orders), {p: tuple(os) for p, os in sc.items()}))
                    for w, sc in scenarios]
        hint_value = (sum(w * v for w, v in outcomes) / sum(w for w, _ in outcomes)
                      if how == "expected" else min(v for _, v in outcomes))
        if hint_value > value + 1e-9:
            orders, value, kept_hint = tuple(hint.orders), hint_value, True
    status = sel.status if sel.exact or sel.status != "optimal" else "feasible"
    lines: list[str] = []
    if trace:
        lines = _model_lines(model, how)
        if hint is not None:
            lines.append(f"agenda search (warm start): {{{', '.join(map(str, hint.orders))}}} "
                         f"= {hint.value:g}")
        lines.append(f"CP-SAT over {len(scenarios)} scenarios: {sel.value_name} {sel.value:g} "
                     f"({sel.objective}), bound {sel.bound:g}, {sel.status}; "
                     f"{sel.variables} variables, {sel.constraints} constraints, {sel.seconds:.2f} s")
        lines += [f"  left out: {u} {o}: {why}" for u, o, why in sel.excluded]
        lines.append(f"evaluation of the model's answer ({'exact' if sel.exact else 'rescored'}): "
                     f"{sel.score:g}" + (f"; the warm start is better ({value:g}) and is kept"
                                         if kept_hint else ""))
    return _finish(position, power, "cpsat", start, orders, value, status,
                   search.expansions + judge.evaluations, lines, _sizes(model),
                   bound=float(sel.bound) if sel.exact and sel.status == "optimal" else None,
                   evaluate=evaluate)


# -- retreats and adjustments --------------------------------------------------------------

def _best_of(position: Position, power: str, evaluate: Evaluation, end: float, trace: bool,
             choices: Iterable[Sequence[Order]], first: Sequence[Order] | None = None):
    """The best of ``choices`` (each a complete order set for ``power``) by the
    evaluation of the position that follows; anytime."""
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
        if n and time.monotonic() >= end:
            timed_out = True
            break
        seen.add(key)
        v = evaluate(adjudicate(position, {power: list(orders)}).next, power)
        n += 1
        scored.append((v, tuple(orders)))
        if v > best_v:
            best, best_v = tuple(orders), v
    lines = []
    if trace:
        lines.append(f"{n} order sets judged{' (stopped by the time limit)' if timed_out else ''}:")
        for v, os in sorted(scored, key=lambda x: -x[0])[:20]:
            lines.append(f"  {{{', '.join(map(str, os)) or 'no orders'}}} = {v:g}")
    return (best or (), best_v, "timed out" if timed_out else "optimal", n, lines, {})


def _retreats(position: Position, power: str, evaluate: Evaluation, end: float, trace: bool):
    options = list(useful_orders(position, power).values())
    if not options:
        return ((), evaluate(position, power), "optimal", 0, [], {})
    choices = (list(c) for c in itertools.product(*options))
    return _best_of(position, power, evaluate, end, trace, choices)


def _adjustments(position: Position, power: str, evaluate: Evaluation, end: float, trace: bool):
    n = position.adjustment(power)
    if n < 0:
        units = position.units_of(power)
        k = min(-n, len(units))
        greedy = _greedy_removals(position, power, evaluate, k, end)
        choices = ([Disband(u.kind, u.location) for u in c] for c in itertools.combinations(units, k))
        return _best_of(position, power, evaluate, end, trace, choices, first=greedy)
    builds = [o for o in build_orders(position, power) if isinstance(o, Build)]
    if n == 0 or not builds:
        return ((), evaluate(adjudicate(position, {}).next, power), "optimal", 0, [], {})
    m = position.map
    by_prov: dict[str, list[Order]] = {}
    for b in builds:
        by_prov.setdefault(m.province_of[b.location], []).append(b)
    provs = sorted(by_prov)
    k = min(n, len(provs))

    def choices():
        for size in range(k, -1, -1):
            for ps in itertools.combinations(provs, size):
                for bs in itertools.product(*(by_prov[p] for p in ps)):
                    yield list(bs) + [Waive()] * (n - size)
    return _best_of(position, power, evaluate, end, trace, choices())


def _greedy_removals(position: Position, power: str, evaluate: Evaluation, k: int,
                     end: float) -> list[Order]:
    """Remove the least valuable unit, one at a time (an answer at once, before the
    whole choice of C(n, k) is looked at)."""
    chosen: list[Order] = []
    units = position.units_of(power)
    for _ in range(k):
        best, best_v = None, float("-inf")
        for u in units:
            o = Disband(u.kind, u.location)
            if o in chosen:
                continue
            if best is not None and time.monotonic() >= end:
                break
            v = evaluate(adjudicate(position, {power: chosen + [o]}).next, power)
            if v > best_v:
                best, best_v = o, v
        if best is None:
            break
        chosen.append(best)
    return chosen


# -- the answer ----------------------------------------------------------------------------

def _finish(position: Position, power: str, method: str, start: float, orders: Sequence[Order],
            value: float, status: str, nodes: int, lines: list[str], sizes: Mapping[str, int], *,
            plain: float | None = None, bound: float | None = None,
            background: Mapping[str, Sequence[Order]] | None = None,
            evaluate: Evaluation | None = None) -> Solution:
    """Replay the orders through the adjudicator (every one must be accepted as given)
    and wrap them up."""
    orders = tuple(orders)
    check = dict(background or {})
    check[power] = list(orders)
    outcome = adjudicate(position, check)
    bad = [r for r in outcome.results if r.power == power and r.order in orders
           and r.reason in REFUSED]
    if bad:
        raise AssertionError(f"solve produced an order the adjudicator rejects: {bad[0]}")
    if plain is None and evaluate is not None and position.phase.kind == "movement":
        plain = evaluate(outcome.next, power)
    if status == "optimal" and bound is None:
        bound = value
    return Solution(power=power, phase=position.phase.short, orders=orders, value=value,
                    bound=bound, status=status, method=method,
                    wall_time=time.monotonic() - start, nodes=nodes, trace=tuple(lines),
                    plain_value=plain, opponents=dict(sizes))
