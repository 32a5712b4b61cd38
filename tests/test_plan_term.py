"""The seat's plan term (issue 51; `dipsolve.play.bots.DipsolveBot.planned`): once its power
has gained no center for two years, the fewest-years plan against held units to two more
centers raises the values of the provinces the plan's first phase moves into.
"""

from __future__ import annotations

import random
from pathlib import Path

import dipsolve
from dipsolve.algorithms.evaluation import values_for
from dipsolve.core.position import Phase
from dipsolve.play.bots import PLAN_GAIN, PLAN_WEIGHT, STALL_YEARS, DipsolveBot
from dipsolve.search.strategy import Influence

STALLED = Path(__file__).parent / "data" / "positions" / "england-stalled-1905.dip"


def _stalled() -> dipsolve.Position:
    return dipsolve.parse_position(STALLED.read_text(encoding="utf-8"))[0]


def test_a_seat_is_stalled_after_two_years_without_a_center():
    bot = DipsolveBot()
    pos = _stalled()
    assert STALL_YEARS == 2
    seen = []
    for year in (1903, 1904, 1905, 1906):
        p = dipsolve.Position.build(Phase("Spring", year, "movement"), pos.units, pos.owner)
        seen.append(bot.stalled(p, "England"))
    assert seen == [False, False, True, True]
    # a power that grew is not stalled: four centers in 1903, five in 1905
    grown = dipsolve.Position.build(Phase("Spring", 1905, "movement"), pos.units,
                                    {**pos.owner, "HOL": "England"})
    fresh = DipsolveBot()
    fresh.stalled(dipsolve.Position.build(Phase("Spring", 1903, "movement"), pos.units, pos.owner), "England")
    assert not fresh.stalled(grown, "England")


def test_the_plan_raises_the_worth_of_its_first_steps():
    pos = _stalled()
    strategy = DipsolveBot().planned(pos, "England", dipsolve.Limits(time_limit=30))
    assert isinstance(strategy.evaluation, Influence)
    values = strategy.evaluation.values["England"]
    base = values_for("England", pos.map)
    raised = {p for p in values if values[p] != base[p]}
    # the plan: the fewest years to six centers against held units, its first phase's moves
    sol = dipsolve.solve_path(pos, "England", 4 + PLAN_GAIN, opposition="hold",
                              limits=dipsolve.Limits(time_limit=30))
    into = {pos.map.province_of[o.target] for o in sol.plan[0].orders if isinstance(o, dipsolve.Move)}
    assert raised == into and raised and all(values[p] == base[p] + PLAN_WEIGHT for p in raised)
    assert strategy.search == DipsolveBot().strategy.search          # only the evaluation changes


def test_no_plan_in_time_leaves_the_strategy_as_it_is():
    pos = _stalled()
    bot = DipsolveBot()
    assert bot.planned(pos, "England", dipsolve.Limits(nodes=1)) == bot.strategy


def test_a_stalled_seat_with_a_node_limit_gives_the_same_orders_twice():
    pos = _stalled()
    runs = []
    for _ in range(2):
        bot = DipsolveBot(nodes=4000)
        for year in (1903, 1904):               # the counts of two years without a center
            bot.stalled(dipsolve.Position.build(Phase("Spring", year, "movement"), pos.units, pos.owner),
                        "England")
        runs.append(bot.orders(pos, "England", 30.0, random.Random(5)))
    assert runs[0] == runs[1] and len(runs[0]) == len(pos.units_of("England"))
