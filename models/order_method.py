"""The ``cpsat`` method of `dipsolve.solve`: the CP-SAT order model over the search's
opponent scenarios, warm-started by a short agenda search.

`cpsat` is a `dipsolve.search.Method` (a function of a `dipsolve.search.Task`) that
`dipsolve.api.solve` hands to `dipsolve.search.solve` for ``method="cpsat"``: the models
sit above the search, so the search never imports them.  It builds the same opponent
model as the agenda method, runs the agenda search on a quarter of what is left for a
warm start, then asks `order_model.select_orders` (max-min, or expected with
``opponents="expected"``) in the time left.

The model maximises a linear value of the outcome (for the influence evaluation, its
first-order linearization around the board where everybody holds); unless that is the
evaluation itself (``exact``), its answer is re-scored with the evaluation and the warm
start is kept when it scores better.

OR-Tools takes about a second to import (0.9–2.2 s measured on a loaded two-core
machine), and the call's deadline covers the import.  This module does not import it
until the model is needed: when it is not loaded yet and less than `LOAD_SECONDS` /
`LOAD_SHARE` seconds are left, the model is not tried at all and the agenda method's
answer is returned with the status ``timed out`` (the trace says why).
"""

from __future__ import annotations

import dataclasses
import sys
from types import ModuleType

from dipsolve.core.adjudicator import adjudicate
from dipsolve.core.legal import useful_orders
from dipsolve.core.orders import Hold, unit_key
from dipsolve.core.results import Deadline, Limits, Status
from dipsolve.search.agenda import AgendaSearch
from dipsolve.search.methods import (MethodUnavailable, Solution, Task, describe_model,
                                     run_agenda)
from dipsolve.search.opponents import MAX_JOINT, Judge
from dipsolve.search.phase_game import BestResponse, BestResponseQuery

#: OR-Tools' import on an idle machine, in seconds
LOAD_SECONDS = 1.0
#: the import may take at most this part of the time left (so it is tried with 2.5 s left)
LOAD_SHARE = 0.4
#: the part of the time left (after the opponent model) for the warm start's agenda search
HINT_SHARE = 0.25

_MODULE = "dipsolve.models.order_model"


def loaded() -> bool:
    """Whether the order model (and OR-Tools with it) is imported already."""
    return _MODULE in sys.modules or "ortools.sat.python.cp_model" in sys.modules


def load() -> ModuleType:
    """Import the order model now (`MethodUnavailable` when it cannot be imported)."""
    try:
        from dipsolve.models import order_model
    except ImportError as e:         # OR-Tools missing or broken in this installation
        raise MethodUnavailable(f"method 'cpsat' is not available: {e}") from None
    return order_model


def _no_time_to_load(deadline: Deadline) -> bool:
    """Whether too little time is left to import OR-Tools (`LOAD_SECONDS` /
    `LOAD_SHARE`).  Never under a node limit (`Limits.nodes`): the import is no work of
    the search's, and whether the model is tried must not depend on the machine (only
    the safety net, the time limit, pays for it)."""
    return not deadline.counts_work and deadline.remaining() * LOAD_SHARE < LOAD_SECONDS


def cpsat(task: Task) -> Solution:
    """The orders for ``task`` by the CP-SAT order model (see the module notes)."""
    trace = task.settings.trace
    if not loaded() and _no_time_to_load(task.deadline):
        s = run_agenda(task)
        note = (f"no time to load OR-Tools (about {LOAD_SECONDS:g} s) in the "
                f"{task.call.end - task.call.start:g} s allowed: the agenda search's answer stands")
        return dataclasses.replace(s, status=Status.TIMED_OUT, bound=None,
                                   trace=s.trace + (note,) if trace else ())
    order_model = load()
    position, power, evaluate, how = task.position, task.power, task.evaluate, task.how
    model = task.opponent_model()
    judge = Judge(position, power, evaluate, model, deadline=task.deadline)
    guide, seeds = task.guidance(model)
    search = AgendaSearch(position, power, evaluate, background=guide, seeds=seeds,
                          beam_width=task.settings.beam,
                          test=None if how == "hold" else judge.test(how),
                          deadline=task.deadline.part(HINT_SHARE))
    hint = search.run().best
    assert hint is not None
    nodes = search.expansions + judge.evaluations
    scenarios = model.scenarios(MAX_JOINT) if model.candidates else [(1.0, {})]
    # the model linearizes `evaluate` itself (first order around the all-hold board,
    # exact for one moving unit), values file included
    try:
        sel = order_model.select_orders(
            position, power, scenarios=[(w, {p: list(os) for p, os in sc.items()}) for w, sc in scenarios],
            evaluate=evaluate, aggregate="expected" if how == "expected" else "maxmin",
            hint=list(hint.orders), limits=task.settings.limits, deadline=task.deadline)
    except order_model.ParadoxError as e:
        # the opponents' orders alone may make a convoy paradox, which the model does not
        # encode: the agenda search's answer stands
        why = [f"the CP-SAT model cannot take these scenarios ({e}): the warm start stands"]
        return task.finish(hint.orders, hint.value, Status.FEASIBLE, nodes,
                           describe_model(model, how) + why if trace else [], model)
    # the model proves its bound for the value it optimizes; that is the evaluation
    # itself only when the evaluation is linear (``exact``).  Otherwise the model's
    # answer is one candidate: the warm start is kept when the evaluation, aggregated
    # over the same scenarios, says it is better.
    orders, value = tuple(sel.orders), float(sel.score)
    kept_hint = False
    if not sel.exact:
        outcomes = [(w, judge.outcome(tuple(hint.orders), {p: tuple(os) for p, os in sc.items()}))
                    for w, sc in scenarios]
        hint_value = (sum(w * v for w, v in outcomes) / sum(w for w, _ in outcomes)
                      if how == "expected" else min(v for _, v in outcomes))
        if hint_value > value + 1e-9:
            orders, value, kept_hint = tuple(hint.orders), hint_value, True
    status = sel.status if sel.exact or sel.status != Status.OPTIMAL else Status.FEASIBLE
    lines: list[str] = []
    if trace:
        lines = describe_model(model, how)
        lines.append(f"agenda search (warm start): {{{', '.join(map(str, hint.orders))}}} "
                     f"= {hint.value:g}")
        objective = "none" if sel.objective is None else f"{sel.objective:g}"
        bound = "none" if sel.bound is None else f"{sel.bound:g}"
        lines.append(f"CP-SAT over {len(scenarios)} scenarios: {sel.value_name} {objective} "
                     f"({sel.aggregate}), bound {bound}, {sel.status}; "
                     f"{sel.variables} variables, {sel.constraints} constraints, {sel.seconds:.2f} s")
        lines += [f"  left out: {u} {o}: {why}" for u, o, why in sel.excluded]
        lines.append(f"evaluation of the model's answer ({'exact' if sel.exact else 'rescored'}): "
                     f"{sel.score:g}" + (f"; the warm start is better ({value:g}) and is kept"
                                         if kept_hint else ""))
    proven = sel.exact and sel.status == Status.OPTIMAL and sel.bound is not None
    return task.finish(orders, value, status, nodes, lines, model,
                       bound=float(sel.bound) if proven and sel.bound is not None else None)


def best_response(query: BestResponseQuery) -> BestResponse | None:
    """The phase game's best-response oracle (`dipsolve.search.phase_game`): ``query.power``'s
    best orders for its queried units over *every* useful order set (the CP-SAT order
    model, `order_model.select_orders`, aggregating the scenarios by their weighted mean),
    warm-started from ``query.hint``.

    The model maximizes a linearization of the evaluation unless the evaluation is linear
    (``centers``), so its answer is re-scored by the adjudicator with the real evaluation
    and the hint is returned instead when the hint scores better: the answer is never
    worse than the best action known.  ``bound`` is the model's proven bound only when
    the model's value is the evaluation itself and it proved optimality.  None when
    OR-Tools is not loaded and there is no time to load it, or the scenarios hold a convoy
    paradox the model does not encode."""
    if not loaded() and _no_time_to_load(query.deadline):
        return None
    order_model = load()
    position, power = query.position, query.power
    useful = useful_orders(position, power)
    candidates = {u: list(useful.get(u, [])) or [Hold(u.kind, u.location)] for u in query.units}
    scenarios = [(w, {p: list(os) for p, os in sc.items()}) for w, sc in query.scenarios]
    try:
        sel = order_model.select_orders(position, power, candidates=candidates, scenarios=scenarios,
                                        evaluate=query.evaluate, aggregate="expected",
                                        hint=list(query.hint),
                                        limits=Limits(workers=query.workers, seed=query.seed),
                                        deadline=query.deadline)
    except order_model.ParadoxError:
        return None
    keep = {(u.kind, u.location) for u in query.units}
    orders = tuple(o for o in sel.orders if unit_key(o) in keep)
    value = float(sel.score)
    hint_value = query.hint_value
    if hint_value is None:
        hint_value = sum(w * query.evaluate(adjudicate(position, {**sc, power: list(query.hint)}).next,
                                            power)
                         for w, sc in scenarios) / (sum(w for w, _ in scenarios) or 1.0)
    if hint_value > value + 1e-9:
        return BestResponse(tuple(query.hint), hint_value, None, "cpsat (hint kept)")
    proven = sel.exact and sel.status == Status.OPTIMAL and sel.bound is not None
    return BestResponse(orders, value, float(sel.bound) if proven and sel.bound is not None else None,
                        "cpsat")
