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
                         "render", "batch")


def test_every_command_that_reads_a_position_takes_a_variant_and_says_so():
    from dipsolve.cli.main import build_parser
    parser = build_parser()
    for command in COMMANDS_WITH_VARIANT:
        text = parser._subparsers._group_actions[0].choices[command].format_help()
        assert "--variant NAME|FILE" in text and "standard" in text, command


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
    assert proc.returncode == 2 and f"standard.map:{line}:1:" in proc.stderr, proc.stderr
    assert "ATL" in proc.stderr and "Traceback" not in proc.stderr
