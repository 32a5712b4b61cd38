"""Legality: an order that is understood can still be illegal, and each rejection names
the rule it breaks (`dipsolve.core.rules`, the adjudicator's own rules)."""

from __future__ import annotations

import pytest

from dipsolve.core.adjudicator import Reason, adjudicate
from dipsolve.grammar import parse_order, parse_position
from dipsolve.core.rules import RULES, Problem, order_problem, order_problems, validate_orders
from dipsolve.core.orders import Move, SupportMove
from dipsolve.core.position import Dislodged, Position, Unit
from dipsolve.testing import random_orders, random_position

START = Position.initial()
SPRING = Position.build("S1901M", [
    Unit("England", "F", "ENG"), Unit("England", "A", "LON"), Unit("England", "F", "NTH"),
    Unit("England", "A", "WAL"), Unit("France", "A", "PAR"), Unit("France", "A", "MAR"),
    Unit("France", "F", "MAO"), Unit("Russia", "F", "STP/SC"), Unit("Germany", "A", "MUN"),
    Unit("Germany", "F", "KIE")])
RETREAT = Position.build("F1901R", [Unit("England", "F", "ENG"), Unit("France", "A", "PIC")], {},
                         [Dislodged(Unit("France", "F", "BRE"), "ENG", ("GAS", "MAO"))])
WINTER = Position.build("W1901A", [Unit("France", "A", "PAR")],
                        {"PAR": "France", "BRE": "France", "MAR": "France", "SPA": "France",
                         "STP": "Russia", "MOS": "Russia"})



@pytest.mark.parametrize("position, power, text, rule, message", [
    # the example
    (SPRING, "England", "F ENG - PAR", "terrain", "a fleet cannot enter Paris (inland)"),
    (SPRING, "France", "A MAR - ION", "terrain", "an army cannot enter Ionian Sea (a sea)"),
    # the unit exists, is of that type, and belongs to the power
    (SPRING, "France", "A PIC - BEL", "unit", "no unit in PIC"),
    (SPRING, "France", "F PAR - PIC", "unit", "no fleet in PAR: A PAR stands there"),
    (SPRING, "Germany", "A PAR - BUR", "owner", "A PAR belongs to France"),
    # adjacency for the unit type and coast, or a convoy route
    (SPRING, "France", "A PAR - MUN", "adjacency",
     "PAR is not adjacent to MUN and no convoy route is possible"),
    (SPRING, "Russia", "F STP/SC - BAR", "adjacency", "STP/SC is not adjacent to BAR"),
    (SPRING, "France", "F MAO - SPA", "coast", "the coast of SPA must be given (SPA/NC or SPA/SC)"),
    (SPRING, "France", "A PAR - PAR", "adjacency", "a unit cannot move to its own province"),
    (SPRING, "France", "A MAR - PIE VIA", "convoy route", "no convoy route from MAR to PIE is possible"),
    # the supporter can reach the place it supports; the supported move is possible
    (SPRING, "France", "A MAR S A PAR - PIC", "support",
     "A MAR cannot reach PIC, so cannot support a move there"),
    (SPRING, "France", "A PAR S A MAR", "support", "A PAR cannot reach MAR, so cannot support a unit there"),
    (SPRING, "Germany", "A MUN S F KIE - BUR", "support", "F KIE cannot move to BUR"),
    (SPRING, "France", "A PAR S A PAR", "support", "a unit cannot support itself"),
    (SPRING, "France", "A PAR S A PIC - BUR", "support", "no unit in PIC to support"),
    # convoys only by fleets at sea, of armies, on a route
    (SPRING, "Germany", "F KIE C A MUN - HOL", "convoy", "only a fleet at sea can convoy"),
    (SPRING, "England", "F NTH C F ENG - NWY", "convoy", "only an army can be convoyed"),
    (SPRING, "England", "F ENG C A LON - NWY", "convoy", "ENG is on no convoy route from LON to NWY"),
    # the phase kind
    (SPRING, "France", "F MAO R SPA/NC", "phase", "a retreat order in a movement phase"),
    (SPRING, "France", "A PAR B", "phase", "Build is not an order for a movement phase"),
    (SPRING, "France", "WAIVE", "phase", "Waive is not an order for a movement phase"),
    (RETREAT, "France", "A PIC H", "phase", "only retreats and disbands are ordered in a retreat phase"),
    (WINTER, "France", "A PAR - BUR", "phase", "only builds, removals and waives in an adjustment phase"),
    # retreats only to the places open
    (RETREAT, "France", "F BRE R ENG", "retreat", "ENG is not open to F BRE (open: GAS, MAO)"),
    (RETREAT, "France", "F BRE - PIC", "retreat", "PIC is not open to F BRE (open: GAS, MAO)"),
    (RETREAT, "France", "A PIC D", "unit", "no unit in PIC"),
    (RETREAT, "England", "F BRE R GAS", "owner", "F BRE belongs to France"),
    # builds in owned, empty home centers, the right unit type and coast, builds left
    (WINTER, "France", "A PAR B", "build", "PAR is occupied"),
    (WINTER, "France", "A SPA B", "build", "SPA is not a home center of France"),
    (WINTER, "Russia", "A WAR B", "build", "Russia does not own WAR"),
    (WINTER, "Russia", "F STP B", "build", "the coast must be given for a fleet built in St Petersburg"),
    (WINTER, "Russia", "F MOS B", "build", "a fleet cannot be built in Moscow (inland)"),
    (WINTER, "Germany", "A BER B", "builds left", "Germany has no builds (+0)"),
    (WINTER, "France", "A PAR D", "removals", "France has no removals to make (+3)"),
])
def test_each_rule(position, power, text, rule, message):
    order = parse_order(text)
    assert order_problem(position, power, order) == message
    (p,) = validate_orders(position, {power: [order]})
    assert p == Problem(power, order, rule, message)
    assert str(p) == f"{order}: {message}"
    assert rule in RULES


@pytest.mark.parametrize("position, power, text", [
    (SPRING, "France", "A PAR - BUR"), (SPRING, "England", "A LON - NWY VIA"),
    (SPRING, "England", "A LON - NWY"),          # not adjacent, but a convoy route exists
    (SPRING, "England", "F NTH C A LON - NWY"), (SPRING, "Russia", "F STP/SC - BOT"),
    (SPRING, "France", "F MAO - SPA/NC"), (SPRING, "France", "A MAR S A PAR - BUR"),
    (SPRING, "England", "F ENG S A LON - BEL"),  # a support of a convoyed move
    (RETREAT, "France", "F BRE R MAO"), (RETREAT, "France", "F BRE - GAS"), (RETREAT, "France", "F BRE D"),
    (WINTER, "France", "F BRE B"), (WINTER, "France", "WAIVE"), (WINTER, "Russia", "F STP/NC B"),
])
def test_legal_orders_have_no_problem(position, power, text):
    assert order_problem(position, power, parse_order(text)) is None


def test_orders_are_judged_together():
    # a unit with two different orders holds (DATC 4.D.3): both are problems; the same
    # order twice is harmless
    pairs = [("France", parse_order(t)) for t in ("A PAR - BUR", "A PAR - PIC", "A MAR H", "A MAR H")]
    got = order_problems(SPRING, pairs)
    assert [p.rule if p else None for p in got] == ["one order", "one order", None, None]
    assert got[0].message == "two different orders: A PAR - BUR; A PAR - PIC"
    # no more builds than the power is owed, and never two in one center
    builds = {"France": [parse_order(t) for t in ("F BRE B", "A MAR B", "A BRE B", "WAIVE", "F MAR B")]}
    assert [(str(p.order), p.rule, p.message) for p in validate_orders(WINTER, builds)] == [
        ("A BRE B", "build", "BRE is occupied"), ("F MAR B", "builds left", "France may build only 3")]
    # the same build twice: the second is refused, and it is the second that is reported
    twice = [("France", parse_order("A MAR B")), ("France", parse_order("A MAR B"))]
    assert [p and p.message for p in order_problems(WINTER, twice)] == [None, "MAR is occupied"]


def test_a_problem_is_what_the_adjudicator_sets_aside():
    """Over random phases, an order is a problem exactly when the adjudicator refuses it
    (illegal, no such unit, not your unit, ordered twice) - and a random legal order set
    has none."""
    refused = {Reason.ILLEGAL, Reason.NO_UNIT, Reason.NOT_YOUR_UNIT, Reason.DUPLICATE}
    seen = 0
    for seed in range(30):
        position = random_position(seed, 24)
        orders = random_orders(seed, position)
        assert validate_orders(position, orders) == [], seed
        # the same orders, each given to the next power: most are now another's unit
        shifted = {p: os for p, os in zip(list(orders)[1:] + list(orders)[:1], orders.values())}
        problems = validate_orders(position, shifted)
        outcome = adjudicate(position, shifted)
        assert {(p.power, p.order) for p in problems} == {
            (r.power, r.order) for r in outcome.results if r.reason in refused}
        seen += len(problems)
    assert seen > 100


def test_datc_illegal_orders_agree_with_the_adjudicator():
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_datc import CASE_FILES, split_case
    found = set()
    for path in CASE_FILES:
        position, orders = parse_position(split_case(path.read_text(encoding="utf-8"))[0], str(path))
        problems = validate_orders(position, orders)
        illegal = {(r.power, r.order) for r in adjudicate(position, orders).results
                   if r.reason == Reason.ILLEGAL}
        assert illegal <= {(p.power, p.order) for p in problems}, path.name
        found |= {p.rule for p in problems}
    # the DATC exercises most rules
    assert {"terrain", "adjacency", "support", "convoy", "build", "coast", "retreat"} <= found


def test_a_move_by_a_program_to_no_place():
    assert order_problem(SPRING, "France", Move("A", "PAR", "XYZ")) == "unknown destination XYZ"
    (p,) = validate_orders(SPRING, {"France": [SupportMove("A", "PAR", "A", "MAR", "XYZ")]})
    assert p.rule == "location"
