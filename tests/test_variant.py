"""The variant as a value (`dipsolve.core.variant`): the standard game's data, a variant
file's errors, and the start, powers and victory threaded through positions and play."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dipsolve import DipsolveSyntaxError, Position
from dipsolve.core.map import POWERS, standard_map
from dipsolve.core.variant import VARIANTS, VariantError, parse_variant, variant
from dipsolve.play.bots import RandomBot
from dipsolve.play.games import play_game
from dipsolve.core.results import Limits

ROOT = Path(__file__).resolve().parents[1]


def test_the_standard_variant_is_the_standard_game():
    v = variant("standard")
    m = v.map
    assert v.powers == POWERS and m.powers == POWERS and VARIANTS[0] == "standard"
    assert v.victory == len(m.centers) // 2 + 1 == 18
    assert len(v.neutral_centers) == 12 and not v.neutral_centers & set().union(*v.homes.values())
    for power in v.powers:
        units = [u for u in v.start_units if u[0] == power]
        assert sorted(m.province_of[loc] for _, _, loc in units) == sorted(v.homes[power])
    start = Position.initial()
    assert start == Position.from_text((ROOT / "examples" / "start.dip").read_text(encoding="utf-8"))
    assert start.map is m and start.phase.short == v.start_phase


def _small(victory: int) -> str:
    return (f"name small\nmap standard.map\npowers {' '.join(POWERS)}\nstart S1901M\n"
            "unit France A PAR\nunit Germany A MUN\n"
            f"victory {victory}\nseasons Spring Fall Winter\n")


def test_a_variant_of_its_own_is_played_to_its_victory():
    v = parse_variant(_small(4), standard_map(), "small.variant")
    start = Position.initial(v)
    assert [str(u) for u in start.units] == ["A PAR", "A MUN"]
    assert len(start.centers) == 22                   # every home center is owned
    seats = {p: RandomBot() for p in v.powers}
    record = play_game(seats, limits=Limits(time_limit=1.0, seed=3), until=1930, variant=v)
    assert record.winner is not None and len(record.final.centers_of(record.winner)) >= 4
    # the standard game's victory is not reached by then
    assert len(record.final.centers_of(record.winner)) < 18


@pytest.mark.parametrize("text, message", [
    ("name x\nfoo bar\n", "found 'foo bar'"),
    ("name x\nunit France A NTH\n", "A NTH: no such unit"),
    ("name x\npowers France\nstart S1901M\nvictory many\nseasons Spring\n", "victory: found 'many'"),
    ("name x\npowers France\nstart S1901M\nunit Italy A ROM\nvictory 3\nseasons Spring\n", "Italy"),
    ("name x\n", "no powers, start, victory, seasons line"),
])
def test_a_bad_variant_file_is_a_clear_error(text, message):
    with pytest.raises(VariantError) as info:
        parse_variant(text, standard_map(), "bad.variant")
    assert message in str(info.value) and "bad.variant" in str(info.value)


def test_an_unknown_variant_is_refused():
    with pytest.raises(DipsolveSyntaxError, match="unknown variant 'atlantis'"):
        variant("atlantis")
    proc = subprocess.run([sys.executable, "-m", "dipsolve", "play", "--variant", "atlantis"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "atlantis" in proc.stderr


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dipsolve", *args], capture_output=True, text=True,
                          cwd=cwd)


COMMANDS_WITH_VARIANT = ("adjudicate", "show", "parse", "validate", "solve", "path", "adjust", "play",
                         "render", "batch", "analyze", "view")


def test_every_command_that_reads_a_position_takes_a_variant_and_says_so():
    from dipsolve.cli.main import build_parser
    parser = build_parser()
    for command in COMMANDS_WITH_VARIANT:
        text = " ".join(parser._subparsers._group_actions[0].choices[command].format_help().split())
        assert "--variant NAME|FILE" in text and "standard" in text, command
        # every command that reads a game record says how a game on a map file is read
        assert ("A game record names its own variant" in text) == (command != "play"), command


@pytest.mark.parametrize("command", ["adjudicate", "show", "render"])
def test_an_unknown_variant_is_refused_by_every_command(command, tmp_path):
    proc = _run(command, "--variant", "atlantis", str(ROOT / "examples" / "start.dip"), "--json",
                cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "unknown variant 'atlantis'" in proc.stdout and "standard" in proc.stdout


def test_a_variant_file_of_the_users_is_read_with_its_map_beside_it(tmp_path):
    (tmp_path / "standard.map").write_text((ROOT / "solver" / "data" / "standard.map").read_text())
    (tmp_path / "small.variant").write_text(_small(4))
    proc = _run("adjudicate", "--variant", str(tmp_path / "small.variant"),
                str(ROOT / "examples" / "start.dip"), "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (tmp_path / "broken.variant").write_text(_small(4).replace("map standard.map", "map nowhere.map"))
    proc = _run("show", "--variant", str(tmp_path / "broken.variant"), str(ROOT / "examples" / "start.dip"),
                cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "broken.variant" in proc.stderr and "nowhere.map" in proc.stderr


def test_a_broken_map_of_a_variant_file_is_an_error_at_its_line(tmp_path):
    text = (ROOT / "solver" / "data" / "standard.map").read_text().replace("army ALB: GRE SER TRI",
                                                                           "army ALB: GRE SER ATL")
    (tmp_path / "standard.map").write_text(text)
    (tmp_path / "small.variant").write_text(_small(4))
    proc = _run("show", "--variant", str(tmp_path / "small.variant"), str(ROOT / "examples" / "start.dip"),
                cwd=tmp_path)
    line = text.splitlines().index("army ALB: GRE SER ATL") + 1
    assert proc.returncode == 2 and f"standard.map:{line}:19:" in proc.stderr, proc.stderr
    assert "ATL" in proc.stderr and "Traceback" not in proc.stderr


# -- a variant file and its map checked as data (issue 52) --------------------------------

TINY_MAP = """\
province AAA land center home=One
province BBB land center home=Two
province CCC land center
army AAA: BBB CCC
army BBB: AAA CCC
army CCC: AAA BBB
"""

TINY = """\
name tiny
map tiny.map
powers One Two
start S1901M
unit One A AAA
unit Two A BBB
victory 2
seasons Spring Fall Winter
"""


def _tiny(tmp_path: Path, variant_text: str = TINY, map_text: str = TINY_MAP) -> Path:
    (tmp_path / "tiny.map").write_text(map_text, encoding="utf-8")
    (tmp_path / "tiny.variant").write_text(variant_text, encoding="utf-8")
    return tmp_path / "tiny.variant"


def test_a_tiny_variant_file_reads_and_its_start_reads_back(tmp_path):
    from dipsolve.core.variant_files import find_variant
    v = find_variant(str(_tiny(tmp_path)))
    assert v.name == "tiny.variant" and v.map.name == "tiny.variant" and v.victory == 2
    start = Position.initial(v)
    assert Position.from_text(start.to_text(), game_map=v.map) == start


@pytest.mark.parametrize("in_map, old, new, where, message", [
    # a home that is not a supply center (its start would own a center that is none)
    (True, "province BBB land center home=Two", "province BBB land home=Two", ("tiny.map", 2, 19),
     "province BBB: home=Two, but not a supply center"),
    # a move within one province
    (True, "army AAA: BBB CCC", "army AAA: AAA BBB CCC", ("tiny.map", 4, 11),
     "army AAA: AAA is in its own province"),
    (True, "army CCC: AAA BBB", "army CCC: AAA DDD", ("tiny.map", 6, 15), "army CCC: DDD is no place"),
    (True, "army CCC: AAA BBB", "army CCC: AAA BBB\narmy DDD: AAA", ("tiny.map", 7, 6), "army DDD: DDD is no place"),
    (True, "province CCC land center", "province CCC coast center coasts=NC,XC", ("tiny.map", 3, 1),
     "coasts among NC, SC, EC, WC"),
    (False, "victory 2", "victory 0", ("tiny.variant", 7, 9), "victory 0: the map has 3 supply centers"),
    (False, "victory 2", "victory " + "9" * 5000, ("tiny.variant", 7, 9), "past the limit max_digits"),
    (False, "start S1901M", "start S" + "9" * 5000 + "M", ("tiny.variant", 4, 7), "past the limit max_year"),
    (False, "start S1901M", "start W1901M", ("tiny.variant", 4, 7), "W1901M is no phase of the game"),
    (False, "start S1901M", "start spring", ("tiny.variant", 4, 7), "expected a phase such as S1901M"),
    (False, "unit Two A BBB", "unit Two A AAA", ("tiny.variant", 6, 12),
     "AAA already has A AAA (One); one unit a province"),
    (False, "unit Two A BBB", "unit Three A BBB", ("tiny.variant", 6, 6), "Three is no power"),
    (False, "powers One Two", "powers One Two One", ("tiny.variant", 3, 16), "One is named twice"),
    (False, "powers One Two", "powers One Two\npower One X\npower Two X", ("tiny.variant", 5, 11),
     "power Two: its token X is One's too"),
])
def test_a_variant_file_is_checked_as_data(tmp_path, capsys, in_map, old, new, where, message):
    text = (TINY_MAP if in_map else TINY).replace(old, new, 1)
    assert text != (TINY_MAP if in_map else TINY)
    path = _tiny(tmp_path, *((TINY, text) if in_map else (text,)))
    from dipsolve.cli import main
    assert main(["show", "--variant", str(path), str(ROOT / "examples" / "start.dip")]) == 2
    err = capsys.readouterr().err
    name, line, column = where
    assert err.startswith(f"{tmp_path / name}:{line}:{column}: "), err
    assert message in err and "Traceback" not in err


def test_powers_that_share_a_prefix_print_apart_and_a_shared_name_is_no_seat(tmp_path, capsys):
    """Powera, Powerb, Powerc with tokens of their own: printed by them; ``--seat POW=...``
    is refused (POW would be any of them), never one picked silently."""
    from dipsolve.cli import main
    names = ("Powera", "Powerb", "Powerc")
    homes = ("AAA", "BBB", "CCC")
    map_text = "".join(f"province {h} land center home={p}\n" for p, h in zip(names, homes)) + \
        "".join(f"army {h}: {' '.join(o for o in homes if o != h)}\n" for h in homes)
    text = (f"name pow\nmap tiny.map\npowers {' '.join(names)}\n"
            + "".join(f"power {p} PW{p[-1].upper()}\n" for p in names) + "start S1901M\n"
            + "".join(f"unit {p} A {h}\n" for p, h in zip(names, homes)) + "victory 2\nseasons Spring Fall Winter\n")
    path = str(_tiny(tmp_path, text, map_text))
    assert main(["play", "--variant", path, "--seat", "POW=random", "--until", "1901"]) == 2
    err = capsys.readouterr().err
    assert "--seat 'POW=random': 'POW' names 3 powers (Powera, Powerb, Powerc)" in err
    assert main(["play", "--variant", path, "--seat", "PWB=dumbbot", "--bots", "random", "--until", "1901"]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert "PWA 1 (random), PWB 1 (dumbbot), PWC 1 (random)" in line
    # without tokens of their own, the three share POW: refused where the second is named
    plain = "\n".join(x for x in text.splitlines() if not x.startswith("power ")) + "\n"
    assert main(["show", "--variant", str(_tiny(tmp_path, plain, map_text)), str(ROOT / "examples" / "start.dip")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:3:15: power Powerb: its token POW is Powera's too"), err
