"""The declared map: counts, coasts, names, and every adjacency against the peer's map."""

import csv
from importlib import resources

import pytest

from dipsolve.core.map import POWERS, power_name, standard_map

M = standard_map()


def test_counts():
    terrains = [p.terrain for p in M.provinces.values()]
    assert len(M.provinces) == 75
    assert (terrains.count("land"), terrains.count("coast"), terrains.count("sea")) == (14, 42, 19)
    assert len(M.centers) == 34
    assert sum(len(h) for h in M.homes.values()) == 22
    assert {p: len(M.homes[p]) for p in POWERS} == {
        "Austria": 3, "England": 3, "France": 3, "Germany": 3, "Italy": 3, "Russia": 4, "Turkey": 3}


def test_bicoastal_provinces():
    assert {p for p, v in M.provinces.items() if v.coasts} == {"SPA", "STP", "BUL"}
    assert M.fleet_locations["STP"] == ("STP/NC", "STP/SC")
    assert M.fleet_moves["STP/NC"] == {"BAR", "NWY"}
    assert M.fleet_moves["BUL/SC"] == {"AEG", "CON", "GRE"}
    assert "SPA/NC" in M.fleet_moves["GAS"] and "SPA/SC" not in M.fleet_moves["GAS"]
    assert M.army_moves["STP"] == {"FIN", "LVN", "MOS", "NWY"}


def test_adjacency_is_symmetric():
    for src, dsts in M.army_moves.items():
        for d in dsts:
            assert src in M.army_moves[d], (src, d)
    for src, dsts in M.fleet_moves.items():
        for d in dsts:
            assert src in M.fleet_moves[d], (src, d)


def test_names_from_the_province_table():
    rows = list(csv.DictReader((resources.files("dipsolve") / "data" / "provinces.tsv")
                               .open(encoding="utf-8"), delimiter="\t"))
    assert len(rows) == 75
    for row in rows:
        abbr = row["abbr"]
        assert M.province(row["name"]) == abbr
        assert M.province(row["daide"]) == abbr
        for alias in filter(None, (a.strip() for a in row["aliases"].split(","))):
            assert M.province(alias) == abbr, alias
    assert M.location("St Petersburg (north coast)") == "STP/NC"
    assert M.location("spa(sc)") == "SPA/SC"
    assert M.location("Bul/EC") == "BUL/EC"
    assert M.location("STP/EC") is None
    assert M.location("Pariss") is None
    assert power_name("fra") == "France" and power_name("GER") == "Germany"


def test_every_adjacency_matches_the_peer():
    peer_map = pytest.importorskip("diplomacy.engine.map").Map("standard")
    provinces = sorted(M.provinces)
    for src in M.army_moves:
        for dst in provinces:
            if dst == src or M.terrain[dst] == "sea":
                continue
            assert (dst in M.army_moves[src]) == bool(peer_map.abuts("A", src, "-", dst)), (src, dst)
    fleet_locs = sorted(M.fleet_moves)
    for src in fleet_locs:
        for dst in fleet_locs:
            if M.province_of[src] == M.province_of[dst]:
                continue
            assert (dst in M.fleet_moves[src]) == bool(peer_map.abuts("F", src, "-", dst)), (src, dst)
    assert {p.upper() for p in peer_map.scs} == set(M.centers)
    for power in POWERS:
        assert set(peer_map.homes[power.upper()]) == set(M.homes[power])


# ---------------------------------------------------------------- distances and routes (graph)
def test_graph_examples_and_symmetry():
    import doctest
    import dipsolve.core.graph as graph
    result = doctest.testmod(graph)
    assert result.attempted > 0 and result.failed == 0
    # the plain adjacency is symmetric: the steps from A to B are the steps from B to A
    # (so civil disorder may measure from the owned centers instead of from each unit)
    for p in sorted(M.provinces):
        for q, d in graph.steps(M, [p]).items():
            assert graph.steps(M, [q])[p] == d
    # several sources: the nearest counts
    assert graph.steps(M, ["LON", "MOS"])["STP"] == 1
    assert graph.steps(M, []) == {}


def test_graph_distances_by_unit_kind():
    from dipsolve.core.graph import distances, reachable, reachable_provinces, rings
    from dipsolve.core.position import Unit
    assert "ION" not in distances(M, "A", "GRE")            # an army never crosses the sea
    assert distances(M, "F", "GRE")["ION"] == 1
    assert distances(M, "F", "STP/NC")["BAR"] == 1 and distances(M, "F", "STP/NC")["BOT"] > 1
    assert [sorted(r) for r in rings(M, "A", "PAR")[:2]] == [["PAR"], ["BRE", "BUR", "GAS", "PIC"]]
    fleet = Unit("Russia", "F", "STP/SC")
    assert reachable(M, fleet) == ("BOT", "FIN", "LVN")
    assert reachable_provinces(M, Unit("France", "F", "MAO"))[-2:] == ("SPA", "WES")
    assert "SPA/NC" in reachable(M, Unit("France", "F", "MAO"))


def test_graph_tables_are_kept_by_the_map_itself():
    import dataclasses
    from dipsolve.core.graph import distances
    other = dataclasses.replace(M, memo={})       # the same board, another map object
    assert distances(other, "A", "PAR") == distances(M, "A", "PAR")
    assert distances(other, "A", "PAR") is not distances(M, "A", "PAR")
    assert distances(M, "A", "PAR") is distances(M, "A", "PAR")   # built once per map
    assert other == M                               # the cache is not part of equality


def test_convoy_routes_and_the_fleet_a_convoy_needs():
    from dipsolve.core.graph import convoy_routes, on_route, sea_component, sea_route
    from dipsolve.core.position import Position, Unit
    army = Unit("England", "A", "LON")
    fleets = [Unit("England", "F", "NTH"), Unit("England", "F", "NWG")]
    p = Position.build("S1901M", [army, *fleets])
    routes = convoy_routes(p, army, fleets)
    assert sorted(routes) == ["BEL", "CLY", "DEN", "EDI", "HOL", "NWY", "YOR"]
    assert routes["NWY"] == [fleets[0]] and routes["CLY"] == fleets
    assert sea_route(M, "LON", "CLY", {"NTH", "NWG"}) and not sea_route(M, "LON", "CLY", {"NTH"})
    assert sea_component(M, "LON", {"NTH", "NWG", "MAO"}) == {"NTH", "NWG"}
    # DATC 6.G.19's shape: NWG is needed for LON -> CLY, but not for LON -> NWY
    assert on_route(M, "LON", "CLY", "NWG", frozenset({"NTH", "NWG"}))
    assert not on_route(M, "LON", "NWY", "NWG", frozenset({"NTH", "NWG"}))


def test_the_one_convoy_search_and_its_modes():
    from dipsolve.core.graph import on_route, sea_chains, sea_route
    seas = {"NTH", "NWG", "ENG", "IRI", "MAO"}
    # shortest: breadth-first, ties by name; to one place or to every coast
    assert next(sea_chains(M, "LON", seas, "CLY")) == ("NTH", "NWG", "CLY")
    assert next(sea_chains(M, "LON", seas, "POR")) == ("ENG", "MAO", "POR")
    every = {c[-1]: c for c in sea_chains(M, "LON", seas)}
    assert every["BRE"] == ("ENG", "BRE") and every["LVP"] == ("ENG", "IRI", "LVP")
    assert "LON" not in every and all(M.terrain[c[-1]] == "coast" for c in every.values())
    # whether a route exists, whether a fleet is on one: the engine's questions, by name
    # (LON-ENG-NTH-NWG would cut the corner LON-NTH: ENG is on no chain to CLY without a
    # shortcut; ENG-IRI-NAO has none)
    assert sea_route(M, "LON", "CLY", seas) and not sea_route(M, "LON", "CLY", {"NTH"})
    assert on_route(M, "LON", "CLY", "IRI", frozenset({"ENG", "IRI", "NAO"}))
    assert not on_route(M, "LON", "CLY", "ENG", frozenset({"NTH", "NWG", "ENG"}))
    assert not sea_route(M, "LON", "XYZ", seas) and not on_route(M, "LON", "CLY", "XYZ", frozenset(seas))
    # seas: the seas reached through one another, each with its chain
    assert {c[-1]: c for c in sea_chains(M, "LON", seas | {"ADR"}, mode="seas")}["MAO"] == ("ENG", "MAO")
    assert "ADR" not in {c[-1] for c in sea_chains(M, "LON", seas | {"ADR"}, mode="seas")}
    # the fleets a question is about are its seas: none, no route
    assert list(sea_chains(M, "LON", set(), "NWY")) == []
    with pytest.raises(ValueError, match="unknown mode"):
        next(sea_chains(M, "LON", seas, "CLY", mode="fastest"))
