"""Maps in the ``diplomacy`` package's map file format (`dipsolve.core.map_file`), loaded
from disk: the package's own maps (from the installed dev dependency) read into the same
board the package plays, and a broken file refused at its line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dipsolve.cli import main
from dipsolve.core.errors import DipsolveSyntaxError
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
    ("LAND CCC ABUTS AAA BBB", "LAND CCC ABUTS AAA DDD", 13, "touches DDD"),
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
    assert f"{tmp_path / 'small.map'}:7:3: F CCC: no such unit" in proc.stderr


# -- a map file checked as data (issue 52): every mistake one error at file:line:col ------

def _read_error(text: str) -> VariantError:
    with pytest.raises(DipsolveSyntaxError) as info:
        parse_map_file(text, "small.map")
    e = info.value
    assert str(e) and json.dumps(e.to_json()) and e.filename == "small.map"
    return e  # type: ignore[return-value]


@pytest.mark.parametrize("old, new, place, message, limit", [
    # numbers: digits counted before they are converted, each within its bound
    ("BEGIN SPRING 1901 MOVEMENT", "BEGIN SPRING 1901 MOVEMENT\nVICTORY " + "9" * 5000, (3, 9),
     "VICTORY 9999…9999 (5000 digits): past the limit max_digits", "max_digits"),
    ("BEGIN SPRING 1901 MOVEMENT", "BEGIN SPRING " + "9" * 5000 + " MOVEMENT", (2, 14),
     "year 9999…9999 (5000 digits): past the limit max_year", "max_year"),
    ("BEGIN SPRING 1901 MOVEMENT", "BEGIN SPRING 0 MOVEMENT", (2, 14), "year 0: past the limit max_year",
     "max_year"),
    ("BEGIN SPRING 1901 MOVEMENT", "BEGIN FALL 10000 RETREATS", (2, 12), "year 10000: past the limit max_year",
     "max_year"),
    ("BEGIN SPRING 1901 MOVEMENT", "BEGIN WINTER 1901 MOVEMENT", (2, 14), "W1901M is no phase of the game",
     None),
    # VICTORY 0 is refused, not taken for the default; nor more centers than the map has
    ("BEGIN SPRING 1901 MOVEMENT", "BEGIN SPRING 1901 MOVEMENT\nVICTORY 0", (3, 9),
     "victory 0: the map has 3 supply centers, expected 1 to 3", None),
    ("BEGIN SPRING 1901 MOVEMENT", "BEGIN SPRING 1901 MOVEMENT\nVICTORY 4", (3, 9),
     "victory 4: the map has 3 supply centers, expected 1 to 3", None),
    ("BEGIN SPRING 1901 MOVEMENT", "BEGIN SPRING 1901 MOVEMENT\nVICTORY many", (3, 9),
     "VICTORY: found 'many', expected a number of supply centers", None),
    # a place that touches itself: an army would move to where it stands, support itself
    ("LAND AAA ABUTS BBB CCC", "LAND AAA ABUTS AAA BBB CCC", (11, 16), "AAA touches AAA: itself", None),
    ("LAND BBB ABUTS AAA CCC", "LAND BBB ABUTS AAA CCC\nAMEND BBB ABUTS bbb", (13, 17),
     "BBB touches bbb: itself", None),
    # a supply center is the home of one power; one unit a province at the start
    ("TWO (SECOND) BBB", "TWO (SECOND) BBB AAA", (5, 18), "Two: AAA is a home of One already", None),
    ("A BBB", "A BBB\nA AAA", (7, 3), "Two A AAA: AAA already has A AAA (One); one unit a province", None),
    # names: a location's abbreviation, a coast, a province with coasts
    ("LAND CCC ABUTS AAA BBB", "LAND C.C ABUTS AAA BBB", (13, 6), "expected a location's abbreviation",
     None),
    ("LAND CCC ABUTS AAA BBB", "LAND CCC ABUTS AAA BBB\nCOAST CCC/XC ABUTS AAA", (14, 7),
     "expected a coast in capitals", None),
    ("LAND CCC ABUTS AAA BBB", "LAND CCC ABUTS AAA BBB\nCOAST CCC/NC ABUTS AAA", (13, 6),
     "LAND CCC: a province with coasts (CCC/NC) is a COAST written in lower case", None),
    ("LAND CCC ABUTS AAA BBB", "WATER ccc ABUTS AAA BBB", (13, 7), "a fleet stands here, so it is written "
                                                                    "in capitals", None),
    ("LAND CCC ABUTS AAA BBB", "LAND CCC ABUTS AAA BBB\nLAND DDD/NC ABUTS CCC", (14, 1),
     "a coast is a COAST location", None),
    ("LAND CCC ABUTS AAA BBB", "LAND CCC ABUTS AAA BBB\nLAND Ddd ABUTS CCC", (14, 6),
     "LAND Ddd: a location is written in capitals (DDD), or in lower case", None),
    # two powers a short name cannot tell apart
    ("TWO (SECOND) BBB", "ONEX (SECOND) BBB", (5, 1), "power Onex: its short name ONE (the first three "
                                                       "letters of its name) is One's too", None),
    ("UNOWNED CCC", "UNOWNED CCC\nUNPLAYED THREE", (8, 10), "UNPLAYED Three: no such power", None),
])
def test_a_map_file_is_checked_as_data(old, new, place, message, limit):
    e = _read_error(SMALL.replace(old, new, 1))
    assert message in e.message, e.message
    assert (e.line, e.column) == place and e.source_line is not None, str(e)
    assert getattr(e, "limit", None) == limit


def test_a_dropped_province_leaves_every_list_that_named_it():
    """``DROP CCC`` (as the ``diplomacy`` package drops a place): CCC is no location, no
    neutral center, touched by nothing."""
    v = parse_map_file(SMALL + "DROP CCC\n", "small.map")
    assert set(v.map.provinces) == {"AAA", "BBB"} and v.map.centers == {"AAA", "BBB"}
    assert v.map.army_moves == {"AAA": {"BBB"}, "BBB": {"AAA"}} and v.victory == 2


@pytest.mark.parametrize("extra, army, centers, units", [
    # -PLACE removes the places written before it that start so, not those after it
    ("AMEND CCC ABUTS -AAA AAA", {"AAA": {"BBB", "CCC"}, "BBB": {"AAA", "CCC"}, "CCC": {"AAA", "BBB"}},
     {"AAA", "BBB", "CCC"}, 2),
    ("AMEND CCC ABUTS -A", {"AAA": {"BBB", "CCC"}, "BBB": {"AAA", "CCC"}, "CCC": {"BBB"}}, {"AAA", "BBB", "CCC"}, 2),
    ("AMEND CCC ABUTS -", {"AAA": {"BBB", "CCC"}, "BBB": {"AAA", "CCC"}, "CCC": set()}, {"AAA", "BBB", "CCC"}, 2),
    # DROP takes what named the province before it; written again after it, it stays
    ("DROP CCC\nLAND CCC ABUTS AAA BBB", {"AAA": {"BBB"}, "BBB": {"AAA"}, "CCC": {"AAA", "BBB"}}, {"AAA", "BBB"}, 2),
    ("DROP AAA\nONE (FIRST) AAA\nLAND AAA ABUTS BBB", {"AAA": {"BBB"}, "BBB": {"CCC"}, "CCC": {"BBB"}},
     {"AAA", "BBB", "CCC"}, 1),
])
def test_amend_and_drop_take_what_was_written_before_them(extra, army, centers, units):
    v = parse_map_file(SMALL + extra + "\n", "small.map")
    assert v.map.army_moves == army and v.map.centers == centers and len(v.start_units) == units


#: a line of 5,000 places (P0 ... P4999), then 60 kB of removals or drops in all
_PLACES = "AMEND CCC ABUTS " + " ".join(f"P{i}" for i in range(5000))
MANY_REMOVALS = {
    "removals-on-its-line": _PLACES + " " + " ".join(f"-Q{i}" for i in range(5000)),
    "removals-on-lines": _PLACES + "\n" + "AMEND CCC ABUTS -Q\n" * 1700,
    "drops": _PLACES + "\n" + "DROP XYZ\n" * 3300,
}


@pytest.mark.parametrize("name", MANY_REMOVALS)
def test_removals_and_drops_are_not_each_a_pass_over_the_map(name):
    """Each ``-PLACE`` filtered the location's places, each ``DROP`` every list read so
    far: these 60 kB took 2 to 9 s (quadratic); now they are noted with their time and
    the lists read once at the end.  Read the same: P0 is the first unknown place."""
    e = _read_error(SMALL + MANY_REMOVALS[name] + "\n")
    assert e.message == "CCC touches P0, which is no location of the map", e.message
    assert (e.line, e.column, e.found) == (14, 17, "P0")
    assert len(MANY_REMOVALS[name]) > 55_000
    v = parse_map_file(SMALL + MANY_REMOVALS[name] + "\nAMEND CCC ABUTS -P\n", "small.map")   # all P*
    assert v.map.army_moves["CCC"] == {"AAA", "BBB"}


def test_a_power_unplayed_twice_on_one_line_goes_once():
    v = parse_map_file(SMALL + "UNPLAYED TWO TWO\n", "small.map")
    assert v.powers == ("One",) and v.start_units == (("One", "A", "AAA"),) and v.map.centers == {"AAA", "CCC"}


def test_a_map_file_without_powers_or_past_a_bound_is_refused():
    assert "no powers" in _read_error("LAND AAA ABUTS BBB\nLAND BBB ABUTS AAA\n").message
    many = "".join(f"LAND L{i} ABUTS L{i + 1}\n" for i in range(1001))
    e = _read_error(many)
    assert e.limit == "max_locations" and e.line == 1001      # type: ignore[attr-defined]
    powers = "".join(f"P{chr(65 + i // 26)}{chr(65 + i % 26)}x AAA\n" for i in range(65))
    e = _read_error(SMALL + powers)
    assert e.limit == "max_powers" and e.line == len(SMALL.splitlines()) + 63    # type: ignore[attr-defined]


def test_forty_powers_whose_names_share_a_prefix_are_refused_at_the_second():
    """They would all print as POW, and POW would name any of them."""
    powers = "".join(f"POWER{chr(65 + i // 26)}{chr(65 + i % 26)}\n" for i in range(40))
    e = _read_error(SMALL.replace("UNOWNED CCC", powers + "UNOWNED CCC"))
    assert e.message.startswith("power Powerab: its short name POW") and e.line == 8
    assert "is Poweraa's too" in e.message and "first three letters differ" in e.message


def _nested_press(depth: int) -> str:
    """DAIDE press nested ``depth`` deep, on one line (as a fuzzed map file pasted it)."""
    text = "PRP (ALY (FRA GER) VSS (RUS))"
    for _ in range(depth):
        text = f"PRP (AND ({text}) (DMZ (FRA GER) (BUR RUH)))"
    return text


#: one line of about 50-60 kB, each of its words placed (a home, a neighbour, a number);
#: 9,000 distinct homes, each looked up among those before it (a list made that quadratic)
LONG_LINES = {
    "press": ("PRP (ALY (FRA GER) VSS (RUS)) " * 2000, "(ALY: named as a supply center"),
    "nested-press": (_nested_press(1500), "(ALY: named as a supply center"),
    "homes": ("THREE (THIRD) " + "BBB " * 15_000, "Three: BBB is a home of Two already"),
    "distinct-homes": ("THREE (THIRD) " + " ".join(f"H{i}" for i in range(9000)), "H0: named as a supply center"),
    "neighbours": ("AMEND CCC ABUTS " + "AAA " * 15_000, None),
    "victory": ("VICTORY " + "2 " * 30_000, None),
}


@pytest.mark.parametrize("name", LONG_LINES)
def test_a_long_line_is_split_into_words_once(monkeypatch, name):
    """A line's words are found once (`dipsolve.core.map.word_spans`), however many of them
    are placed: a fuzzed map file with DAIDE press pasted on a line of 60 kB took 75 s,
    each word's place found by splitting the whole line anew (quadratic)."""
    import dipsolve.core.map_file as map_file
    splits = [0]
    real = map_file.word_spans

    def counting(raw: str) -> list[tuple[int, int]]:
        splits[0] += 1
        return real(raw)

    monkeypatch.setattr(map_file, "word_spans", counting)
    line, message = LONG_LINES[name]
    text = SMALL.replace("UNOWNED CCC", "UNOWNED CCC\n" + line) if name == "homes" else SMALL + line + "\n"
    lines = len(text.splitlines())
    if message is None:
        v = parse_map_file(text, "small.map")
        assert v.victory == 2 and v.map.army_moves["CCC"] == {"AAA", "BBB"}
    else:
        e = _read_error(text)
        assert message in e.message and e.source_line is not None, e.message
        assert e.line == (8 if name == "homes" else lines), str(e)
        assert e.source_line.split()[e.source_line[:e.column - 1].count(" ")] == e.found, str(e)
    assert len(line) > 50_000 and splits[0] <= lines


def test_a_map_file_names_files_of_its_own_folder_only(tmp_path):
    """``USE ../../../../etc/passwd`` is refused at its line, nothing of the file read or
    quoted; a file in a folder within the map's is read."""
    folder = tmp_path / "maps"
    (folder / "parts").mkdir(parents=True)
    (folder / "parts" / "base.map").write_text(SMALL, encoding="utf-8")
    (tmp_path / "outside.map").write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    (folder / "link.map").symlink_to(tmp_path / "outside.map")
    for use in ("../../../../etc/passwd", "../outside.map", str(tmp_path / "outside.map"), "link.map"):
        (folder / "hostile.map").write_text(f"# hostile\nUSE {use}\n", encoding="utf-8")
        with pytest.raises(VariantError) as info:
            find_variant(str(folder / "hostile.map"))
        e = info.value
        assert "outside the map's folder" in e.message and "root:" not in str(e), str(e)
        assert (e.filename, e.line, e.column) == (str(folder / "hostile.map"), 2, 5)
    (folder / "mine.map").write_text("USE parts/base.map\n", encoding="utf-8")
    v = find_variant(str(folder / "mine.map"))
    assert v.powers == ("One", "Two") and v.name == "mine.map"


def test_a_map_file_mistake_is_one_line_and_exit_2_at_the_command_line(tmp_path, capsys):
    (tmp_path / "big.map").write_text(SMALL.replace("BEGIN SPRING 1901 MOVEMENT",
                                                    "VICTORY " + "9" * 5000), encoding="utf-8")
    (tmp_path / "far.map").write_text(SMALL.replace("1901", "99999"), encoding="utf-8")
    (tmp_path / "use.map").write_text("USE ../../../../etc/passwd\n", encoding="utf-8")
    for name, place in (("big.map", ":2:9: VICTORY 9999…9999 (5000 digits)"),
                        ("far.map", ":2:14: year 99999: past the limit max_year"),
                        ("use.map", ":1:5: '../../../../etc/passwd': outside the map's folder")):
        assert main(["show", "--variant", str(tmp_path / name), str(ROOT / "examples" / "start.dip")]) == 2
        out, err = capsys.readouterr()
        assert err.startswith(str(tmp_path / name) + place) and "Traceback" not in err, err
        assert "root:" not in err


def test_a_unit_never_moves_to_or_supports_itself_on_a_map_file(tmp_path, capsys):
    """On a map of the user's, ``A AAA - AAA`` and ``A AAA S A AAA`` are illegal, as on
    the standard map (a map that said AAA touches AAA is refused, above)."""
    (tmp_path / "small.map").write_text(SMALL, encoding="utf-8")
    (tmp_path / "start.dip").write_text("phase: S1901M\n[One]\nunits: A AAA\n[Two]\nunits: A BBB\n",
                                        encoding="utf-8")
    (tmp_path / "orders.txt").write_text("One: A AAA - AAA\nOne: A AAA S A AAA\n", encoding="utf-8")
    code = main(["validate", "--variant", str(tmp_path / "small.map"), "--position",
                 str(tmp_path / "start.dip"), str(tmp_path / "orders.txt"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 2 and not report["legal"] and len(report["problems"]) == 2


def test_the_peers_maps_all_read():
    """Every map file of the ``diplomacy`` package passes the checks."""
    for path in sorted(_peer_maps().glob("*.map")):
        v = find_variant(str(path))
        assert v.name == path.name and v.powers and 1 <= v.victory <= len(v.map.centers)
