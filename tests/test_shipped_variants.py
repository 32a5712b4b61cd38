"""The variants dipsolve ships (`dipsolve.core.variant.VARIANTS`: the standard game, Pure and
Ancient Mediterranean), each the project's own declared data (``solver/data/NAME.variant``
and ``NAME.map``, their sources named in them): the same game as the ``diplomacy``
package plays on its map of that name, and played and adjudicated at the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dipsolve import Position
from dipsolve.cli import main
from dipsolve.core.variant import VARIANTS, variant

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = [v for v in VARIANTS if v != "standard"]


def test_the_shipped_variants_are_listed_with_their_sources():
    assert VARIANTS == ("standard", "pure", "ancmed")
    for name in VARIANTS:
        head = (ROOT / "solver" / "data" / f"{name}.variant").read_text(encoding="utf-8")
        assert f"name {name}\n" in head
    for name in SHIPPED:       # each names its source beside its data
        for suffix in ("variant", "map"):
            text = (ROOT / "solver" / "data" / f"{name}.{suffix}").read_text(encoding="utf-8")
            assert "http" in text or "make_variant_map" in text, (name, suffix)


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_variant_is_the_game_the_peer_plays(name):
    pytest.importorskip("diplomacy")
    from test_map_file import same_board_as_peer
    same_board_as_peer(variant(name), name)


def test_the_small_and_the_large_variant_as_their_rules_say():
    pure, ancmed = variant("pure"), variant("ancmed")
    assert len(pure.map.provinces) == 7 and pure.victory == 4 and pure.powers == variant("standard").powers
    assert all(pure.map.army_moves[p] == set(pure.map.provinces) - {p} for p in pure.map.provinces)
    assert ancmed.powers == ("Carthage", "Egypt", "Greece", "Persia", "Rome")
    assert len(ancmed.map.centers) == 34 and ancmed.victory == 18 and len(ancmed.start_units) == 15
    assert ("Rome", "F", "NEA") in ancmed.start_units and ancmed.map.power("roman") == "Rome"
    start = Position.initial(ancmed)
    assert start.phase.short == "S1M" and Position.from_text(start.to_text(), game_map=ancmed.map) == start


def _dipsolve(capsys, *args: str) -> tuple[int, str, str]:
    """``dipsolve ARGS`` run by the CLI's `main` in this process (a process of its own
    would spend most of its time loading numba and the engine, which the tests of the
    kernel's loading check): its exit status, stdout and stderr."""
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", SHIPPED)
def test_three_games_of_a_shipped_variant_are_played(name, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, stdout, stderr = _dipsolve(capsys, "play", "--variant", name, "--games", "3", "--bots",
                                     "dumbbot,random", "--json", "--save", "saved")
    assert code == 0, stderr
    out = json.loads(stdout)
    assert len(out["games"]) == 3
    powers = set(variant(name).powers)
    for game in out["games"]:
        assert set(game["seats"]) == powers
    # each game saved as the diplomacy package's saved-game JSON on the variant's map, read back
    from dipsolve.io.records import load_records
    for path in sorted((tmp_path / "saved").glob("*.json")):
        (record,) = load_records(str(path))
        assert record.map == name and record.phases[0].position == Position.initial(variant(name))


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_variants_example_is_adjudicated(name, capsys):
    example = ROOT / "examples" / "variants" / f"{name}.dip"
    code, stdout, stderr = _dipsolve(capsys, "adjudicate", "--variant", name, str(example), "--json")
    assert code == 0, stderr
    out = json.loads(stdout)
    assert out["phase"] in ("S1901M", "S1M") and out["next"]["phase"] in ("F1901M", "F1M")
    assert len(out["results"]) == len(variant(name).start_units) and all(r["reason"] for r in out["results"])
    assert set(out["next"]["units"]) == set(variant(name).powers)
    # the same file on the standard board: refused (Ancient Mediterranean's powers are not
    # there), or another game (in Pure, Vienna touches Berlin; on the standard board not)
    code, stdout, stderr = _dipsolve(capsys, "adjudicate", str(example), "--json")
    assert "Traceback" not in stderr
    assert code == 2 or json.loads(stdout)["results"] != out["results"]


@pytest.mark.parametrize("name", SHIPPED)
def test_a_variant_board_is_drawn_as_a_schematic(name):
    from dipsolve.io.pictures import position_svg
    pos = Position.initial(variant(name))
    svg = position_svg(pos)
    assert pos._repr_svg_() == svg              # a notebook shows it too
    assert all(f'id="prov-{p}"' in svg for p in pos.map.provinces)
    assert svg.count('class="unit ') == len(pos.units)
