"""The seed's three graph searches (Stormont & Allan §3.1–3.3) and `dipsolve path`.

The searches are pinned against the paper's hand counts for Germany (Table 1: BFS 33,
greedy 41, A* 36) and step by step against the examples the paper's text walks through;
the command line is tested as a user meets it (JSON, plan files, pictures, mistakes).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dipsolve.cli import main
from dipsolve.core.map import POWERS, standard_map
from dipsolve.algorithms.path import flood_bound, initial_h, search
from dipsolve.core.position import Position
from dipsolve.core.results import Deadline, Result, Status

START = Position.initial()
ROOT = Path(__file__).resolve().parents[1]


def counts(power: str, order: str = "alphabetical", goal_test: str = "insertion") -> tuple[int, ...]:
    return tuple(search(START, power, a, order=order, goal_test=goal_test).nodes_expanded
                 for a in ("bfs", "greedy", "astar"))


# -- the paper's hand counts -----------------------------------------------------------------

def test_alphabetical_order_gives_the_papers_bfs_and_astar_counts_and_37_for_greedy():
    assert counts("Germany") == (33, 37, 36)


def test_first_ply_in_the_order_the_paper_names_the_units_gives_all_three_hand_counts():
    # §3: "there are armies in Berlin and Munich and a fleet in Kiel"
    assert counts("Germany", "armies-first") == (33, 41, 36)
    r = search(START, "Germany", "greedy", order="armies-first")
    assert [str(r.nodes[i]) for i in r.steps[0].added] == ["A BER", "A MUN", "F KIE"]


def test_the_textbook_goal_test_cannot_give_the_papers_counts():
    # goal test on removal, counting expansions and the root: BFS 33, but greedy 26, A* 32
    got = {a: search(START, "Germany", a, goal_test="removal") for a in ("bfs", "greedy", "astar")}
    assert {a: r.expansions + 1 for a, r in got.items()} == {"bfs": 33, "greedy": 26, "astar": 32}


def test_the_seven_powers_table():
    """The table of docs/path.md (alphabetical order): nodes expanded and the moves found."""
    table = {p: [(r.nodes_expanded, r.objective) for r in (search(START, p, a) for a in ("bfs", "greedy", "astar"))]
             for p in POWERS}
    assert table == {
        "Austria": [(31, 3), (23, 6), (27, 5)],
        "England": [(40, 5), (44, 9), (40, 5)],
        "France": [(38, 3), (36, 10), (37, 4)],
        "Germany": [(33, 3), (37, 12), (36, 4)],
        "Italy": [(35, 3), (28, 6), (28, 6)],
        "Russia": [(28, 3), (33, 12), (31, 5)],
        "Turkey": [(28, 6), (27, 8), (27, 5)],
    }


# -- step by step ------------------------------------------------------------------------------

def test_breadth_first_search_as_section_3_1_walks_through_it():
    r = search(START, "Germany", "bfs")
    trace = r.trace()
    # "inserting the three starting provinces (Berlin, Kiel, and Munich) … goal count three"
    assert trace[0] == "0. Germany (root)  + BER KIE MUN  count 3, tree 3"
    # Berlin: not the Baltic (an army), not Kiel or Munich (visited): Prussia and Silesia
    assert trace[1] == "1. A BER  h=4 f=1  + PRU SIL  count 3, tree 5"
    # "and then Kiel will be removed from the queue for expansion"
    assert trace[2].startswith("2. F KIE ")
    assert trace[-1] == "16. A GAL  h=4 f=3  + BUD*  count 16, tree 33"
    assert r.nodes_expanded == 33 and r.expansions == 16 and r.objective == 3


def test_greedy_search_step_by_step_and_where_the_two_orders_part():
    alphabetical = search(START, "Germany", "greedy").trace()
    armies_first = search(START, "Germany", "greedy", order="armies-first").trace()
    assert alphabetical[:5] == [
        "0. Germany (root)  + BER KIE MUN  count 3, tree 3",
        "1. A BER  h=4 f=4  + PRU SIL  count 3, tree 5",
        # §3.2: Denmark and Holland enter with h = 3 …
        "2. F KIE  h=4 f=4  + BAL DEN* HEL HOL*  count 5, tree 9",
        # … and are taken before Munich: "essentially a depth first search"
        "3. F DEN  h=3 f=3  + NTH SKA SWE*  count 6, tree 12",
        "4. F SWE  h=2 f=2  + FIN BOT NWY*  count 7, tree 15",
    ]
    # Munich is never expanded in alphabetical order; armies first, it is expanded second
    # and its four children are the whole difference: 37 + 4 = 41
    assert armies_first[2] == "2. A MUN  h=4 f=4  + BOH BUR RUH TYR  count 3, tree 9"
    assert not any(line.split()[1:3] == ["A", "MUN"] for line in alphabetical)
    strip = [line.split("  count")[0] for line in alphabetical[2:]]
    assert [line.split("  count")[0].replace(f"{i + 3}.", f"{i + 2}.", 1)
            for i, line in enumerate(armies_first[3:])] == strip
    assert alphabetical[-1].endswith("TUN*  count 16, tree 37")
    assert armies_first[-1].endswith("TUN*  count 16, tree 41")


def test_astar_takes_the_centers_first_as_section_3_3_says():
    r = search(START, "Germany", "astar")
    kie = r.steps[2]
    children = {str(r.nodes[i]): r.nodes[i].f("astar") for i in kie.added}
    # "Denmark and Holland … f = 3 + 2 = 5, … Helgoland Bight f = 4 + 2 = 6"
    assert children == {"F BAL": 6, "F DEN": 5, "F HEL": 6, "F HOL": 5}
    later = [str(r.nodes[s.node]) for s in r.steps[3:6]]
    assert later == ["A MUN", "F DEN", "F HOL"]     # Munich (f = 5, in first) then the centers


def test_initial_heuristic_is_five_and_four_for_russia():
    assert [initial_h(len(START.units_of(p)), 16) for p in POWERS] == [5, 5, 5, 5, 5, 4, 5]
    r = search(START, "Russia", "greedy")
    assert {r.nodes[i].h for i in r.steps[0].added} == {3}     # 4, less one: all on centers


# -- what every search must respect ------------------------------------------------------------

@pytest.mark.parametrize("algorithm", ["bfs", "greedy", "astar"])
@pytest.mark.parametrize("order", ["alphabetical", "reverse"])
def test_every_node_is_a_legal_move_for_its_unit_and_each_province_is_visited_once(algorithm, order):
    m = standard_map()
    for power in POWERS:
        r = search(START, power, algorithm, target=18, order=order)
        provinces = [m.province_of[n.location] for n in r.nodes]
        assert len(provinces) == len(set(provinces))
        for n in r.nodes:
            assert m.can_stand(n.kind, n.location), n
            if n.parent is not None:
                parent = r.nodes[n.parent]
                assert parent.kind == n.kind and m.can_move(n.kind, parent.location, n.location), n
                assert n.g == parent.g + 1 and n.h == parent.h - n.center
        assert r.reached and r.start_count + len(r.counted) == 18
        assert r.nodes[r.counted[-1][1]] == r.nodes[-1]            # stops at the 18th center
        assert r.objective == max(r.nodes[i].g - 1 for _, i in r.counted)


def test_a_fleet_respects_coasts():
    r = search(START, "Russia", "bfs", target=34)
    stp = next(i for i, n in enumerate(r.nodes) if n.location == "STP/SC")
    children = {r.nodes[i].location for s in r.steps if s.node == stp for i in s.added}
    assert children <= {"BOT", "FIN", "LVN"} and "BAR" not in children


def test_a_target_already_held_needs_no_search_and_unreachable_runs_out():
    r = search(START, "Germany", "bfs", target=3)
    assert r.reached and r.nodes_expanded == 0 and r.objective == 0
    alone = Position.build("S1901M", START.units_of("England")[:1], {"LON": "England"})
    r = search(alone, "England", "bfs", target=34)      # an army on an island
    assert str(alone.units_of("England")[0]) == "A LVP"
    assert not r.reached and r.objective is None
    assert r.status == "infeasible" and r.bound is None      # no flood gets off the island


def test_a_search_is_a_result_optimal_only_when_it_meets_the_flood_bound():
    """The flood bound: each center at its distance from the nearest unit that can get
    there.  Breadth-first search meets it for Germany; for Turkey the shared visited
    list costs it two moves (6 against 4), and A* finds 5, so neither is optimal."""
    assert flood_bound(START, "Germany", 16) == 3 and flood_bound(START, "Turkey", 16) == 4
    assert flood_bound(START, "Germany", 3) == 0 and flood_bound(START, "Germany", 35) is None
    r = search(START, "Germany", "bfs")
    assert isinstance(r, Result) and r.status is Status.OPTIMAL and r.proven
    assert (r.objective, r.bound) == (3, 3) and r.to_json()["status"] == "optimal"
    for algorithm, moves in (("bfs", 6), ("astar", 5), ("greedy", 8)):
        r = search(START, "Turkey", algorithm)
        assert (r.objective, r.bound, r.status) == (moves, 4, "feasible")
    for power in POWERS:                                     # the bound is a bound
        for algorithm in ("bfs", "greedy", "astar"):
            for target in (16, 18):
                r = search(START, power, algorithm, target)
                assert r.bound is not None and r.objective >= r.bound


def test_a_search_looks_at_its_deadline_before_each_expansion():
    # the deadline is made at 0; three looks find time left, the fourth does not
    clock = iter([0.0, 1.0, 2.0, 3.0, 9.0, 9.0]).__next__
    r = search(START, "Germany", "bfs", deadline=Deadline(5.0, clock=clock))
    assert r.status == "timed out" and not r.reached and r.objective is None
    assert r.expansions == 3 and r.seconds == 9.0             # the first ply: BER, KIE, MUN


# -- the command line --------------------------------------------------------------------------

def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_search_json_and_text(capsys):
    code, out, _ = run(capsys, "path", "--power", "GER", "--algorithm", "bfs", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["algorithm"] == "bfs" and obj["power"] == "Germany" and obj["target"] == 16
    assert obj["nodes_expanded"] == 33 and obj["paper_count"] == 33 and obj["moves"] == 3
    assert obj["status"] == "reached" and obj["plan"] is None and obj["bound"] is None
    assert obj["centers"]["start"] == ["BER", "KIE", "MUN"] and len(obj["centers"]["counted"]) == 13
    assert obj["centers"]["counted"][0] == {"center": "DEN", "depth": 1, "path": ["F KIE", "F DEN"]}
    code, out, _ = run(capsys, "path", "--power", "germany", "--algorithm", "greedy", "--order", "armies-first")
    assert code == 0 and "nodes expanded: 41" in out and "hand count (Table 1): 41 (the same)" in out
    code, out, _ = run(capsys, "path", "--power", "GER", "--algorithm", "astar", "--trace")
    assert "3. A MUN  h=4 f=5  + BOH BUR RUH TYR" in out


def test_cli_exact_json_plan_file_and_picture(capsys, tmp_path):
    plan_file, picture = tmp_path / "plan.json", tmp_path / "plan.svg"
    code, out, err = run(capsys, "path", "--power", "Germany", "--target", "18", "--json",
                         "--plan-out", str(plan_file), "--render", str(picture))
    assert code == 0, err
    obj = json.loads(out)
    assert obj["algorithm"] == "exact" and obj["status"] == "optimal" and obj["rules"] == "full"
    assert (obj["years"], obj["moves"], obj["reached"]) == (3, 6, "F1903M")
    assert obj["bound"]["phase"] == "F1903M" and obj["bound"]["years"] == 3
    assert any("at most 21 centers" in line for line in obj["bound"]["explanation"])
    assert obj["replayed"] and obj["plan"][-1]["centers"] >= 18 and obj["plan"][0]["phase"] == "S1901M"
    assert json.loads(plan_file.read_text()) == obj
    svg = picture.read_text()
    assert svg.startswith("<svg") and f"Germany {obj['plan'][-1]['centers']}" in svg
    # the plan file is what `dipsolve render --plan --alone` reads
    again = tmp_path / "again.svg"
    code, out, err = run(capsys, "render", "--plan", str(plan_file), "--alone", "-o", str(again), "--json")
    assert code == 0, err
    info = json.loads(out)
    assert info["plan"]["failed"] == 0 and info["plan"]["centers_after"] == {"Germany": obj["plan"][-1]["centers"]}


def test_cli_exact_text_paper_rules_and_from_file(capsys, tmp_path):
    code, out, _ = run(capsys, "path", "--power", "RUS", "--rules", "paper")
    assert code == 0
    assert out.startswith("Russia has passed through 16 supply centers after F1902M: 2 game years")
    assert "status: optimal" in out and "because" in out
    assert "time limit 60 s, 1 CP-SAT worker)" in out       # the default: one, in the singular
    start = tmp_path / "w1902.dip"
    start.write_text("phase: Winter 1902 Adjustments\n[Germany]\nunits: A BUR, F DEN, A WAR\n"
                     "centers: BER, KIE, MUN, DEN, HOL, WAR\n")
    code, out, err = run(capsys, "path", "--power", "GER", "--from", str(start), "--target", "12", "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["from"] == str(start) and obj["start"] == "W1902A" and obj["status"] == "optimal"
    assert obj["plan"][0]["phase"] == "W1902A" and len(obj["plan"][0]["orders"]) == 3   # three builds
    assert obj["years"] == 1 and obj["reached"] == "F1903M"


def test_the_example_position_solves(capsys):
    example = ROOT / "examples" / "path" / "germany-w1902.dip"
    code, out, err = run(capsys, "path", "--power", "GER", "--target", "18", "--from", str(example), "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert (obj["status"], obj["reached"], obj["years"]) == ("optimal", "F1904M", 2)
    assert [p["phase"] for p in obj["plan"]][:2] == ["W1902A", "S1903M"]


def test_cli_time_limit_returns_what_it_has(capsys):
    code, out, _ = run(capsys, "path", "--power", "ENG", "--target", "18", "--time-limit", "0.001", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["status"] == "timed out" and obj["plan"] == [] and not obj["replayed"]
    assert obj["bound"]["phase"] == "F1903M"


@pytest.mark.parametrize("argv, message", [
    (["--power", "XYZ"], "--power: unknown power 'XYZ'"),
    (["--power", "GER", "--target", "0"], "--target: 0 is not a number of supply centers"),
    (["--power", "GER", "--target", "35"], "--target: 35 is not a number of supply centers"),
    (["--power", "GER", "--from", "no/such.dip"], "no/such.dip: no such file"),
    (["--power", "GER", "--algorithm", "exact", "--order", "reverse"], "--order applies to the searches"),
    (["--power", "GER", "--algorithm", "bfs", "--render", "x.svg"], "--render applies to --algorithm exact"),
    (["--power", "GER", "--algorithm", "bfs", "--rules", "full"], "--rules applies to --algorithm exact"),
    (["--power", "GER", "--time-limit", "0"], "past the limit max_seconds"),
    (["--power", "GER", "--render", "x.gif"], "unknown picture format '.gif'"),
])
def test_cli_mistakes_exit_2_with_one_line(capsys, argv, message):
    code, out, err = run(capsys, "path", *argv)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_cli_bad_from_file_says_where(capsys, tmp_path):
    bad = tmp_path / "bad.dip"
    bad.write_text("phase: Spring 1901 Movement\n[Germany]\nunits: A BER, A Pari\n")
    code, out, err = run(capsys, "path", "--power", "GER", "--from", str(bad))
    assert code == 2 and out == "" and f"{bad}:3:" in err
    retreat = tmp_path / "retreat.dip"
    retreat.write_text((ROOT / "examples" / "f1901r.dip").read_text())
    code, out, err = run(capsys, "path", "--power", "GER", "--from", str(retreat))
    assert code == 2 and "is a retreat phase" in err
    empty = tmp_path / "empty.dip"
    empty.write_text("phase: Spring 1901 Movement\n[France]\nunits: A PAR\ncenters: PAR\n")
    code, out, err = run(capsys, "path", "--power", "GER", "--algorithm", "bfs", "--from", str(empty))
    assert code == 2 and "Germany has no units" in err


def test_cli_argparse_mistakes_exit_2(capsys):
    with pytest.raises(SystemExit) as e:
        main(["path", "--power", "GER", "--target", "many"])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        main(["path", "--power", "GER", "--algorithm", "dfs"])
    assert e.value.code == 2
