"""DumbBot (dipsolve.algorithms.dumbbot): its values on the 1901 start checked by hand, its choice
rule, its invariants, and the legality of every order it gives in random positions."""

from __future__ import annotations

import random

import pytest

from dipsolve.algorithms import dumbbot
from dipsolve.core.adjudicator import REFUSED, Reason, adjudicate
from dipsolve.algorithms.dumbbot import NEUTRAL, _pick, power_sizes, values
from dipsolve.core.map import POWERS
from dipsolve.core.orders import (Build, Disband, Hold, Move, Retreat, SupportHold, SupportMove,
                             Waive)
from dipsolve.core.position import Dislodged, Phase, Position, Unit
from dipsolve.testing import random_position

START = Position.initial()


# -- the values, by hand --------------------------------------------------------------------

def test_power_sizes_at_the_start_count_the_neutrals_as_one_power():
    sizes = power_sizes(START)
    # x² + 4x + 16: 3 centers -> 37, Russia's 4 -> 48, the 12 neutral centers -> 208
    assert sizes == {"Austria": 37, "England": 37, "France": 37, "Germany": 37, "Italy": 37,
                     "Russia": 48, "Turkey": 37, NEUTRAL: 208}


def test_attack_and_defence_values_at_the_start():
    germany = values(START, "Germany")
    assert germany.attack["HOL"] == 208          # neutral: the neutral pseudo-power's size
    assert germany.attack["PAR"] == 37           # French
    assert germany.attack["WAR"] == 48           # Russian
    assert "BER" not in germany.attack           # our own
    assert germany.defence == {"BER": 0, "KIE": 0, "MUN": 0}   # no enemy unit can move in
    # Venice: the Austrian fleet in Trieste can move in; Trieste: the Italian army in Venice
    assert values(START, "Italy").defence == {"NAP": 0, "ROM": 0, "VEN": 37}
    assert values(START, "Austria").defence == {"BUD": 0, "TRI": 37, "VIE": 0}
    # the fleet in Ankara cannot reach Sevastopol (only the Black Sea and Armenia ...)
    assert values(START, "Russia").defence["SEV"] == 0


def test_proximity_by_hand():
    v = values(START, "Germany")          # Spring: attack × 700, defence × 300
    p0, p1, p2 = v.proximity[:3]
    assert p0[("A", "HOL")] == 208 * 700 == 145600
    assert p0[("A", "PAR")] == 37 * 700
    assert p0[("A", "RUH")] == 0
    # army HOL moves to BEL (145600), KIE (0), RUH (0); plus itself (145600); / 5
    assert p1[("A", "HOL")] == (145600 + 145600) // 5 == 58240
    # army BEL: BUR HOL PIC RUH; KIE: BER DEN HOL MUN RUH; RUH: BEL BUR HOL KIE MUN
    assert p1[("A", "BEL")] == p1[("A", "KIE")] == p1[("A", "RUH")] == 58240
    assert p2[("A", "HOL")] == (58240 * 4) // 5 == 46592
    # fleet MAO: BRE (French, 25900), SPA/NC and SPA/SC (145600, counted once: the larger
    # of one province's coasts), POR (145600), the rest 0 (NAF is not a center)
    assert p1[("F", "MAO")] == (25900 + 145600 + 145600) // 5 == 63420
    # in the fall the attack weight is 600
    fall = Position.build(Phase("Fall", 1901, "movement"), START.units, START.centers)
    assert values(fall, "Germany").proximity[0][("A", "HOL")] == 208 * 600


def test_strength_and_competition():
    austria = values(START, "Austria")
    assert (austria.strength["GAL"], austria.competition["GAL"]) == (2, 1)   # VIE, BUD / WAR
    # Trieste: the fleet in it and both armies next to it; Italy's army in Venice
    assert (austria.strength["TRI"], austria.competition["TRI"]) == (3, 1)
    # as in the original, a fleet counts once per coast it can move to: MAO -> SPA twice
    pos = Position.build("S1902M", [Unit("France", "F", "MAO"), Unit("Italy", "A", "MAR")],
                         START.centers)
    france = values(pos, "France")
    assert france.strength["SPA"] == 2 and france.competition["SPA"] == 1


def test_destination_values():
    v = values(START, "Germany")
    spring_w = (100, 1000, 30, 10, 6, 5, 4, 3, 2, 1)
    for coast in [("A", "HOL"), ("F", "DEN"), ("A", "BER"), ("F", "HOL")]:
        prov = coast[1]
        expected = (sum(v.proximity[n][coast] * spring_w[n] for n in range(10))
                    + 1000 * v.strength.get(prov, 0) - 1000 * v.competition.get(prov, 0))
        assert v.destination[coast] == expected
    assert v.destination[("A", "HOL")] == 75552915
    assert v.destination[("F", "DEN")] == 81819040
    # a neutral center is worth far more than a home center no enemy can reach
    assert v.destination[("A", "HOL")] > 30 * v.destination[("A", "BER")]
    austria = values(START, "Austria")
    assert austria.destination[("A", "SER")] == 140947050
    assert austria.destination[("A", "GAL")] == 41830705


def test_winter_values_use_the_build_weights_and_defence():
    pos = Position.build("W1901A", [Unit("Italy", "A", "TRI")],
                         {**dict(START.centers), "TRI": "Italy"})
    v = values(pos, "Austria")            # Austria lost Trieste and has no unit: it builds
    build_w = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
    vie = ("A", "VIE")
    # the Italian army in Trieste can move in; Italy owns 4 centers: 16 + 16 + 16
    assert v.defence["VIE"] == 48
    assert v.destination[vie] == sum(v.proximity[n][vie] * build_w[n] for n in range(10)) + 1000 * 48


# -- the choice rule ----------------------------------------------------------------------------

@pytest.mark.parametrize("second, share", [(79, 0.0), (80, 0.0), (90, 0.25), (100, 0.5)])
def test_next_best_is_taken_with_50_percent_less_2_5_per_percent_of_gap(second, share):
    rng = random.Random(7)
    n = 4000
    picks = sum(_pick([(100, "best"), (second, "next")], rng, dumbbot.DEFAULT_WEIGHTS) for _ in range(n))
    assert abs(picks / n - share) < 0.03


# -- orders --------------------------------------------------------------------------------------

def test_same_seed_same_orders_and_the_seed_matters():
    by_seed = {}
    for seed in range(12):
        by_seed[seed] = {p: dumbbot.orders(START, p, random.Random(seed)) for p in POWERS}
        again = {p: dumbbot.orders(START, p, random.Random(seed)) for p in POWERS}
        assert again == by_seed[seed]
    assert len({repr(sorted(map(str, o["Russia"]))) for o in by_seed.values()}) > 1


def test_openings_go_for_neutral_centers():
    orders = {p: {str(o) for o in dumbbot.orders(START, p, random.Random(0))} for p in POWERS}
    # the most valuable places next to these units are neutral centers (gap > 20%)
    assert "A BUD - SER" in orders["Austria"] or "A BUD - RUM" in orders["Austria"]
    assert "A MAR - SPA" in orders["France"]


def _check_movement_invariants(position: Position, power: str, given: list) -> None:
    """What the order rule guarantees: one order per unit; never two of our moves into
    one province; never a move into a province where our unit stays; every support is
    of an order one of our units was really given."""
    po = position.map.province_of
    mine = {u.location: u for u in position.units_of(power)}
    assert sorted(o.location for o in given) == sorted(mine)
    by_prov = {po[o.location]: o for o in given}
    targets = [po[o.target] for o in given if isinstance(o, Move)]
    assert len(targets) == len(set(targets))
    for o in given:
        if isinstance(o, Move):
            stays = by_prov.get(po[o.target])
            assert stays is None or isinstance(stays, Move), (o, stays)
        elif isinstance(o, SupportHold):
            assert not isinstance(by_prov[po[o.supported_location]], Move)
        elif isinstance(o, SupportMove):
            moved = by_prov[po[o.supported_location]]
            assert isinstance(moved, Move) and po[moved.target] == o.target
        else:
            assert isinstance(o, Hold)


_REFUSED = REFUSED | {Reason.VOID}


@pytest.mark.parametrize("kind", ["movement", "retreat", "adjustment"])
def test_every_order_is_accepted_in_random_positions(kind):
    for seed in range(60):
        rng = random.Random(seed)
        pos = random_position(seed, n_units=rng.randint(6, 30), phase_kind=kind)
        orders = {p: dumbbot.orders(pos, p, random.Random(seed)) for p in pos.powers()}
        outcome = adjudicate(pos, orders)
        refused = [r for r in outcome.results if r.reason in _REFUSED]
        assert not refused, (pos.to_text(orders), refused)
        for power in pos.powers():
            given = orders[power]
            if kind == "movement":
                _check_movement_invariants(pos, power, given)
            elif kind == "retreat":
                mine = sorted(d.unit.location for d in pos.dislodged if d.unit.power == power)
                assert sorted(o.location for o in given) == mine
                assert all(isinstance(o, (Retreat, Disband)) for o in given)
            else:
                owed = pos.adjustment(power)
                if owed < 0:
                    assert len(given) == -owed and all(isinstance(o, Disband) for o in given)
                    assert not any(r.reason == Reason.CIVIL_DISORDER and r.power == power
                                   for r in outcome.results)
                elif owed > 0:
                    builds = [o for o in given if isinstance(o, Build)]
                    assert len(builds) == min(owed, len(pos.buildable(power)))
                    assert len(given) == owed and all(isinstance(o, (Build, Waive)) for o in given)
                else:
                    assert given == []


def test_retreats_never_collide_and_disband_when_nowhere_is_left():
    # two Austrian units dislodged, one retreat open to both: one takes it, one disbands
    units = [Unit("Italy", "A", "BUD"), Unit("Italy", "A", "VIE")]
    dislodged = [Dislodged(Unit("Austria", "A", "BUD"), "GAL", ("TRI",)),
                 Dislodged(Unit("Austria", "A", "VIE"), "BOH", ("TRI",))]
    pos = Position.build("F1901R", units, START.centers, dislodged)
    for seed in range(10):
        given = dumbbot.orders(pos, "Austria", random.Random(seed))
        assert sorted(type(o).__name__ for o in given) == ["Disband", "Retreat"]
        assert [o.target for o in given if isinstance(o, Retreat)] == ["TRI"]


def test_builds_waive_what_cannot_be_built_and_removals_are_exact():
    centers = {**dict(START.centers), "DEN": "Germany", "HOL": "Germany", "BEL": "Germany"}
    pos = Position.build("W1901A", [Unit("Germany", "A", "BER")], centers)   # 6 centers, 1 unit
    given = dumbbot.orders(pos, "Germany", random.Random(0))
    builds = [o for o in given if isinstance(o, Build)]
    assert sorted(pos.map.province_of[b.location] for b in builds) == ["KIE", "MUN"]
    assert sum(isinstance(o, Waive) for o in given) == 3
    crowded = Position.build("W1901A", [Unit("Germany", "A", p) for p in ("BER", "MUN", "SIL", "BOH")],
                             START.centers)                                   # 3 centers, 4 units
    removal = dumbbot.orders(crowded, "Germany", random.Random(0))
    assert len(removal) == 1 and isinstance(removal[0], Disband)


def test_the_destination_values_of_the_places_germanys_units_stand_on():
    v = values(START, "Germany")
    places = [v.destination[(u.kind, u.location)] for u in START.units_of("Germany")]
    assert sorted(places) == [2080876, 4257005, 63814435]  # A BER, A MUN, F KIE
