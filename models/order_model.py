"""Order selection as a CP-SAT model of the movement rules themselves.

Hall & Loeb (seed ``002_…``, section 3) choose a power's orders by search: generate
order sets, adjudicate each against enemy orders (3.3), keep the best by the position
evaluation (4.1).  Victorybot (seed ``004_…``) does the same with minimax and expectimax
over opponents' order sets.  This module asks the question once, as one optimization
model: *which orders, one per unit, give the best evaluation of the resulting position,
in the worst (max-min) or on average (expected) over these opponent scenarios?*

The model
---------
* one choice per unit of the power: exactly one of its candidate orders (by default
  `dipsolve.core.legal.useful_orders`: every legal order less supports and convoys of
  other powers' units);
* each opponent scenario is a fixed order set for the other powers (units without an
  order hold) with a weight;
* for each scenario, the movement rules as constraints (`movement_rules.Resolution`:
  attack, hold, defend and prevent strengths, support cut and dislodged supporters,
  head-to-head battles, bounces, beleaguered garrisons, no self-dislodgement, convoy
  routes, circular movement), which fix where every unit stands afterwards;
* the objective: a `LinearValue` of each scenario's outcome (the minimum over the
  scenarios, or their weighted mean).

What it optimizes, exactly
--------------------------
A `LinearValue` is a sum over the board after the movement: a value for each unit
standing in a province (by the unit's power and the province), for each unit dislodged
(by its power), for each unit of the board before ending in a given place (or
dislodged), and for each supply center the power owns once the phase is over (after a
Fall movement a center belongs to the unit standing in it, as
`dipsolve.algorithms.evaluation.owned_centers` has it).  The model is exact for such a value:
`LinearValue.centers` is `dipsolve.algorithms.evaluation.centers` itself.

The influence evaluation of Hall & Loeb 4.1 (`dipsolve.algorithms.evaluation.influence`) is not
such a sum: the share of an empty province depends on every unit's distance to it.
For it, and for any other ``(position, power)`` evaluation, the model maximizes
`LinearValue.first_order`: the evaluation linearized around the board where everybody
holds (its value there, plus for each unit and each place it could end the change that
unit alone would make); exact when at most one unit ends the phase elsewhere, an
estimate when several do (their effects on the same empty provinces are added as if
alone).  `LinearValue.influence`, the *occupation part* of influence (the provinces
stood in, 100 per center owned, 50 per other center stood in after a Spring move), is
available too.  In every case the answer is re-scored with the real evaluator
(``score``) and ``exact`` says whether the two are the same function.

Checked
-------
Every answer is replayed through `dipsolve.core.adjudicator.adjudicate` against every
scenario before it is returned: the units that moved, the units dislodged, every unit's
final location and the linear value must be what the model predicted, or `ModelError`
is raised (a bug, never a user error).  `predict` is the model with every order fixed:
a second adjudicator, tested against the first on thousands of random phases and on
the DATC cases.

Excluded
--------
Convoy paradoxes (DATC 4.A.2; see `movement_rules`): candidates that could close a
cycle of convoy dependencies with the scenarios' orders are left out (supports first,
then attacks on the convoying fleet, then convoys, then the army's move), and listed
in ``excluded``; a cycle among a scenario's fixed orders alone raises `ParadoxError`.
`predict` raises `ParadoxError` for an order set that may form one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence, Union

from ortools.sat.python import cp_model

from dipsolve.core.adjudicator import Outcome, Reason, adjudicate
from dipsolve.core.rules import CONVOY, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, Reading, read_order, unit_orders
from dipsolve.core.errors import DipsolveInternalError, DipsolveRuleError, DipsolveSyntaxError
from dipsolve.algorithms.evaluation import centers as centers_evaluation
from dipsolve.algorithms.evaluation import influence as influence_evaluation
from dipsolve.algorithms.evaluation import owned_centers, values_for
from dipsolve.core.map import Map
from dipsolve.core.orders import Hold, Move, Order, unit_key
from dipsolve.core.position import Position, Unit
from dipsolve.models import stopping
from dipsolve.models.cpsat import cpsat_solver
from dipsolve.core.results import Deadline, Limits, Result, Status, TimeUp, limited

from .movement_rules import Lit, Logic, Model, ParadoxError, Resolution, convoy_cycles

#: how the scenarios' values make the objective: the worst of them, or their weighted mean
AGGREGATES = ("maxmin", "expected")

Evaluation = Callable[[Position, str], float]
Scenario = Mapping[str, Sequence[Order]]

__all__ = ["LinearValue", "ModelError", "OrderSelection", "ParadoxError", "Prediction",
           "ScenarioResult", "predict", "select_orders"]


class ModelError(DipsolveInternalError):
    """The model and the adjudicator disagree, or the model has no solution: a bug."""


# -- the value the model maximizes ------------------------------------------------------------

@dataclass(frozen=True)
class LinearValue:
    """A value of the board after a movement phase that is a plain sum, so the model
    optimizes it exactly: for every unit standing in a province after the movement,
    ``occupy[(unit's power, province)]``; for every unit dislodged,
    ``dislodged[unit's power]``; for every supply center ``power`` owns once the phase
    is over, ``own[center]``; for each unit of the position before the phase,
    ``unit_at[(unit, where it ends)]`` (the location it stands in after the movement, or
    None when it was dislodged); plus ``constant``."""

    power: str
    occupy: Mapping[tuple[str, str], float] = field(default_factory=dict)
    own: Mapping[str, float] = field(default_factory=dict)
    dislodged: Mapping[str, float] = field(default_factory=dict)
    unit_at: Mapping[tuple[Unit, str | None], float] = field(default_factory=dict)
    constant: float = 0.0
    name: str = "linear"

    def __call__(self, outcome: Outcome) -> float:
        """The value of an adjudicated movement phase (`dipsolve.core.adjudicator.Outcome`)."""
        nxt = outcome.next
        po = nxt.map.province_of
        total = self.constant
        for u in nxt.units:
            total += self.occupy.get((u.power, po[u.location]), 0.0)
        for u in [d.unit for d in nxt.dislodged] + list(outcome.destroyed):
            total += self.dislodged.get(u.power, 0.0)
        for c, owner in owned_centers(nxt).items():
            if owner == self.power:
                total += self.own.get(c, 0.0)
        if self.unit_at:
            total += sum(self.unit_at.get(key, 0.0) for key in _where_units_end(outcome).items())
        return total

    @classmethod
    def centers(cls, power: str, game_map: Map | None = None) -> "LinearValue":
        """`dipsolve.algorithms.evaluation.centers`: the supply centers the power owns once the
        phase is over (exactly), on ``game_map`` (the standard map when None)."""
        from dipsolve.core.position import map_of
        return cls(power, own={c: 1.0 for c in map_of(game_map, None).centers}, name="centers")

    @classmethod
    def influence(cls, position: Position, power: str,
                  values: Mapping[str, float] | None = None, *, center_bonus: float = 100.0,
                  occupied_bonus: float = 50.0) -> "LinearValue":
        """The occupation part of `dipsolve.algorithms.evaluation.influence` for the phase after
        ``position``: each province the power stands in is worth its value (full
        control), each center it owns ``center_bonus``, and after a Spring move each
        other center it stands in ``occupied_bonus`` (4.1).  Left out: the shares of
        empty provinces and the 4.3 refinements."""
        m = position.map
        vals = values_for(power, m, values)
        spring = position.phase.season == "Spring"
        owner = position.owner
        occupy = {}
        for p, v in vals.items():
            bonus = occupied_bonus if spring and p in m.centers and owner.get(p) != power else 0.0
            if v + bonus:
                occupy[power, p] = v + bonus
        return cls(power, occupy=occupy, own={c: center_bonus for c in m.centers},
                   name="influence (occupation part)")

    @classmethod
    def first_order(cls, position: Position, power: str, evaluate: Evaluation,
                    name: str = "evaluation",
                    places: Mapping[Unit, Iterable[str]] | None = None,
                    deadline: Deadline | None = None) -> "LinearValue":
        """Any evaluation, linearized around the board on which every unit holds
        (`dipsolve.core.adjudicator.adjudicate` with no orders): the value of that board, plus
        for each unit and each place it could end the phase (each destination of its
        legal moves, or dislodged) the change in ``evaluate`` when that unit alone ends
        there.  Where the unit would land on another unit, the change is measured with
        that unit gone (so a dislodgement and the attacker's arrival add up exactly).
        Exact when at most one unit ends the phase elsewhere than it began (or when a
        unit only replaces the one it dislodged); otherwise a first-order estimate:
        two units' effects on the shares of the same empty province are added as if
        alone.  With `dipsolve.algorithms.evaluation.influence` it keeps what the occupation part
        leaves out: the shares of empty provinces.  ``places``: unit -> the destinations
        of the moves it may be ordered (default: its legal moves); a unit left out is
        taken to hold.  ``deadline``: checked for every unit (`dipsolve.core.results.TimeUp`
        when it has passed)."""
        from dipsolve.core.legal import legal_orders
        m = position.map
        po = m.province_of
        still = adjudicate(position, {}).next       # everybody holds
        base = evaluate(still, power)
        fall = position.phase.season == "Fall"
        occupant = still.unit_in

        def board(without: Unit, add: Unit | None = None, gone: Unit | None = None) -> Position:
            units = [u for u in still.units if u != without and u != gone]
            owner = dict(still.owner)
            if fall:
                # a center a unit stood on only because it held is not taken if it leaves
                for u in (without, gone):
                    if u is not None and po[u.location] in m.centers:
                        c = po[u.location]
                        if position.owner.get(c) is None:
                            owner.pop(c, None)
                        else:
                            owner[c] = position.owner[c]
                if add is not None and po[add.location] in m.centers:
                    owner[po[add.location]] = add.power
            if add is not None:
                units.append(add)
            return Position.build(still.phase, units, owner, game_map=m)

        alone: dict[Unit, float] = {}

        def gone(u: Unit) -> float:
            if u not in alone:
                alone[u] = evaluate(board(u), power) - base
            return alone[u]

        if places is None:
            places = {u: [o.target for o in legal_orders(position, u) if type(o) is Move]
                      for u in position.units}
        unit_at: dict[tuple[Unit, str | None], float] = {}
        for u, targets in places.items():
            if deadline is not None:
                deadline.check()
            for target in sorted(set(targets)):
                loc = target if u.kind == "F" else po[target]
                other = occupant.get(po[loc])
                moved = Unit(u.power, u.kind, loc)
                if other is None:
                    unit_at[u, loc] = evaluate(board(u, moved), power) - base
                else:
                    # measured against the board without the unit standing there
                    unit_at[u, loc] = (evaluate(board(u, moved, other), power) - base) - gone(other)
        # a unit can be dislodged only where some unit may move in
        for u in position.units:
            if u in alone or any(po[t] == po[u.location] for ts in places.values() for t in ts):
                if deadline is not None:
                    deadline.check()
                unit_at[u, None] = gone(u)
        return cls(power, own={}, unit_at={k: v for k, v in unit_at.items() if v},
                   constant=base, name=f"{name} (first order)")


# -- what the model says happens --------------------------------------------------------------

@dataclass(frozen=True)
class Prediction:
    """The outcome of a movement phase as the model predicts it."""

    moved: frozenset[Unit]
    dislodged: frozenset[Unit]
    #: the units on the board after the movement (the dislodged ones left out), sorted
    units: tuple[Unit, ...]

    @classmethod
    def of(cls, outcome: Outcome) -> "Prediction":
        """The same facts read off the adjudicator's outcome."""
        position = outcome.position
        po = position.map.province_of
        unit_in = position.unit_in
        moved = frozenset(unit_in[po[unit_key(r.order)[1]]] for r in outcome.results
                          if r.reason == Reason.MOVED)
        dislodged = frozenset([d.unit for d in outcome.next.dislodged] + list(outcome.destroyed))
        return cls(moved, dislodged, tuple(outcome.next.units))

    def lines(self) -> list[str]:
        """Human-readable: what moved and what was dislodged."""
        out = [f"moved: {', '.join(f'{u.power} {u}' for u in sorted(self.moved)) or 'nothing'}"]
        out.append(f"dislodged: {', '.join(f'{u.power} {u}' for u in sorted(self.dislodged)) or 'nothing'}")
        return out


@dataclass(frozen=True)
class ScenarioResult:
    """The chosen orders against one opponent scenario."""

    weight: float
    predicted: Prediction
    #: the `LinearValue` of the predicted outcome (the model's objective term; None when
    #: the time ran out before the evaluation was linearized)
    value: float | None
    #: the real evaluator on the position the adjudicator makes of it
    score: float


@dataclass(frozen=True, kw_only=True)
class OrderSelection(Result):
    """The model's answer: orders for every unit of ``power``.

    ``status``: "optimal" (proven best for the model's objective), "feasible" (the best
    found when time ran out), "timed out" (no solution found: ``orders`` are the hint, or
    holds); never "infeasible": every order set has an outcome, so a model without a
    solution is a bug (`ModelError`).  ``objective``: the `LinearValue` of the outcome,
    the minimum or the weighted mean over the scenarios (``aggregate``); None when the
    time ran out before the evaluation was linearized.  ``bound``: no order set among the
    candidates has a greater objective (CP-SAT's proven bound; None when it found no
    solution).  ``seconds``: the wall time of the call, building and replay included."""

    power: str
    orders: tuple[Order, ...]
    aggregate: str                 # "maxmin" or "expected"
    #: the real evaluator aggregated the same way
    score: float
    #: whether ``objective`` and ``score`` are the same function (the evaluator is linear)
    exact: bool
    value_name: str
    scenarios: tuple[ScenarioResult, ...]
    #: candidates left out because they could close a convoy paradox, with the reason
    excluded: tuple[tuple[Unit, Order, str], ...]
    variables: int
    constraints: int
    #: the value the model maximized (``objective`` is it, aggregated over the scenarios)
    linear: LinearValue | None = field(default=None, repr=False)

    @property
    def optimal(self) -> bool:
        return self.status == Status.OPTIMAL


def _where_units_end(outcome: Outcome) -> dict[Unit, str | None]:
    """Each unit of the position before the phase -> the location it stands in after the
    movement, or None if it was dislodged."""
    position, nxt = outcome.position, outcome.next
    po = position.map.province_of
    out: dict[Unit, str | None] = {u: u.location for u in position.units}
    for r in outcome.results:
        if r.reason == Reason.MOVED and isinstance(r.order, Move):    # only moves move
            u = position.unit_in[po[r.order.location]]
            out[u] = nxt.unit_in[po[r.order.target]].location
    for u in [d.unit for d in nxt.dislodged] + list(outcome.destroyed):
        out[u] = None
    return out


# -- predict: the model as an adjudicator --------------------------------------------------------

#: `predict`'s settings when none are given: 10 seconds
PREDICT_LIMITS = Limits(time_limit=10.0)
#: `select_orders`'s settings when none are given: 10 seconds, one worker, seed 0
SELECT_LIMITS = Limits(time_limit=10.0)


def predict(position: Position, orders: Mapping[str, Iterable[Order]], *,
            limits: Limits | None = None) -> Prediction:
    """The outcome of ``orders`` (power -> orders) in a movement phase, by the model with
    every order fixed.  Orders are matched to units as the adjudicator matches them;
    units without an order hold.  Raises `ParadoxError` for orders that may form a
    convoy paradox (`movement_rules.convoy_cycles`)."""
    if position.phase.kind != "movement":
        raise DipsolveRuleError(f"predict needs a movement phase, not {position.phase}")
    fixed = {u: read_order(position, u, o) for u, o in unit_orders(position, orders).items()}
    links = convoy_cycles(position, {u: [r] for u, r in fixed.items()})
    if links:
        raise ParadoxError(f"{position.phase}: {links[0]}")
    model = Model()
    logic = Logic(model)
    resolution = Resolution(logic, position, {u: [(True, r)] for u, r in fixed.items()})
    limits = limits or PREDICT_LIMITS
    # one worker: one outcome, whatever the load (with a node limit, that many nodes of
    # CP-SAT's deterministic time: `dipsolve.models.cpsat`)
    call = limits.deadline() if limits.nodes is not None else None
    solver = cpsat_solver(limits.time_limit if call is None else call.remaining(), workers=1,
                          seed=limits.seed, deadline=call)
    status = stopping.cpsat_solve(solver, model, call)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise ModelError(f"the movement rules found no outcome ({solver.status_name(status)}) "
                         f"for {position.phase}")
    return Prediction(*resolution.outcome(solver))


# -- select_orders ------------------------------------------------------------------------------

def select_orders(position: Position, power: str, *,
                  candidates: Mapping[Unit, Sequence[Order]] | None = None,
                  scenarios: Sequence[tuple[float, Scenario]] | None = None,
                  evaluate: Union[str, Evaluation, LinearValue, None] = None,
                  linear: LinearValue | None = None,
                  aggregate: str = "maxmin",
                  hint: Mapping[Unit, Order] | Iterable[Order] | None = None,
                  limits: Limits | None = None, deadline: Deadline | None = None) -> OrderSelection:
    """The orders for ``power``'s units that maximize the value of the outcome.

    ``candidates``: unit -> the orders it may be given (default: `useful_orders`); a
    unit of the power left out holds.  ``scenarios``: ``(weight, power -> orders)``
    pairs, the other powers' orders (default: one scenario, everybody else holds).
    ``evaluate``: the evaluator the answer is scored with: ``"influence"`` (default),
    ``"centers"``, a `LinearValue`, or any ``(position, power) -> float``.  ``linear``:
    the `LinearValue` the model maximizes (default: ``evaluate`` itself when it is one,
    `LinearValue.centers` for centers, else `LinearValue.first_order` of ``evaluate``
    over the moves the candidates and scenarios hold).  ``aggregate``: ``"maxmin"`` (the
    worst scenario) or ``"expected"`` (the weighted mean).  ``hint``: orders to start from (the agenda search's best); hinted
    orders missing from the candidates are added to them.  ``limits`` (`dipsolve.Limits`,
    default `SELECT_LIMITS`): its time limit covers linearizing, building, solving and
    the replay, and CP-SAT runs its workers with its seed (`dipsolve.models.cpsat`);
    ``deadline`` replaces the time limit when the clock started before this call (the
    caller's set-up counts) or is a test's.
    """
    limits = limits or SELECT_LIMITS
    call = deadline if deadline is not None else limits.deadline()
    began = call.seconds()
    if position.phase.kind != "movement":
        raise DipsolveRuleError(f"select_orders needs a movement phase, not {position.phase}")
    if aggregate not in AGGREGATES:
        raise DipsolveSyntaxError(f"unknown aggregate {aggregate!r} (expected one of {', '.join(AGGREGATES)})")
    score_of, make_linear, exact = _evaluators(position, power, evaluate, linear)
    scenarios = list(scenarios) if scenarios is not None else [(1.0, {})]
    if not scenarios:
        raise DipsolveSyntaxError("at least one scenario is needed")
    for _, sc in scenarios:
        if power in sc and list(sc[power]):
            raise DipsolveRuleError(f"a scenario gives orders to {power}, the power being solved for")
    weights = [float(w) for w, _ in scenarios]
    if aggregate == "expected" and (sum(weights) <= 0 or any(w < 0 for w in weights)):
        raise DipsolveSyntaxError("scenario weights must be non-negative and not all zero")
    units = position.units_of(power)
    options = _candidates(position, power, units, candidates, hint)
    fixed = [{u: read_order(position, u, o) for u, o in unit_orders(position, sc).items()
              if u.power != power} for _, sc in scenarios]
    options, excluded = _without_paradoxes(position, power, options, fixed)
    hinted = _hint_orders(position, power, hint) if hint is not None else {}
    places: dict[Unit, set[str]] = {}
    for u, rs in list(options.items()) + [(u, [r]) for fx in fixed for u, r in fx.items()]:
        places.setdefault(u, set()).update(r.dest_loc for r in rs if r.kind == MOVE)  # type: ignore[misc]
    # linearize and build (giving up if that alone takes the time), then solve in the
    # time left; the replay needs a moment per scenario
    left = call.remaining()
    build_by = Deadline(0.95 * left - min(0.01 * len(scenarios), 0.2 * left), clock=call.clock)
    try:
        maximized: LinearValue | None = make_linear(places, build_by)
    except TimeUp:
        maximized = None
    built = None
    code = cp_model.UNKNOWN
    solver = cpsat_solver(0.0, workers=limits.workers, seed=limits.seed, deadline=build_by)
    if maximized is not None:
        built = _OrderModel(position, power, options, fixed, maximized, aggregate, weights, hinted,
                            build_by)
        if built.complete:
            solver = cpsat_solver(build_by.remaining(), workers=limits.workers, seed=limits.seed,
                                  deadline=build_by)
            code = stopping.cpsat_solve(solver, built.model, build_by)
    if code == cp_model.INFEASIBLE or code == cp_model.MODEL_INVALID:
        raise ModelError(f"the order model has no solution ({solver.status_name(code)}) for "
                         f"{power} in {position.phase}")
    predicted: list[Prediction] = []
    model_values: list[float] = []
    bound: float | None = None
    if built is not None and code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        status = Status.OPTIMAL if code == cp_model.OPTIMAL else Status.FEASIBLE
        chosen = {u: next(r.order for x, r in opts if built.logic.value(solver, x))
                  for u, opts in built.choice.items()}
        predicted = [Prediction(*r.outcome(solver)) for r in built.resolutions]
        model_values = [solver.value(e) / built.scale for e in built.values]
        bound = solver.best_objective_bound / built.objective_scale
    else:
        status = Status.TIMED_OUT
        chosen = {u: hinted.get(u, Hold(u.kind, u.location)) for u in units}
    orders = tuple(chosen[u] for u in units)

    # replay against every scenario: the model's prediction must be the adjudicator's
    results = []
    for k, (w, sc) in enumerate(scenarios):
        outcome = adjudicate(position, {**{p: list(os) for p, os in sc.items()}, power: list(orders)})
        actual = Prediction.of(outcome)
        value = maximized(outcome) if maximized is not None else None
        if predicted and built is not None and value is not None:
            if actual != predicted[k]:
                raise ModelError(_disagreement(position, power, orders, k, predicted[k], actual))
            if abs(value - model_values[k]) > 1e-6 * max(1.0, abs(value)) + built.rounding[k]:
                raise ModelError(f"scenario {k}: the model valued the outcome {model_values[k]}, "
                                 f"the adjudicated position is worth {value}")
        results.append(ScenarioResult(w, actual, value, score_of(outcome)))
    shares = _shares(weights) if aggregate == "expected" else weights
    objective: float | None = None
    if aggregate == "maxmin":
        score = min(r.score for r in results)
        if maximized is not None:
            objective = min(r.value for r in results if r.value is not None)
    else:
        score = sum(w * r.score for w, r in zip(shares, results))
        if maximized is not None:
            objective = sum(w * r.value for w, r in zip(shares, results) if r.value is not None)
    return limited(OrderSelection(
        status=status, objective=objective, bound=bound, seconds=call.seconds() - began,
        power=power, orders=orders, aggregate=aggregate, score=score, exact=exact,
        value_name=maximized.name if maximized is not None else "(not linearized: no time)",
        scenarios=tuple(results), excluded=tuple(excluded),
        variables=len(built.model.proto.variables) if built is not None else 0,
        constraints=len(built.model.proto.constraints) if built is not None else 0,
        linear=maximized), call)


# -- the pieces of select_orders -----------------------------------------------------------------

class _OrderModel:
    """The CP-SAT model of `select_orders`: the choices, one `Resolution` per scenario,
    the objective and the hint.  ``complete`` is False when the deadline came first."""

    def __init__(self, position: Position, power: str, options: dict[Unit, list[Reading]],
                 fixed: list[dict[Unit, Reading]], linear: LinearValue, aggregate: str,
                 weights: list[float], hinted: Mapping[Unit, Order], deadline: Deadline) -> None:
        model = self.model = Model()
        logic = self.logic = Logic(model)
        # integer weights for CP-SAT (exact for weights with up to six decimals)
        int_weights = [round(w * _scale(weights)) for w in weights]
        self.complete = False
        self.choice: dict[Unit, list[tuple[Lit, Reading]]] = {}
        for u in position.units_of(power):
            readings = options[u]
            if len(readings) == 1:
                self.choice[u] = [(True, readings[0])]
                continue
            xs = [model.new_bool_var(f"{u} {r.order}") for r in readings]
            model.add_exactly_one(xs)
            self.choice[u] = list(zip(xs, readings))
            if u in hinted and hinted[u] in [r.order for r in readings]:
                for x, r in zip(xs, readings):
                    model.add_hint(x, r.order == hinted[u])
        self.resolutions: list[Resolution] = []
        for k, fx in enumerate(fixed):
            if deadline.expired():
                return
            opts: dict[Unit, Sequence[tuple[Lit, Reading]]] = dict(self.choice)
            opts.update({u: [(True, r)] for u, r in fx.items()})
            self.resolutions.append(Resolution(logic, position, opts, name=f"s{k}."))
        terms = [_value_terms(position, linear, r) for r in self.resolutions]
        scale = self.scale = _scale([c for t in terms for c, _ in t[0]] + [t[1] for t in terms])
        #: each scenario's value, scaled to integers; the most its rounding can be off
        self.values = [sum(round(c * scale) * lit for c, lit in t[0]) + round(t[1] * scale) for t in terms]
        self.rounding = [len(t[0]) / scale for t in terms]
        if aggregate == "maxmin":
            reach = sum(abs(round(c * scale)) for t in terms for c, _ in t[0]) + \
                sum(abs(round(t[1] * scale)) for t in terms)
            worst = model.new_int_var(-reach, reach, "worst")
            for e in self.values:
                model.add(worst <= e)
            model.maximize(worst)
            self.objective_scale = scale
        else:
            model.maximize(sum(w * e for w, e in zip(int_weights, self.values)))
            self.objective_scale = scale * sum(int_weights)
        self.complete = not deadline.expired()


#: the linear value the model maximizes, given the places units may move to and a deadline
LinearMaker = Callable[[Mapping[Unit, Iterable[str]], Deadline], LinearValue]


def _evaluators(position: Position, power: str, evaluate: Union[str, Evaluation, LinearValue, None],
                linear: LinearValue | None) -> tuple[Callable[[Outcome], float], LinearMaker, bool]:
    """(what scores an adjudicated outcome; the linear value the model maximizes, given
    the places units may move to; whether the two are the same function)."""
    if evaluate is None or evaluate == "influence":
        evaluate = influence_evaluation
    elif evaluate == "centers":
        evaluate = centers_evaluation
    elif isinstance(evaluate, str):
        from dipsolve.algorithms.evaluation import evaluator
        evaluate = evaluator(evaluate)
    if linear is not None and linear.power != power:
        raise DipsolveSyntaxError(f"the linear value is {linear.power}'s, not {power}'s")
    if isinstance(evaluate, LinearValue):
        if evaluate.power != power:
            raise DipsolveSyntaxError(f"the linear value is {evaluate.power}'s, not {power}'s")
        lin = linear or evaluate
        return evaluate, (lambda places, deadline: lin), lin is evaluate
    fn = evaluate

    def score(outcome: Outcome) -> float:
        return float(fn(outcome.next, power))
    if linear is not None:
        given = linear
        return score, (lambda places, deadline: given), False
    if evaluate is centers_evaluation:
        return score, (lambda places, deadline: LinearValue.centers(power, position.map)), True
    name = getattr(evaluate, "__name__", "evaluate")
    name = "evaluation" if name in ("evaluate", "<lambda>") else name
    return score, (lambda places, deadline: LinearValue.first_order(position, power, fn, name, places,
                                                                   deadline)), False


def _candidates(position: Position, power: str, units: list[Unit],
                candidates: Mapping[Unit, Sequence[Order]] | None, hint) -> dict[Unit, list[Reading]]:
    """Unit -> the readings of its distinct candidate orders (hinted orders added; a
    unit without candidates holds)."""
    if candidates is None:
        from dipsolve.core.legal import useful_orders
        candidates = useful_orders(position, power)
    for u in candidates:
        if u not in position.units or u.power != power:
            raise DipsolveRuleError(f"candidates name {u} ({u.power}), not a unit of {power} here")
    hinted = _hint_orders(position, power, hint) if hint is not None else {}
    out: dict[Unit, list[Reading]] = {}
    for u in units:
        orders = list(dict.fromkeys(list(candidates.get(u, ())) + ([hinted[u]] if u in hinted else [])))
        out[u] = [read_order(position, u, o) for o in orders] or [read_order(position, u, Hold(u.kind, u.location))]
    return out


def _hint_orders(position: Position, power: str, hint) -> dict[Unit, Order]:
    if isinstance(hint, Mapping):
        return {u: o for u, o in hint.items() if u.power == power}
    return {u: o for u, o in unit_orders(position, {power: list(hint)}).items()}


#: which own candidate goes first when a convoy paradox must be broken
def _exclusion_rank(reading: Reading, position: Position) -> int:
    if reading.kind in (SUPPORT_HOLD, SUPPORT_MOVE):
        return 0
    if reading.kind == MOVE and position.map.is_sea(reading.dest):  # type: ignore[arg-type]
        return 1      # an attack on a convoying fleet
    if reading.kind == CONVOY:
        return 2
    return 3


def _without_paradoxes(position: Position, power: str, options: dict[Unit, list[Reading]],
                       fixed: list[dict[Unit, Reading]]
                       ) -> tuple[dict[Unit, list[Reading]], list[tuple[Unit, Order, str]]]:
    """Leave out own candidates until no scenario can meet a convoy paradox."""
    options = {u: list(rs) for u, rs in options.items()}
    excluded: list[tuple[Unit, Order, str]] = []
    while True:
        drop: dict[tuple[Unit, Order], str] = {}
        for k, fx in enumerate(fixed):
            opts: dict[Unit, list[Reading]] = {u: [r] for u, r in fx.items()}
            opts.update(options)
            for link in convoy_cycles(position, opts):
                own = [(u, o) for u, o in link.orders if u.power == power]
                if not own:
                    raise ParadoxError(f"scenario {k}: the other powers' orders alone may form a "
                                       f"convoy paradox: {link}")
                readings = {(u, r.order): r for u, rs in options.items() for r in rs}
                u, o = min(own, key=lambda uo: (_exclusion_rank(readings[uo], position), str(uo[0]), str(uo[1])))
                drop.setdefault((u, o), str(link))
        if not drop:
            return options, excluded
        for (u, o), why in sorted(drop.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
            options[u] = [r for r in options[u] if r.order != o]
            if not options[u]:
                options[u] = [read_order(position, u, Hold(u.kind, u.location))]
            excluded.append((u, o, why))


def _value_terms(position: Position, linear: LinearValue, res: Resolution
                 ) -> tuple[list[tuple[float, Lit]], float]:
    """The `LinearValue` of one scenario's outcome as (coefficient, literal) terms and a
    constant."""
    m = position.map
    po = m.province_of
    terms: list[tuple[float, Lit]] = []
    constant = linear.constant
    ends_in: dict[str, list[tuple[str, Lit]]] = {}     # province -> (power, literal)
    for i, u in enumerate(res.units):
        here = po[u.location]
        places = [(here, res.stay[i])] + [(po[loc], lit) for loc, lit in res.arrive[i].items()]
        if linear.unit_at:
            terms.append((linear.unit_at.get((u, u.location), 0.0), res.stay[i]))
            terms += [(linear.unit_at.get((u, loc), 0.0), lit) for loc, lit in res.arrive[i].items()]
            terms.append((linear.unit_at.get((u, None), 0.0), res.D[i]))
        for prov, lit in places:
            v = linear.occupy.get((u.power, prov), 0.0)
            if v:
                terms.append((v, lit))
            if prov in m.centers:
                ends_in.setdefault(prov, []).append((u.power, lit))
        v = linear.dislodged.get(u.power, 0.0)
        if v:
            terms.append((v, res.D[i]))
    fall = position.phase.season == "Fall"
    owner = position.owner
    for c, v in linear.own.items():
        if not v:
            continue
        owned = owner.get(c) == linear.power
        if not fall:
            constant += v if owned else 0.0
            continue
        # after a Fall move the unit standing in a center owns it; else it keeps its owner
        # (at most one unit stands in a province, so the sum is a 0/1 literal sum)
        if owned:
            constant += v
            terms += [(-v, lit) for p, lit in ends_in.get(c, ()) if p != linear.power]
        else:
            terms += [(v, lit) for p, lit in ends_in.get(c, ()) if p == linear.power]
    merged: dict = {}
    for coef, lit in terms:
        if lit is True:
            constant += coef
        elif lit is not False:
            key = lit.index
            merged[key] = (merged.get(key, (0.0, lit))[0] + coef, lit)
    return [(coef, lit) for coef, lit in merged.values() if coef], constant


def _shares(weights: Sequence[float]) -> list[float]:
    """The scenarios' weights as the model counts them (as integers, exact up to six
    decimals: `_scale`), summing to 1."""
    int_weights = [round(w * _scale(weights)) for w in weights]
    return [w / sum(int_weights) for w in int_weights]


def _scale(numbers: Sequence[float]) -> int:
    """The smallest power of ten (up to 10^6) that makes every number an integer; CP-SAT
    takes integer coefficients.  Past 10^6 the coefficients are rounded."""
    for k in range(7):
        s = 10 ** k
        if all(abs(x * s - round(x * s)) < 1e-9 for x in numbers):
            return s
    return 10 ** 6


def _disagreement(position: Position, power: str, orders: Sequence[Order], k: int,
                  predicted: Prediction, actual: Prediction) -> str:
    lines = [f"scenario {k}: the order model and the adjudicator disagree for {power} in {position.phase}",
             "orders: " + "; ".join(map(str, orders)), "model:", *predicted.lines(),
             "adjudicator:", *actual.lines()]
    return "\n".join(lines)
