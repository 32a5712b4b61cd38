"""The phase as a game (`dipsolve.search.phase_game`, ``opponents="equilibrium"``): players,
smooth fictitious play over working sets grown by best responses, the exploitability report, the
CP-SAT best-response oracle, and the clock (always injected: no test reads the wall clock)."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from dipsolve.core.adjudicator import REFUSED, adjudicate
from dipsolve import search
from dipsolve import strategy as S
from dipsolve.api import solve
from dipsolve.search.methods import SolveSettings
from dipsolve.search.strategy import named, settings
from dipsolve.core.errors import DipsolveRuleError, DipsolveSyntaxError
from dipsolve.algorithms.evaluation import evaluator
from dipsolve.core.legal import useful_orders
from dipsolve.core.orders import Hold, unit_key
from dipsolve.core.position import Position, Unit
from dipsolve.core.results import Deadline, Limits
from dipsolve.search.phase_game import (BestResponseQuery, PhaseGame, solve_phase_game)
from dipsolve.testing.random_positions import random_position
from dipsolve.algorithms import dumbbot

INFLUENCE = evaluator("influence")


def ticking(step: float):
    """A clock that moves on ``step`` seconds every time it is read."""
    return itertools.count(0.0, step).__next__


def _game(position: Position, power: str, *, reads: int = 4000, seed: int = 0, **options) -> PhaseGame:
    # a deadline of ``reads`` looks at the clock: the search stops after about that much work
    return PhaseGame(position, power, INFLUENCE, deadline=Deadline(float(reads), clock=ticking(1.0)),
                     seed=seed, heuristic=dumbbot.orders, **options)


def _mid_game(seed: int) -> Position:
    return random_position(seed, n_units=22)


def test_the_players_are_the_powers_that_can_reach_us():
    g = _game(Position.initial(), "France")
    assert [p.power for p in g.players] == ["France", "Austria", "England", "Germany", "Italy"]
    # Turkey's and Russia's units are too far from France's to be in the game
    assert {u.power for p in g.players[1:] for u in p.units} == {"Austria", "England", "Germany", "Italy"}
    assert [str(u) for u in g.players[0].units] == [str(u) for u in Position.initial().units_of("France")]


def test_every_answer_is_a_mixed_strategy_profile_with_legal_orders():
    eq = _game(Position.initial(), "France").run()
    assert eq.iterations > 0 and eq.profiles > 0
    for p in eq.players:
        assert abs(sum(w for _, w in p.strategy) - 1.0) < 0.03      # probabilities under 0.5% left out
        assert all(w > 0 for _, w in p.strategy)
        assert p.gain_in_sets >= 0 and p.gain_found >= 0
        for action, _ in p.strategy:
            assert [unit_key(o) for o in action] == [(u.kind, u.location) for u in p.units]
    outcome = adjudicate(Position.initial(), {"France": list(eq.orders)})
    assert not [r for r in outcome.results if r.reason in REFUSED]
    assert {unit_key(o) for o in eq.orders} == {(u.kind, u.location) for u in Position.initial().units_of("France")}
    json.dumps(eq.to_json())


def test_the_same_seed_on_the_same_clock_gives_the_same_equilibrium():
    pos = _mid_game(3)
    a = _game(pos, "Germany", reads=3000, seed=5).run()
    b = _game(pos, "Germany", reads=3000, seed=5).run()
    assert a.to_json() == b.to_json()


def test_the_reported_gains_are_those_of_the_reported_mixtures():
    # a position small enough that every scenario of the others is enumerated exactly:
    # the report's values and gains can be recomputed from the strategies alone
    pos = Position.build("S1901M", [
        Unit("France", "A", "BUR"), Unit("France", "A", "PAR"),
        Unit("Germany", "A", "MUN"), Unit("Germany", "A", "RUH"),
    ], {"PAR": "France", "MUN": "Germany", "BEL": "Germany"})
    game = _game(pos, "France", reads=6000)
    eq = game.run()
    assert [p.power for p in eq.players] == ["France", "Germany"]
    fr, ge = eq.player("France"), eq.player("Germany")
    mix_ge = dict(ge.strategy)
    total = sum(mix_ge.values())

    def value(power, mine, theirs):
        orders = {"France": list(mine), "Germany": list(theirs)} if power == "France" else \
            {"Germany": list(mine), "France": list(theirs)}
        return INFLUENCE(adjudicate(pos, orders).next, power)

    # France's value against Germany's mixture (renormalised over what the report lists)
    for a, _ in fr.strategy:
        v = sum(w / total * value("France", a, b) for b, w in mix_ge.items())
        assert v <= fr.value + fr.gain_in_sets + 1.0
    best = max(game.players[0].actions,
               key=lambda a: sum(w * value("France", a, b) for b, w in mix_ge.items()))
    assert tuple(eq.orders) == best or fr.gain_in_sets < 1.0


def test_more_work_leaves_less_to_gain():
    # the same position, the same seed: a longer search is (much) less exploitable within
    # what it knows, on the clock it is given
    pos = Position.initial()
    short = _game(pos, "Austria", reads=600).run()
    long = _game(pos, "Austria", reads=20000).run()
    assert long.iterations > short.iterations
    assert long.exploitability <= short.exploitability + 1e-6


def test_best_responses_grow_the_working_sets():
    eq = _game(_mid_game(11), "Russia", reads=20000).run()
    assert eq.oracle_calls > 0
    assert sum(p.added for p in eq.players) > 0


def test_the_clock_is_kept_on_every_step():
    # a clock that moves 1 s at every look, a 40 s deadline: the whole game (seeding, the
    # iterations, best responses, report) looks at it about 40 times and stops
    reads = []
    tick = ticking(1.0)

    def clock():
        reads.append(1)
        return tick()

    pos = _mid_game(2)
    eq = PhaseGame(pos, "Italy", INFLUENCE, deadline=Deadline(40.0, clock=clock),
                   heuristic=dumbbot.orders).run()
    assert len(reads) < 200
    assert {unit_key(o) for o in eq.orders} == {(u.kind, u.location) for u in pos.units_of("Italy")}


def test_a_lone_power_plays_its_best_set():
    pos = Position.build("S1901M", [Unit("Turkey", "A", "CON"), Unit("Turkey", "A", "SMY"),
                                    Unit("Turkey", "F", "ANK")],
                         {"CON": "Turkey", "SMY": "Turkey", "ANK": "Turkey"})
    game = _game(pos, "Turkey")
    eq = game.run()
    assert len(eq.players) == 1
    best = max(game.players[0].actions,
               key=lambda a: INFLUENCE(adjudicate(pos, {"Turkey": list(a)}).next, "Turkey"))
    assert eq.orders == best == eq.players[0].strategy[0][0]


# -- solve() and its settings ----------------------------------------------------------------

def test_the_phase_game_never_claims_optimal():
    # the search's own solve: no CP-SAT oracle handed in, the agenda search alone
    s = search.solve(Position.initial(), "Italy", SolveSettings(opponents="equilibrium"),
                     deadline=Deadline(3000.0, clock=ticking(1.0)))
    assert s.equilibrium is not None and s.status in ("feasible", "timed out")
    assert s.objective == pytest.approx(s.equilibrium.player("Italy").value)
    assert set(s.opponents) == {p.power for p in s.equilibrium.players} - {"Italy"}
    obj = s.to_json()
    assert obj["equilibrium"]["players"][0]["power"] == "Italy"
    json.dumps(obj)


def test_settings_refuse_what_the_phase_game_cannot_take():
    # the search's internal record of a call, and a strategy as a user builds it
    with pytest.raises(DipsolveRuleError):
        SolveSettings(opponents="equilibrium", method="minimax")
    with pytest.raises(DipsolveRuleError):
        S.Strategy(S.Minimax(), S.PhaseGame())
    with pytest.raises(DipsolveRuleError):
        named("minimax", "equilibrium")
    with pytest.raises(DipsolveRuleError):
        SolveSettings(opponents="equilibrium", samples=4)
    with pytest.raises(DipsolveRuleError, match="samples belongs to opponents learned or sampled"):
        named("agenda", "equilibrium", samples=4)
    with pytest.raises(DipsolveSyntaxError, match="pick"):
        SolveSettings(pick="worst")
    with pytest.raises(DipsolveSyntaxError, match="pick"):
        S.Strategy(S.Agenda(), S.PhaseGame(pick="worst"))
    # the seeds' models stay as they were
    assert not SolveSettings(opponents="worst").equilibrium
    assert not settings(named("agenda", "worst")).equilibrium
    assert not SolveSettings(method="minimax").equilibrium
    assert not settings(named("minimax")).equilibrium
    assert not SolveSettings().equilibrium and SolveSettings().model == "learned"   # the seat's
    assert not settings(S.Strategy()).equilibrium and settings(S.Strategy()).model == "learned"
    assert SolveSettings(method="cpsat").model == "learned"
    assert settings(named("cpsat")).model == "learned"


def test_a_cpu_clock_is_a_limit_too():
    assert Limits(time_limit=1, clock="cpu").deadline().clock.__name__ == "process_time"
    with pytest.raises(DipsolveSyntaxError, match="clock"):
        Limits(clock="sundial")
    from dipsolve.play.bots import DumbBotPlayer
    from dipsolve.core.map import POWERS
    from dipsolve import play_game      # the public one: its arguments checked at the door
    with pytest.raises(DipsolveSyntaxError, match="clock= is no longer taken.*limits=dipsolve.Limits"):
        play_game({p: DumbBotPlayer() for p in POWERS}, until=1901, clock="sundial")


def test_sampling_our_move_draws_from_our_mixture():
    g = _game(Position.initial(), "England", pick="sample", seed=3)
    eq = g.run()
    assert eq.pick == "sample"
    us = g.players[0]
    assert eq.orders in us.actions and us.mixture()[us.actions.index(eq.orders)] > 0
    with pytest.raises(ValueError):
        _game(Position.initial(), "England", pick="worst")


# -- the CP-SAT best response ----------------------------------------------------------------

def test_solve_hands_the_phase_game_the_cpsat_oracle():
    # dipsolve.solve (the application layer) hands it in whenever the phase game is played;
    # the search never imports the models
    from dipsolve import api
    from dipsolve.models.order_method import best_response
    assert api._oracle(SolveSettings(opponents="equilibrium")) is best_response
    assert api._oracle(SolveSettings(method="cpsat", opponents="equilibrium")) is best_response
    assert api._oracle(SolveSettings(opponents="hold")) is None
    assert api._oracle(SolveSettings()) is None         # the default, learned: no phase game


@pytest.mark.parametrize("seed", range(6))
def test_the_cpsat_best_response_is_never_worse_than_the_best_candidate(seed):
    from dipsolve.models.order_method import best_response
    pos = _mid_game(100 + seed)
    powers = sorted({u.power for u in pos.units})
    power = powers[seed % len(powers)]
    game = _game(pos, power, reads=800, seed=seed)
    game.seed_actions(Deadline(400.0, clock=ticking(1.0)))
    me = game.players[0]
    rng = random.Random(seed)
    scenarios = tuple(game.scenarios(0, 6, rng))

    def mean(action):
        return sum(w * INFLUENCE(adjudicate(pos, {**{p: list(a) for p, a in sc.items()},
                                                   power: list(action)}).next, power)
                   for w, sc in scenarios)

    best_candidate = max(me.actions, key=mean)
    answer = best_response(BestResponseQuery(pos, power, me.units, scenarios, INFLUENCE,
                                             best_candidate, Deadline(20.0), seed=seed))
    assert answer is not None
    assert answer.value >= mean(best_candidate) - 1e-6
    # replayed through the adjudicator: the reported value is the orders' real value, and
    # every order is accepted
    assert answer.value == pytest.approx(mean(answer.orders))
    for _, sc in scenarios:
        out = adjudicate(pos, {**{p: list(a) for p, a in sc.items()}, power: list(answer.orders)})
        assert not [r for r in out.results if r.power == power and r.reason in REFUSED]
    useful = useful_orders(pos, power)
    for o in answer.orders:
        unit = next(u for u in me.units if (u.kind, u.location) == unit_key(o))
        assert o in useful[unit] or o == Hold(unit.kind, unit.location)


# -- retreats and adjustments judged by the movement that follows ------------------------------

def test_builds_are_judged_by_the_movement_that_follows():
    # France's two builds of W1901A: with look-ahead every choice on the trace's short list
    # leaves France the same number of units, and the answer is the one whose next
    # movement is worth most; without it, the evaluation of the winter position decides
    position = Position.from_file("examples/w1901a.dip")
    clock = ticking(0.0005)
    s = solve(position, "France", S.Strategy(lookahead=True), trace=True,
              deadline=Deadline(20.0, clock=clock))
    assert s.status == "feasible"
    i = next(k for k, line in enumerate(s.trace) if "judged by the movement that follows" in line)
    judged = []
    for line in s.trace[i + 1:]:
        sets, _, value = line.strip().rpartition(" -> ")
        judged.append((float(value), sets))
    assert len(judged) >= 2
    builds = {len([o for o in sets.strip("{}").split(", ") if o.endswith(" B")]) for _, sets in judged}
    assert len(builds) == 1
    best = max(judged)[1]
    assert best == "{" + ", ".join(map(str, s.orders)) + "}"
    plain = solve(position, "France", S.Strategy(lookahead=False),
                  deadline=Deadline(20.0, clock=ticking(0.0005)))
    assert plain.status == "optimal" and plain.equilibrium is None


@pytest.mark.parametrize("example, power", [("examples/start.dip", "Germany"),
                                            ("examples/s1902m.dip", "Russia"),
                                            ("examples/w1901a.dip", "France"),
                                            ("examples/f1901r.dip", "Russia")])
def test_the_time_limit_is_kept_within_ten_percent_on_an_injected_clock(example, power):
    # a clock that moves 2 ms at every look: the whole call (seeding, iterations, best
    # responses, the final best response, the report, look-ahead of retreats and builds,
    # the replay) ends within 10% of its 2 s on that clock
    position = Position.from_file(example)
    s = search.solve(position, power, SolveSettings(opponents="equilibrium"),
                     deadline=Deadline(2.0, clock=ticking(0.002)))
    assert s.seconds <= 2.2
    assert s.orders


def test_our_pick_is_judged_on_scenarios_the_search_did_not_see():
    # the best-response search maximises over one draw of the others' mixtures; the pick
    # (and our reported values) come from a fresh draw, so that the set that merely did
    # best on the search's sample is not preferred for that alone
    pos = _mid_game(3)
    power = "Germany"
    game = _game(pos, power, reads=6000, seed=2)
    eq = game.run()
    assert len(game.players) == 6
    fresh = game.holdout_scenarios()
    assert len(fresh) > 1
    us = game.players[0]
    values = [sum(w * game._value_against(0, a, sc) for w, sc in fresh) for a in us.actions]
    assert tuple(eq.orders) == us.actions[max(range(len(values)), key=values.__getitem__)]
    mix = us.mixture()
    assert eq.player(power).value == pytest.approx(sum(m * v for m, v in zip(mix, values)))
    # without it, our values are the search's own estimates, measured on its own draw
    plain_game = _game(pos, power, reads=6000, seed=2, holdout=False)
    plain = plain_game.run()
    assert {unit_key(o) for o in plain.orders} == {(u.kind, u.location) for u in pos.units_of(power)}
    assert plain.player(power).value != pytest.approx(eq.player(power).value)


def test_a_held_out_measure_cut_by_the_clock_falls_back_on_the_search_s_own():
    # the clock runs out during the report: the pick is by the search's own estimates
    # (one measure for every action), never a mix of the held-out and the search's
    pos = _mid_game(3)
    game = _game(pos, "Germany", reads=6000, seed=2)
    game.run()
    us = game.players[0]
    assert all(a in us.estimates for a in us.actions)
    game.deadline = Deadline(0.0, clock=ticking(1.0))     # expired from now on
    assert game._held_out() is None
    answer = game.report()
    assert tuple(answer.orders) == max(us.actions, key=us.estimates.__getitem__)
