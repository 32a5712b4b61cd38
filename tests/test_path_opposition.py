"""The fastest path against opposition (`dipsolve.models.path`, ``opposition`` "hold" and
"supported"): the CP-SAT answer against a brute force over every order set, and plans
that replay through the adjudicator against the opposition's orders.

The brute force knows nothing of the model.  It walks the game phase by phase from the
position: in each movement phase every order set of the power (the product of each
unit's legal orders), against the others as the model has them play (``hold``: every unit
holds; ``supported``: every assignment of a hold, or a support of a neighbour's hold, to
each of their units next to a unit of theirs that the order set attacks (the choices of
the others change nothing), an order set kept only when its outcome is the same under
every assignment: a plan that succeeds against every choice); their dislodged units
retreat nowhere (destroyed); in each Winter every choice of builds (or removals), the
others keeping all their units (they owe removals, make none).  The
fewest game years to the target is the first Fall after which some position reached
has it.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Iterator

import pytest

from dipsolve.cli.main import main
from dipsolve.core.adjudicator import adjudicate
from dipsolve.core.graph import reachable_provinces
from dipsolve.core.legal import legal_orders
from dipsolve.core.errors import DipsolveArgumentError, DipsolveRuleError
from dipsolve.core.map import standard_map
from dipsolve.core.orders import Build, Disband, Hold, Move, Order, SupportHold, SupportMove
from dipsolve.core.position import Phase, Position, Unit
from dipsolve.core.resolver import Resolver
from dipsolve.core.results import Limits
from dipsolve.models.path import ReplayError, replay, solve_path
from dipsolve.models.path_problem import moves_within

M = standard_map()


def _key(pos: Position) -> tuple:
    return (pos.phase, tuple(sorted((u.power, u.kind, u.location) for u in pos.units)),
            tuple(sorted(pos.owner.items())))


def _their_orders(pos: Position, power: str, ours: tuple[Order, ...], opposition: str,
                  given: list[Order] | None = None) -> Iterator[dict[str, list[Order]]]:
    """Every way the others may play against ``ours`` (see the module notes); only
    ``given``, where a known defence orders the phase (a support of a unit no longer
    standing becomes a hold, a unit left out holds)."""
    po = M.province_of
    theirs = [u for u in pos.units if u.power != power]
    held = {po[u.location]: u for u in theirs}
    if given is not None:
        out: dict[str, list[Order]] = {}
        for u in theirs:
            o = next((g for g in given if g.location == u.location), Hold(u.kind, u.location))
            if isinstance(o, SupportHold) and po[o.supported_location] not in held:
                o = Hold(u.kind, u.location)
            out.setdefault(u.power, []).append(o)
        yield out
        return
    if opposition == "hold":
        yield {}
        return
    attacked = {po[o.target] for o in ours if isinstance(o, Move) and po[o.target] in held}
    choices = []
    for u in theirs:
        near = sorted(e for e in attacked if e != po[u.location] and e in reachable_provinces(M, u))
        choices.append([Hold(u.kind, u.location)]
                       + [SupportHold(u.kind, u.location, held[e].kind, held[e].location) for e in near])
    for pick in itertools.product(*choices):
        out: dict[str, list[Order]] = {}
        for u, o in zip(theirs, pick):
            out.setdefault(u.power, []).append(o)
        yield out


def _movement(pos: Position, power: str, opposition: str,
              given: list[Order] | None = None) -> Iterator[Position]:
    resolver = Resolver(pos)
    seen = set()
    for ours in itertools.product(*(legal_orders(pos, u) for u in pos.units_of(power))):
        first = None
        for others in _their_orders(pos, power, ours, opposition, given):
            res = resolver.resolve({power: list(ours), **others})
            # who stands where after it (their dislodged units gone) and the centers that change
            key = (res.units, tuple(sorted(res.center_changes.items())))
            if first is None:
                first = (key, res)
            elif key != first[0]:
                first = None                            # their choice changes the outcome
                break
        if first is None or first[0] in seen:
            continue
        seen.add(first[0])
        nxt = first[1].next
        if nxt.phase.kind == "retreat":                 # theirs, dislodged: destroyed
            assert all(d.unit.power != power for d in nxt.dislodged)
            nxt = adjudicate(nxt, {}).next
        yield nxt


def _winter(pos: Position, power: str) -> Iterator[Position]:
    units = pos.units_of(power)
    owed = len(pos.centers_of(power)) - len(units)
    if owed < 0:
        for gone in itertools.combinations(units, -owed):
            yield _theirs_kept(pos, adjudicate(pos, {power: [Disband(u.kind, u.location) for u in gone]}).next,
                               power)
        return
    homes = [[None] + [Build(k, loc) for k, loc in M.unit_places(h)] for h in pos.buildable(power)]
    for pick in itertools.product(*homes):
        builds = [b for b in pick if b is not None]
        if len(builds) <= owed:
            yield _theirs_kept(pos, adjudicate(pos, {power: builds}).next, power)


def _theirs_kept(before: Position, after: Position, power: str) -> Position:
    """The others keep every unit through a Winter (the opposed models make no removal
    of theirs: the defence at its strongest)."""
    return Position.build(after.phase, after.units_of(power) + [u for u in before.units if u.power != power],
                          after.owner, game_map=M)


def brute_years(position: Position, power: str, target: int, opposition: str, years: int,
                defence: dict[str, list[Order]] | None = None) -> int | None:
    """The fewest game years to ``target`` centers, by the brute force (the others as
    ``defence`` orders them in the phases it gives); None when no plan within ``years``
    reaches it."""
    frontier = {_key(position): position}
    first = position.phase.year + (position.phase.kind == "adjustment")
    while frontier:
        pos = next(iter(frontier.values()))
        if pos.phase.kind == "movement" and pos.phase.year - first + 1 > years:
            return None
        nxt: dict[tuple, Position] = {}
        for pos in frontier.values():
            step = (_movement(pos, power, opposition, (defence or {}).get(pos.phase.short))
                    if pos.phase.kind == "movement" else _winter(pos, power))
            for after in step:
                if pos.phase.season == "Fall" and len(after.centers_of(power)) >= target:
                    return pos.phase.year - first + 1
                nxt.setdefault(_key(after), after)
        frontier = nxt
    return None


def _position(ours: list[Unit], theirs: list[Unit], owners: dict[str, str],
              phase: Phase = Phase("Spring", 1903, "movement")) -> Position:
    return Position.build(phase, ours + theirs, owners, game_map=M)


#: Austria's two armies in the west, every center near them held (Austria owns two far
#: centers, so it neither builds nor removes): Belgium falls to a supported attack, unless
#: the fleet in Holland may support it
BELGIUM = _position(
    [Unit("Austria", "A", "BUR"), Unit("Austria", "A", "RUH")],
    [Unit("France", "A", "PAR"), Unit("France", "A", "MAR"), Unit("France", "A", "BEL"),
     Unit("France", "F", "BRE"), Unit("France", "A", "SPA"), Unit("Germany", "A", "MUN"),
     Unit("Germany", "F", "HOL"), Unit("Germany", "A", "KIE")],
    {"TUN": "Austria", "GRE": "Austria", "PAR": "France", "MAR": "France", "BEL": "France",
     "BRE": "France", "SPA": "France", "MUN": "Germany", "HOL": "Germany", "KIE": "Germany"})

#: the same with a French army in Gascony, which could support Paris or Marseilles
GASCONY = _position([u for u in BELGIUM.units if u.power == "Austria"],
                    [u for u in BELGIUM.units if u.power != "Austria"] + [Unit("France", "A", "GAS")],
                    dict(BELGIUM.owner))

#: the same with a third army in Picardy: one cuts Holland's support, two take Belgium
BELGIUM3 = _position(
    [Unit("Austria", "A", "BUR"), Unit("Austria", "A", "RUH"), Unit("Austria", "A", "PIC")],
    [u for u in BELGIUM.units if u.power != "Austria"],
    {**BELGIUM.owner, "NAP": "Austria"})


#: Germany with a home center to build in (Kiel), the French on its western border
BUILDS = _position(
    [Unit("Germany", "A", "RUH"), Unit("Germany", "A", "MUN")],
    [Unit("France", "A", "BEL"), Unit("France", "F", "HOL"), Unit("France", "A", "BUR"),
     Unit("France", "A", "PAR"), Unit("Russia", "A", "BER"), Unit("Russia", "F", "DEN")],
    {"MUN": "Germany", "KIE": "Germany", "SWE": "Germany", "BEL": "France", "HOL": "France",
     "PAR": "France", "BER": "Russia", "DEN": "Russia"}, Phase("Fall", 1903, "movement"))

#: England, an army to carry across and a French fleet standing on London since the Spring
ENGLAND = _position(
    [Unit("England", "A", "YOR"), Unit("England", "F", "NTH"), Unit("England", "F", "EDI")],
    [Unit("France", "F", "LON"), Unit("France", "A", "BEL"), Unit("Germany", "A", "HOL"),
     Unit("Germany", "F", "DEN"), Unit("Russia", "F", "NWY")],
    {"LON": "England", "EDI": "England", "LVP": "England", "BEL": "France", "HOL": "Germany",
     "DEN": "Germany", "NWY": "Russia"}, Phase("Fall", 1903, "movement"))


@pytest.mark.slow
@pytest.mark.parametrize("name, position, target, years", [
    ("two armies against Belgium", BELGIUM, 3, 1),
    ("two armies, every center near them defended", GASCONY, 3, 2),
    ("three armies against Belgium and Holland's support", BELGIUM3, 4, 1),
    ("a build, then a supported attack", BUILDS, 5, 2),
    ("London to win back, an army to carry", ENGLAND, 4, 2),
])
@pytest.mark.parametrize("opposition", ["hold", "supported"])
def test_the_fewest_years_agree_with_a_brute_force(name, position, target, years, opposition):
    power = next(u.power for u in position.units if u.power in ("Austria", "Germany", "England"))
    want = brute_years(position, power, target, opposition, years)
    sol = solve_path(position, power, target, max_moves=moves_within(position.phase, years),
                     opposition=opposition, limits=Limits(time_limit=60))
    if want is None:
        assert sol.status == "infeasible" and sol.plan == (), (name, sol.explanation())
    else:
        assert sol.status == "optimal" and sol.years == want, (name, want, sol.explanation())


#: known defences of the small positions: each phase's orders of the others
_GAS_MAR = SupportHold("A", "GAS", "A", "MAR")
_GAS_PAR = SupportHold("A", "GAS", "A", "PAR")
_HOL_BEL = SupportHold("F", "HOL", "A", "BEL")
_MUN_KIE = SupportHold("A", "MUN", "A", "KIE")
#: every center Gascony's Austrians can reach guarded (Berlin, empty, is two steps off)
_GUARDED = [_HOL_BEL, SupportHold("A", "KIE", "A", "MUN"), _GAS_PAR, SupportHold("A", "SPA", "A", "MAR")]


@pytest.mark.slow
@pytest.mark.parametrize("name, position, target, years, defence", [
    ("Holland supports Belgium in the Spring", BELGIUM, 3, 1, {"S1903M": [_HOL_BEL]}),
    ("Holland supports Belgium all year", BELGIUM, 3, 1, {"S1903M": [_HOL_BEL], "F1903M": [_HOL_BEL]}),
    ("Gascony guards Marseilles, then Paris", GASCONY, 3, 2,
     {"S1903M": [_GAS_MAR], "F1903M": [_GAS_PAR, _HOL_BEL], "F1904M": [_GAS_MAR, _MUN_KIE]}),
    ("every center guarded for a year: one year more than hold", GASCONY, 3, 2,
     {"S1903M": _GUARDED, "F1903M": _GUARDED}),
    ("every center guarded for a year, one year to go: impossible", GASCONY, 3, 1,
     {"S1903M": _GUARDED, "F1903M": _GUARDED}),
    ("Holland's support, cut or not", BELGIUM3, 4, 1, {"S1903M": [_HOL_BEL, _MUN_KIE], "F1903M": [_HOL_BEL]}),
    ("a build, then Belgium guarded", BUILDS, 5, 2, {"S1904M": [SupportHold("F", "HOL", "A", "BEL")],
                                                      "F1904M": [SupportHold("A", "BUR", "A", "BEL")]}),
])
@pytest.mark.parametrize("opposition", ["hold", "supported"])
def test_a_known_defence_agrees_with_a_brute_force(name, position, target, years, defence, opposition):
    power = next(u.power for u in position.units if u.power in ("Austria", "Germany"))
    want = brute_years(position, power, target, opposition, years, defence)
    sol = solve_path(position, power, target, max_moves=moves_within(position.phase, years),
                     opposition=opposition, defence=defence, limits=Limits(time_limit=60))
    if want is None:
        assert sol.status == "infeasible" and sol.plan == (), (name, sol.explanation())
    else:
        assert sol.status == "optimal" and sol.years == want, (name, want, sol.explanation())
        for step in sol.plan:             # the replay played the defence where it was given
            for o in defence.get(step.phase.short, ()):
                assert o in step.others or Hold(o.kind, o.location) in step.others, (step.phase, o)


@pytest.mark.parametrize("defence, message", [
    ({"S1903M": [Move("A", "BEL", "PIC")]}, "never move in a path's opposition"),
    ({"S1903M": [Hold("A", "BUR")]}, "a unit of Austria, whose orders are the plan's"),
    ({"S1903M": [Hold("A", "PIC")]}, "no unit of the other powers stands in PIC"),
    ({"S1903M": [Hold("F", "BEL")]}, "no unit of the other powers stands in BEL"),
    ({"S1903M": [SupportHold("F", "BRE", "A", "PAR")]}, "BRE cannot support into PAR"),
    ({"S1903M": [SupportHold("A", "PAR", "A", "BUR")]}, "no unit of the other powers stands in BUR"),
    ({"S1903M": [Hold("A", "PAR"), Hold("A", "PAR")]}, "ordered twice"),
    ({"F1902M": []}, "comes before the path's start, S1903M"),
    ({"W1903A": []}, "W1903A is not one"),
    ({"S1903M": [], Phase("Spring", 1903, "movement"): []}, "gives S1903M twice"),
])
def test_a_defence_that_is_not_one_is_refused(defence, message):
    with pytest.raises(DipsolveRuleError, match=message):
        solve_path(GASCONY, "Austria", 3, opposition="hold", defence=defence, limits=Limits(time_limit=5))


def test_a_defence_needs_the_others_on_the_board():
    with pytest.raises(DipsolveRuleError, match="'none' takes off the board"):
        solve_path(GASCONY, "Austria", 3, defence={"S1903M": [Hold("A", "PAR")]}, limits=Limits(time_limit=5))
    with pytest.raises(DipsolveArgumentError, match="maps movement phases to orders"):
        solve_path(GASCONY, "Austria", 3, opposition="hold", defence=[Hold("A", "PAR")],  # type: ignore[arg-type]
                   limits=Limits(time_limit=5))


def test_hold_and_supported_part_where_a_support_defends():
    hold = solve_path(GASCONY, "Austria", 3, max_moves=2, opposition="hold", limits=Limits(time_limit=60))
    supported = solve_path(GASCONY, "Austria", 3, max_moves=2, opposition="supported",
                           limits=Limits(time_limit=60))
    assert hold.status == "optimal" and hold.years == 1
    assert hold.plan[-1].centers == 3
    # every center next to the two armies has a neighbour of theirs to support it
    assert supported.status == "infeasible" and "CP-SAT proved" in supported.explanation()[-1]
    # Paris has none in BELGIUM: one army supports the other in
    paris = solve_path(BELGIUM, "Austria", 3, max_moves=2, opposition="supported", limits=Limits(time_limit=60))
    assert paris.status == "optimal" and paris.years == 1
    last = {str(o) for o in paris.plan[-1].orders}
    assert any(o.endswith("- PAR") for o in last) and any(" S " in o and o.endswith("- PAR") for o in last)
    none = solve_path(GASCONY, "Austria", 3, max_moves=2, limits=Limits(time_limit=60))
    assert none.status == "optimal" and none.years == 1          # nobody there: walk in


def test_a_supported_plan_cuts_the_support_and_replays_against_every_choice():
    sol = solve_path(BELGIUM3, "Austria", 4, max_moves=2, opposition="supported",
                     limits=Limits(time_limit=60))
    assert sol.status == "optimal" and sol.years == 1
    # replayed by the adjudicator directly, against every way the others may play
    pos = BELGIUM3
    for step in sol.plan:
        outcomes = {}
        for others in _their_orders(pos, "Austria", step.orders, "supported"):
            out = adjudicate(pos, {"Austria": list(step.orders), **others})
            nxt = out.next if out.next.phase.kind != "retreat" else adjudicate(out.next, {}).next
            outcomes[_key(nxt)] = nxt
        assert len(outcomes) == 1, step.phase        # the same outcome, whatever they chose
        pos = next(iter(outcomes.values()))
    assert len(pos.centers_of("Austria")) >= 4


def test_the_replay_plays_the_opposition_and_refuses_a_plan_that_bounces():
    steps = [(Phase("Spring", 1903, "movement"), [Move("A", "RUH", "BEL")])]   # unsupported: bounces
    with pytest.raises(ReplayError, match="bounced"):
        replay(BELGIUM, "Austria", steps, opposition="hold")
    plan, outcomes = replay(BELGIUM, "Austria", [(Phase("Spring", 1903, "movement"),
                                                  [Move("A", "RUH", "BEL"),
                                                   SupportMove("A", "BUR", "A", "RUH", "BEL")])],
                              opposition="hold")
    assert plan[0].others and all(isinstance(o, Hold) for o in plan[0].others)
    assert "BEL" in {u.location for u in outcomes[-1].next.units_of("Austria")}
    assert all(u.location != "BEL" for u in outcomes[-1].next.units if u.power == "France")



# -- the command ---------------------------------------------------------------------------

RECORD = Path(__file__).parent / "data" / "records" / "meta-game_433761_ENGLAND_AG.json"


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_path_against_a_defence_from_a_record_phase(capsys):
    args = ("path", "--from", str(RECORD), "--phase", "W1906A", "--power", "ENG", "--target", "18")
    code, out, _ = _run(capsys, *args, "--opposition", "supported", "--json")
    d = json.loads(out)
    assert code == 0 and d["opposition"] == "supported" and d["start"] == "W1906A"
    assert d["status"] == "optimal" and d["years"] == 2 and d["reached"] == "F1908M" and d["replayed"]
    assert d["plan"][-1]["centers"] >= 18 and all("others" in p for p in d["plan"])
    assert [a["status"] for a in d["attempts"]] == ["INFEASIBLE", "OPTIMAL"]
    code, out, _ = _run(capsys, *args, "--opposition", "hold")
    assert code == 0 and "opposition: the others' units hold, never move" in out
    assert "against the others' units, as the opposition plays them" in out
    # within one game year there is no plan, proven
    code, out, _ = _run(capsys, *args, "--opposition", "hold", "--years", "1")
    assert code == 0 and "England cannot reach 18 supply centers" in out and "status: infeasible" in out


DEFENCE = Path(__file__).parent.parent / "examples" / "path" / "defence-france-1909.txt"


def test_path_against_a_known_defence_plays_it(capsys):
    args = ("path", "--from", str(THREATS_RECORD), "--phase", "F1908M", "--power", "ENG", "--target", "18",
            "--defence", str(DEFENCE))
    code, out, _ = _run(capsys, *args, "--json")
    d = json.loads(out)
    assert code == 0 and d["opposition"] == "hold" and d["defended"] == ["F1908M", "S1909M", "F1909M"]
    assert d["status"] == "optimal" and d["reached"] == "F1909M" and d["replayed"]
    # France's two armies support each other as the file orders, until the plan takes Paris
    guards = {p["phase"]: sorted(o for o in p["others"] if "PAR" in o or "PIC" in o) for p in d["plan"]}
    assert guards == {"F1908M": ["A PAR S A PIC", "A PIC S A PAR"], "W1908A": [],
                      "S1909M": ["A PAR S A PIC", "A PIC S A PAR"], "F1909M": []}
    code, out, _ = _run(capsys, *args, "--opposition", "supported")
    assert code == 0 and f"defence: as {DEFENCE} orders them in F1908M, S1909M, F1909M" in out


def test_path_refuses_a_defence_that_is_not_one(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("[S1909M]\nFrance: A PIC - BEL\n[W1909A]\n", encoding="utf-8")
    code, out, err = _run(capsys, "path", "--from", str(THREATS_RECORD), "--phase", "F1908M", "--power", "ENG",
                          "--target", "18", "--defence", str(bad), "--json")
    e = json.loads(out)              # under --json the error is the one JSON object printed
    assert code == 2 and e["error"] == "rule" and e["file"].endswith("bad.txt")
    assert (e["line"], e["col"]) == (2, 9) and "never move" in e["message"]
    assert [(x["line"], x["col"]) for x in e["errors"]] == [(2, 9), (3, 2)]


@pytest.mark.parametrize("argv, message", [
    (("--opposition", "none", "--defence", "d.txt"), "--opposition none takes off the board"),
    (("--defence", "d.txt", "--algorithm", "bfs"), "applies to --algorithm exact only"),
    (("--opposition", "hold", "--rules", "paper"), "plays by the full rules"),
    (("--opposition", "hold", "--algorithm", "bfs"), "applies to --algorithm exact only"),
    (("--years", "0"), "--years: 0 is not a number of game years"),
    (("--phase", "S1905M"), "--phase picks a phase of a game record given with --from"),
])
def test_path_refuses_options_that_mean_nothing(capsys, argv, message):
    code, out, err = _run(capsys, "path", "--power", "ENG", *argv)
    assert code == 2 and message in err and not out


# -- the solo-threat curve of a game (analyze --threats) -----------------------------------

THREATS_RECORD = Path(__file__).parent / "data" / "records" / "meta-game_443831_GERMANY_EI.json"


def test_analyze_threats_gives_each_falls_fewest_years_to_a_solo(capsys):
    code, out, _ = _run(capsys, "analyze", str(THREATS_RECORD), "--threats", "hold", "--threat-years", "2",
                        "--power", "ENG", "--time-limit", "60", "--json")
    d = json.loads(out)["threats"]
    assert code == 0 and d["opposition"] == "hold" and d["years"] == 2 and d["target"] == 18
    england = {row["phase"]: row["powers"]["England"] for row in d["phases"]}
    assert list(england) == ["F1901M", "F1902M", "F1903M", "F1904M", "F1905M", "F1906M", "F1907M", "F1908M"]
    # 1901's England cannot solo within two years; by 1907 it can, in two, proven
    assert england["F1901M"]["status"] == "infeasible" and england["F1901M"]["years"] is None
    assert england["F1907M"] == {**england["F1907M"], "status": "optimal", "years": 2, "bound_years": 2}
    assert england["F1908M"]["years"] == 2 and d["spans"]["England"][-1][1] == "F1908M"
    code, out, _ = _run(capsys, "analyze", str(THREATS_RECORD), "--threats", "--threat-years", "2",
                        "--power", "ENG", "--time-limit", "60")
    assert code == 0 and "## solo threats: the fewest game years to 18 centers from each Fall" in out
    assert "-: none within 2 years, proven" in out and "England: a solo within 2 years from F1907M (2 years)" in out


def test_analyze_threats_sees_a_threat_appear_and_stopped_in_a_second_record(capsys):
    record = THREATS_RECORD.parent / "meta-game_435086_FRANCE_RT.json"
    code, out, _ = _run(capsys, "analyze", str(record), "--threats", "hold", "--threat-years", "2",
                        "--power", "RUS", "--time-limit", "60", "--json")
    d = json.loads(out)["threats"]
    russia = {row["phase"]: row["powers"]["Russia"] for row in d["phases"]}
    # Russia could solo within two years from Fall 1906 only: proven before, proven after
    assert code == 0 and d["spans"] == {"Russia": [["F1906M", "F1906M"]]}
    assert russia["F1906M"] == {**russia["F1906M"], "status": "optimal", "years": 2}
    assert all(r["status"] == "infeasible" for p, r in russia.items() if p != "F1906M")


def test_analyze_threats_refuses_what_means_nothing(capsys):
    code, out, err = _run(capsys, "analyze", str(THREATS_RECORD), "--threats", "--adjudication-only")
    assert code == 2 and "pick one" in err and not out
    code, out, err = _run(capsys, "analyze", str(THREATS_RECORD), "--threats", "hold", "--threat-years", "0")
    assert code == 2 and "--threat-years: 0" in err


def test_the_game_page_draws_the_solo_threats(capsys, tmp_path):
    page = tmp_path / "game.html"
    code, out, _ = _run(capsys, "analyze", str(THREATS_RECORD), "--threats", "hold", "--threat-years", "2",
                        "--power", "ENG", "--time-limit", "60", "--html", str(page))
    html = page.read_text()
    assert code == 0 and '<div id="threats">' in html
    chart = html[html.index('<div id="threats">'):]
    assert "Years to a solo against hold" in chart
    # England's line: no plan within two years until 1907, then two years, each proven (filled)
    assert ("<title>England: F1901M - F1902M - F1903M - F1904M - F1905M - F1906M - F1907M 2 F1908M 2</title>"
            in chart)
    assert chart.count("<circle") == 2 and 'fill="#ffffff"' not in chart.split("<g")[1]


def test_view_draws_the_solo_threats_on_the_game_page(capsys, tmp_path):
    page = tmp_path / "game.html"
    record = THREATS_RECORD.parent / "meta-game_435086_FRANCE_RT.json"
    code, out, _ = _run(capsys, "view", str(record), "--threats", "--threat-years", "2", "--time-limit", "60",
                        "-o", str(page), "--json")
    d = json.loads(out)
    assert code == 0 and d["threats"]["opposition"] == "hold" and d["threats"]["years"] == 2
    html = page.read_text()
    chart = html[html.index('<div id="threats">'):]
    # Russia's threat, from Fall 1906 only, on the page as in the table
    assert "<title>Russia: F1901M - F1902M - F1903M - F1904M - F1905M - F1906M 2 F1907M - F1908M -</title>" in chart
    assert d["threats"]["spans"]["Russia"] == [["F1906M", "F1906M"]]
    # without --threats the page has no threat chart, and the threat options are refused
    code, out, _ = _run(capsys, "view", str(record), "-o", str(page))
    assert code == 0 and '<div id="threats">' not in page.read_text()
    code, out, err = _run(capsys, "view", str(record), "--threat-years", "3", "-o", str(page))
    assert code == 2 and "--threat-years applies to --threats only" in err
