"""Maps in the ``diplomacy`` package's map file format (`dipsolve.core.map_file`), loaded
from disk: the package's own maps (from the installed dev dependency) read into the same
board the package plays, and a broken file refused at its line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dipsolve.core.map import standard_map
from dipsolve.core.map_file import parse_map_file
from dipsolve.core.variant import Variant, VariantError
from dipsolve.core.variant_files import find_variant

ROOT = Path(__file__).resolve().parents[1]


def _peer_maps() -> Path:
    diplomacy = pytest.importorskip("diplomacy", reason="the diplomacy package (a dev dependency) "
                                                        "holds the map files read here")
    return Path(diplomacy.__file__).resolve().parent / "maps"


# maps whose convoy paths the peer has cached (others make it search for minutes)
PEER_MAPS = ["standard", "pure", "ancmed", "modern", "standard_france_austria"]


def same_board_as_peer(v: Variant, name: str) -> None:
    """Assert that ``v`` is the game the package plays on its map ``name``: powers, centers,
    homes, start, victory and every army and fleet move (its engine's ``Map.abuts``)."""
    from diplomacy.engine.map import Map as PeerMap
    m, peer = v.map, PeerMap(name)
    assert [p.upper() for p in v.powers] == sorted(peer.powers)
    assert m.centers == {c.upper() for c in peer.scs}
    assert {p: sorted(m.homes[p]) for p in v.powers} == {p: sorted(peer.homes[p.upper()]) for p in v.powers}
    assert sorted(f"{k} {loc}" for _, k, loc in v.start_units) == sorted(u for us in peer.units.values() for u in us)
    assert v.victory == (peer.victory[0] if peer.victory else len(m.centers) // 2 + 1)
    for kind, moves, targets in (("A", m.army_moves, m.provinces), ("F", m.fleet_moves, m.fleet_moves)):
        for src in moves:
            ours = {t for t in targets if t in moves[src]}
            theirs = {t for t in targets if peer.abuts(kind, src, "-", t)}
            assert ours == theirs, (kind, src)
    assert {u.upper() for u in peer.locs} >= set(m.province_of)


@pytest.mark.parametrize("name", PEER_MAPS)
def test_a_map_file_of_the_package_is_the_board_the_package_plays(name):
    same_board_as_peer(find_variant(str(_peer_maps() / f"{name}.map")), name)


def test_the_packages_standard_map_file_is_dipsolves_standard_board():
    m, ours = find_variant(str(_peer_maps() / "standard.map")).map, standard_map()
    for table in ("army_moves", "fleet_moves", "province_of", "fleet_locations", "centers", "homes",
                  "terrain", "neighbours", "powers"):
        assert getattr(m, table) == getattr(ours, table), table
    assert m.power("Austrian") == "Austria" and m.location("St Petersburg (north coast)") == "STP/NC"


def test_a_map_that_uses_another_reads_it_beside_itself():
    v = find_variant(str(_peer_maps() / "standard_france_austria.map"))
    assert v.powers == ("Austria", "France") and len(v.map.provinces) == 75
    assert {u[0] for u in v.start_units} == {"Austria", "France"}


SMALL = """\
# a map of three provinces
BEGIN SPRING 1901 MOVEMENT
ONE (FIRST) AAA
A AAA
TWO (SECOND) BBB
A BBB
UNOWNED CCC
Alpha = AAA alp
Beta = BBB
Gamma = CCC
LAND AAA ABUTS BBB CCC
LAND BBB ABUTS AAA CCC
LAND CCC ABUTS AAA BBB
"""


def test_a_small_map_file_reads_whole():
    v = parse_map_file(SMALL, "small.map")
    assert v.powers == ("One", "Two") and v.victory == 2 and v.start_phase == "S1901M"
    assert v.map.army_moves["AAA"] == {"BBB", "CCC"} and v.map.location("alpha") == "AAA"
    assert v.map.power("first") == "One" and v.map.power("TWO") == "Two"


@pytest.mark.parametrize("old, new, line, message", [
    ("LAND CCC ABUTS AAA BBB", "LAND CCC ABUTS AAA DDD", None, "touches DDD"),
    ("A BBB", "F BBB", 6, "F BBB: no such unit"),
    ("BEGIN SPRING 1901 MOVEMENT", "BEGIN SOMETIME", 2, "expected BEGIN SEASON YEAR KIND"),
    ("UNOWNED CCC", "UNOWNED CCC EEE", 7, "EEE: named as a supply center"),
    ("Gamma = CCC", "Gamma =", 10, "expected 'Full Name = ABBR"),
    ("A AAA", "A", 4, "expected a unit"),
    ("# a map", "MAP elsewhere", 1, "cannot read the file 'elsewhere.map'"),
    ("LAND BBB ABUTS AAA CCC", "AMEND DDD ABUTS AAA", 12, "no such location to amend"),
])
def test_a_broken_map_file_is_an_error_at_its_line(old, new, line, message):
    with pytest.raises(VariantError) as info:
        parse_map_file(SMALL.replace(old, new, 1), "small.map")
    assert message in info.value.message
    assert info.value.filename == "small.map" and info.value.line == line


def test_a_map_file_is_a_variant_at_the_command_line(tmp_path):
    (tmp_path / "small.map").write_text(SMALL.replace("A BBB", "A BBB\nF CCC", 1), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "dipsolve", "show", "--variant", str(tmp_path / "small.map"),
                           str(ROOT / "examples" / "start.dip")], capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"{tmp_path / 'small.map'}:7:1: F CCC: no such unit" in proc.stderr
