"""A strategy as typed parts (issue 50): a search, a model of the opponents, an evaluation;
what cannot mean anything cannot be built, and `dipsolve.solve` plays what is built."""

from __future__ import annotations

import pytest

import dipsolve
from dipsolve.strategy import (Agenda, Centers, CpSat, Expectimax, Expected, Hold, Influence, Learned,
                               Minimax, PhaseGame, Sampled, Strategy, Worst)
from dipsolve.core.orders import Hold as HoldOrder
from dipsolve.search.methods import SolveSettings
from dipsolve.search.strategy import settings

START = dipsolve.Position.initial()


def test_the_default_strategy_is_the_seats_and_solves_default():
    s = Strategy()
    assert str(s) == "agenda, learned, influence"
    assert settings(s).model == SolveSettings().model == "learned"
    assert s == Strategy(Agenda(), Learned(), Influence())


def test_each_part_lands_where_the_search_reads_it():
    limits = dipsolve.Limits(time_limit=2, seed=5)
    st = settings(Strategy(Agenda(beam=7), Sampled(samples=3), Centers(), lookahead=True), limits, trace=True)
    assert (st.method, st.beam, st.opponents, st.samples, st.predictor, st.evaluation, st.lookahead,
            st.trace, st.limits) == ("agenda", 7, "sampled", 3, "dumbbot", "centers", True, True, limits)
    st = settings(Strategy(Minimax(keep=3), Worst(predictor="dumbbot")))
    assert (st.method, st.keep, st.opponents, st.predictor, st.judged_by) == ("minimax", 3, "worst", "dumbbot", "worst")
    st = settings(Strategy(CpSat(), PhaseGame(pick="sample")))
    assert (st.method, st.opponents, st.pick, st.equilibrium) == ("cpsat", "equilibrium", "sample", True)
    background = {"Russia": [HoldOrder("F", "SEV")]}
    assert settings(Strategy(Agenda(), Hold(background))).background == background


@pytest.mark.parametrize("search, opponents", [
    (Minimax(), PhaseGame()), (Minimax(), Expected()), (Minimax(), Hold()),
    (Expectimax(), Worst()), (Expectimax(), PhaseGame())])
def test_a_search_that_judges_by_its_own_rule_refuses_another_model(search, opponents):
    with pytest.raises(dipsolve.DipsolveRuleError, match="judges sets against"):
        Strategy(search, opponents)


def test_what_the_search_cannot_take_is_refused_when_built():
    background = {"Russia": [HoldOrder("F", "SEV")]}
    with pytest.raises(dipsolve.DipsolveRuleError, match="cpsat"):
        Strategy(CpSat(), Hold(background))
    with pytest.raises(dipsolve.DipsolveSyntaxError, match="predictor"):
        Strategy(Agenda(), Worst(predictor="oracle"))
    with pytest.raises(dipsolve.DipsolveSyntaxError, match="beam"):
        Strategy(Agenda(beam=0))
    with pytest.raises(dipsolve.DipsolveArgumentError, match="search is one of Agenda"):
        Strategy("agenda")                                   # type: ignore[arg-type]
    with pytest.raises(dipsolve.DipsolveArgumentError, match="opponents is one of"):
        Strategy(Agenda(), "learned")                        # type: ignore[arg-type]
    with pytest.raises(dipsolve.DipsolveArgumentError, match="evaluation is one of"):
        Strategy(Agenda(), Learned(), "centers")             # type: ignore[arg-type]


def test_solve_plays_a_strategy_within_the_calls_limits_and_says_what_it_assumed():
    s = dipsolve.solve(START, "Turkey", Strategy(Agenda(), Hold()), limits=dipsolve.Limits(time_limit=2))
    assert sorted(map(str, s.orders)) == ["A CON - BUL", "A SMY - ARM", "F ANK - CON"]
    assert s.model == "hold: everybody else holds" and s.status == dipsolve.Status.OPTIMAL
    game = dipsolve.solve(START, "Italy", Strategy(Agenda(), PhaseGame()), limits=dipsolve.Limits(time_limit=1))
    assert game.equilibrium is not None and game.model.startswith("equilibrium")
    with pytest.raises(dipsolve.DipsolveArgumentError, match="a Strategy"):
        dipsolve.solve(START, "Italy", "agenda")


def test_solve_takes_order_sets_to_start_from_and_keeps_its_trace_when_asked():
    """The call's own options beside the strategy and the limits: ``seeds``, complete
    order sets of the power (orders or their text), checked as orders are; ``trace``."""
    hold = Strategy(Agenda(), Hold())
    s = dipsolve.solve(START, "Turkey", hold, limits=dipsolve.Limits(time_limit=2),
                       seeds=[["A CON - BUL", "A SMY - ARM", "F ANK - BLA"]], trace=True)
    assert s.trace and sorted(map(str, s.orders)) == ["A CON - BUL", "A SMY - ARM", "F ANK - CON"]
    assert not dipsolve.solve(START, "Turkey", hold, limits=dipsolve.Limits(time_limit=1)).trace
    with pytest.raises(dipsolve.DipsolveSyntaxError, match="is an order of France, given as Turkey's"):
        dipsolve.solve(START, "Turkey", hold, seeds=[["France: A PAR - BUR"]])
    with pytest.raises(dipsolve.DipsolveArgumentError, match="seeds: expected a list of order sets"):
        dipsolve.solve(START, "Turkey", hold, seeds="A CON - BUL")
    with pytest.raises(dipsolve.DipsolveArgumentError, match="trace: expected True or False"):
        dipsolve.solve(START, "Turkey", hold, trace="yes")
