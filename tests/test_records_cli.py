"""Game records on the command line: ``--phase`` (and ``--game``) wherever a position file
is taken, ``play --save``, and bad records as one-line errors with exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dipsolve.cli import main
from dipsolve.io.game import load_record

ROOT_EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """Two games played by `dipsolve play --save` (DumbBot and random seats, to 1902)."""
    folder = tmp_path_factory.mktemp("saved")
    assert main(["play", "--until", "1902", "--games", "2", "--bots", "dumbbot,random",
                 "--save", str(folder), "--json"]) == 0
    return folder


def test_play_save_writes_one_record_a_game(saved):
    files = sorted(p.name for p in saved.iterdir())
    assert files == ["game-0.json", "game-1.json"]
    record = load_record(str(saved / "game-1.json"))
    assert record.id == "dipsolve-1"
    assert record.names[:3] == ["S1901M", "F1901M", "W1901A"]
    assert record.phases[-1].position.phase.short == "W1902A" and not record.phases[-1].orders


def test_show_a_phase_of_a_record(saved, capsys):
    path = str(saved / "game-0.json")
    code, out, err = run(capsys, "show", path, "--phase", "F1901M", "--json")
    assert code == 0, err
    obj = json.loads(out)
    phase = load_record(path).phase("F1901M")
    assert obj["phase"] == "F1901M"
    assert obj["units"] == {p: [str(u) for u in phase.position.units_of(p)] for p in phase.position.powers()}
    assert obj["orders"] == {p: [str(o) for o in os] for p, os in phase.orders.items()}


def test_adjudicate_a_phase_gives_the_next_phase_of_the_record(saved, capsys):
    path = str(saved / "game-0.json")
    record = load_record(path)
    code, out, err = run(capsys, "adjudicate", path, "--phase", "S1902M", "--json")
    assert code == 0, err
    nxt = record.phases[record.names.index("S1902M") + 1].position
    obj = json.loads(out)
    assert obj["next"]["phase"] == nxt.phase.short
    assert obj["next"]["units"] == {p: [str(u) for u in nxt.units_of(p)] for p in nxt.powers()}


def test_solve_and_render_take_a_phase(saved, capsys, tmp_path):
    path = str(saved / "game-0.json")
    code, out, err = run(capsys, "solve", path, "--phase", "S1902M", "--power", "FRA",
                         "--time-limit", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["phase"] == "S1902M"
    picture = tmp_path / "s1902m.svg"
    code, out, err = run(capsys, "render", path, "--phase", "S1902M", "--results", "-o", str(picture))
    assert code == 0, err
    assert picture.read_text().startswith("<svg") or "<svg" in picture.read_text()[:200]


def test_a_record_without_phase_names_its_phases(saved, capsys):
    path = str(saved / "game-0.json")
    code, out, err = run(capsys, "show", path)
    assert code == 2
    assert err.strip() == (f"{path}: a game record: say which phase with --phase (it has "
                           "S1901M F1901M W1901A S1902M F1902M W1902A)")


def test_unknown_phase_and_phase_of_a_position_file(saved, capsys, tmp_path):
    path = str(saved / "game-0.json")
    code, out, err = run(capsys, "adjudicate", path, "--phase", "S1950M")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "no phase 'S1950M'" in err and "it has S1901M" in err
    code, out, err = run(capsys, "show", path, "--phase", "S1950M", "--json")
    assert code == 2 and json.loads(out)["file"] == path
    dip = tmp_path / "p.dip"
    dip.write_text("phase: S1901M\n[France]\nunits: A PAR\ncenters: PAR\n")
    code, out, err = run(capsys, "show", str(dip), "--phase", "S1901M")
    assert code == 2 and "--phase picks a phase of a game record" in err


def test_several_games_need_game(saved, capsys, tmp_path):
    both = tmp_path / "both.jsonl"
    both.write_text((saved / "game-0.json").read_text() + (saved / "game-1.json").read_text())
    code, out, err = run(capsys, "show", str(both), "--phase", "S1902M")
    assert code == 2 and "2 games in the record" in err
    code, out, err = run(capsys, "show", str(both), "--phase", "S1902M", "--game", "dipsolve-1", "--json")
    assert code == 0, err
    assert json.loads(out)["units"] == json.loads(run(capsys, "show", str(saved / "game-1.json"),
                                                      "--phase", "S1902M", "--json")[1])["units"]


def test_truncated_record_is_one_line_exit_2(saved, capsys, tmp_path):
    text = (saved / "game-0.json").read_text()
    cut = tmp_path / "cut.json"
    cut.write_text(text[: len(text) // 3])
    code, out, err = run(capsys, "show", str(cut), "--phase", "S1901M")
    assert code == 2
    assert "Traceback" not in err
    assert err.startswith(f"{cut}:1:") and "truncated" in err.splitlines()[0]


def test_play_save_refuses_a_file(capsys, tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    code, out, err = run(capsys, "play", "--until", "1901", "--save", str(f))
    assert code == 2 and err.strip() == f"{f / 'game-0.json'}: cannot write: {f} is not a directory"
    assert out == "" and f.read_text() == "x"      # refused before any game was played


def test_play_save_file_loads_and_replays_in_the_peer(saved):
    """What `play --save` wrote, the diplomacy package loads, and its engine, given each
    phase's recorded orders from the start, ends on the board the record ends on."""
    diplomacy = pytest.importorskip("diplomacy")
    from diplomacy.utils.export import load_saved_games_from_disk

    from dipsolve.testing.peer import from_peer_game
    path = saved / "game-1.json"
    record = load_record(str(path))
    (loaded,) = load_saved_games_from_disk(str(path))
    assert loaded.game_id == "dipsolve-1"
    assert [p.name for p in loaded.get_phase_history()] == record.names[:-1]
    game = diplomacy.Game()
    for phase in json.loads(path.read_text())["phases"][:-1]:
        for power, orders in phase["orders"].items():
            game.set_orders(power, orders)
        game.process()
    assert game.get_current_phase() == record.names[-1]
    assert from_peer_game(game) == record.final


# -- gzipped records (issue 49: a .json.gz, as archives ship them, was "not UTF-8") ----------

RECORD = __import__("pathlib").Path(__file__).resolve().parent.parent / "examples" / "records" / "dumbbot-1903.json"


def test_every_command_that_reads_a_record_reads_it_gzipped(tmp_path, capsys, monkeypatch):
    """By its content, not its name: a ``.json.gz`` and a gzipped file named ``.json``."""
    import gzip
    import io
    import sys
    import dipsolve
    packed = gzip.compress(RECORD.read_bytes())
    (tmp_path / "in").mkdir()
    named = tmp_path / "in" / "game.json.gz"
    named.write_bytes(packed)
    hidden = tmp_path / "hidden.json"
    hidden.write_bytes(packed)
    plain = run(capsys, "analyze", str(RECORD), "--adjudication-only", "--json")[1]
    for path in (named, hidden):
        code, out, err = run(capsys, "analyze", str(path), "--adjudication-only", "--json")
        assert code == 0, err
        assert {**json.loads(out), "file": "", "seconds": 0} == {**json.loads(plain), "file": "", "seconds": 0}
        code, out, err = run(capsys, "show", str(path), "--phase", "S1902M")
        assert code == 0 and "phase: Spring 1902 Movement" in out, err
        code, out, err = run(capsys, "view", str(path), "-o", str(tmp_path / "game.html"))
        assert code == 0 and (tmp_path / "game.html").read_text().startswith("<!DOCTYPE html>"), err
        assert dipsolve.load_record(str(path)) == load_record(str(RECORD))
        assert dipsolve.load_records(str(path)) == [load_record(str(RECORD))]
    code, out, err = run(capsys, "batch", str(tmp_path / "in"), "-o", str(tmp_path / "r.jsonl"),
                         "--task", "adjudicate", "--json")
    assert code == 0 and json.loads(out)["ok"] == 11, err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(packed)))
    code, out, err = run(capsys, "show", "-", "--phase", "S1902M")
    assert code == 0 and "phase: Spring 1902 Movement" in out, err


@pytest.mark.parametrize("damage, said", [
    (lambda b: b[: len(b) // 2], "cannot read the gzip data: it ends too early (truncated?)"),
    (lambda b: b[:2] + b"\x00" + b[3:], "cannot read the gzip data: unknown compression method"),
    (lambda b: b[:-8] + bytes(8), "cannot read the gzip data: incorrect data check"),
    (lambda b: b + b"trailing words", "cannot read the gzip data: 14 bytes after the gzip data are not gzip"),
])
def test_corrupt_gzip_is_one_line_and_exit_2(damage, said, tmp_path, capsys):
    import gzip
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(damage(gzip.compress(RECORD.read_bytes())))
    for command in (["analyze", str(bad)], ["view", str(bad), "-o", str(tmp_path / "x.html")],
                    ["show", str(bad), "--phase", "S1901M"]):
        code, out, err = run(capsys, *command)
        assert (code, out, err) == (2, "", f"{bad}: {said}\n")
        code, out, err = run(capsys, *command, "--json")
        assert code == 2 and json.loads(out) == {
            "error": "syntax", "file": str(bad), "line": None, "col": None, "message": said,
            "found": "corrupt gzip data", "expected": "a whole gzip file"}
    assert not (tmp_path / "x.html").exists()


def test_a_record_with_press_in_another_shape_is_read_with_a_warning(tmp_path, capsys):
    """Messages kept as one string (language-model players' games): every command reads
    the boards and orders, says on stderr what it skipped (file, game, phases) and, under
    --json, lists it in ``warnings``."""
    game = json.loads(RECORD.read_text())
    for ph in game["phases"][:2]:
        ph["messages"] = "FRANCE -> ENGLAND: shall we?"
    path = tmp_path / "llm.json"
    path.write_text(json.dumps(game))
    said = ("the messages of phases S1901M F1901M skipped: expected a JSON list, found a string")
    line = f"dipsolve: {path}: game dipsolve-7: warning: {said} (the boards and orders are read)\n"
    code, out, err = run(capsys, "analyze", str(path), "--adjudication-only")
    assert code == 0 and err == line and "dipsolve gives the record's next board in every one" in out
    code, out, err = run(capsys, "analyze", str(path), "--adjudication-only", "--json")
    assert code == 0 and json.loads(out)["warnings"] == [said] and err == line
    code, out, err = run(capsys, "view", str(path), "-o", str(tmp_path / "g.html"), "--json")
    assert code == 0 and json.loads(out)["warnings"] == [said] and err == line
    code, out, err = run(capsys, "show", str(path), "--phase", "F1901M")
    assert code == 0 and "phase: Fall 1901 Movement" in out and err == line
    code, out, err = run(capsys, "batch", str(path), "-o", str(tmp_path / "r.jsonl"), "--task", "analyze",
                         "--adjudication-only", "--json")
    assert code == 0 and err == line
    (result,) = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()[1:]]
    assert result["result"]["warnings"] == [said]
    code, out, err = run(capsys, "analyze", str(RECORD), "--adjudication-only", "--json")
    assert code == 0 and json.loads(out)["warnings"] == [] and err == ""



# -- games on a map file of the user's (issue 52, item 5) --------------------------------

ISLES = "examples/variants/isles.map"


@pytest.fixture(scope="module")
def isles(tmp_path_factory):
    """A game on the example map file, saved by `dipsolve play --save`."""
    root = ROOT_EXAMPLES.parent
    folder = tmp_path_factory.mktemp("isles")
    assert main(["play", "--variant", str(root / ISLES), "--bots", "dumbbot,random", "--until", "1905",
                 "--save", str(folder / "saved"), "--json"]) == 0
    return root / ISLES, folder / "saved" / "game-0.json"


def test_a_game_on_a_map_file_names_the_file_and_reads_back_with_it(isles, capsys):
    map_file, saved = isles
    assert json.loads(saved.read_text())["map"] == "isles.map"
    code, out, err = run(capsys, "show", "--variant", str(map_file), "--phase", "F1902M", str(saved))
    assert code == 0 and "phase: Fall 1902 Movement" in out and "[Amber]" in out, err
    code, out, err = run(capsys, "analyze", "--variant", str(map_file), "--adjudication-only", str(saved))
    assert code == 0 and "dipsolve gives the record's next board in every one" in out, err
    code, out, err = run(capsys, "adjudicate", "--variant", str(map_file), "--phase", "S1902M", str(saved),
                         "--json")
    assert code == 0, err
    code, out, err = run(capsys, "batch", "--task", "adjudicate", "--variant", str(map_file), str(saved),
                         "-o", str(saved.parent / "results.jsonl"))
    assert code == 0, err
    results = (saved.parent / "results.jsonl").read_text().splitlines()[1:]
    assert results and all(json.loads(r)["status"] == "ok" for r in results)
    # view reads it and draws its board as a schematic, the map file's powers in colours of their own
    code, out, err = run(capsys, "view", "--variant", str(map_file), str(saved), "-o", str(saved.parent / "x.html"))
    page = (saved.parent / "x.html").read_text(encoding="utf-8")
    assert code == 0 and 'id="map-CAP"' in page and 'class="unit Amber' in page, err
    from dipsolve.core.variant_files import find_variant
    record = load_record(str(saved), variant=find_variant(str(map_file)))
    assert record.result.how == "solo" and record.result.winners == ("Amber",)


def test_a_game_on_a_map_file_is_refused_without_it_or_with_another(isles, capsys, tmp_path):
    map_file, saved = isles
    for command in (["show", "--phase", "F1902M"], ["analyze", "--adjudication-only"], ["view"],
                    ["adjudicate", "--phase", "S1902M"]):
        code, out, err = run(capsys, *command, str(saved), *(["-o", str(tmp_path / "x.html")]
                                                            if command == ["view"] else []))
        assert code == 2 and "Traceback" not in err and len(err.splitlines()) == 1, err
        assert f"{saved}:1:" in err and "map 'isles.map': not a variant dipsolve ships" in err
        assert "--variant PATH/isles.map" in err
    for given in ("standard", "pure", str(ROOT_EXAMPLES / "variants" / "pure.dip")):
        code, out, err = run(capsys, "show", "--variant", given, "--phase", "F1902M", str(saved))
        assert code == 2 and "Traceback" not in err, err
    code, out, err = run(capsys, "show", "--variant", "pure", "--phase", "F1902M", str(saved))
    assert "the game was played on 'isles.map', not on the variant given ('pure')" in err


def test_a_users_variant_named_like_a_shipped_one_is_never_read_as_it(tmp_path, capsys):
    """A user's ``standard.map`` (the standard board's file of the ``diplomacy`` package, or
    anything) and a variant file whose name line says ``standard``: the game's record names
    the file, so it is never read back on the shipped standard map."""
    small = ROOT_EXAMPLES.parent / ISLES
    (tmp_path / "standard.map").write_text(small.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["play", "--variant", str(tmp_path / "standard.map"), "--bots", "random", "--until", "1901",
                 "--save", str(tmp_path / "a"), "--json"]) == 0
    saved = tmp_path / "a" / "game-0.json"
    assert json.loads(saved.read_text())["map"] == "standard.map"
    capsys.readouterr()
    code, out, err = run(capsys, "show", "--phase", "F1901M", str(saved))
    assert code == 2 and "map 'standard.map': not a variant dipsolve ships" in err
    code, out, err = run(capsys, "show", "--variant", "standard", "--phase", "F1901M", str(saved))
    assert code == 2 and "not on the variant given ('standard')" in err
    code, out, err = run(capsys, "show", "--variant", str(tmp_path / "standard.map"), "--phase", "F1901M",
                         str(saved))
    assert code == 0 and "[Amber]" in out
    # a variant file named standard inside: its record names the file, standard.variant
    std = ROOT_EXAMPLES.parent / "solver" / "data"
    (tmp_path / "data.map").write_text((std / "standard.map").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "standard.variant").write_text(
        (std / "standard.variant").read_text(encoding="utf-8").replace("map standard.map", "map data.map"),
        encoding="utf-8")
    assert main(["play", "--variant", str(tmp_path / "standard.variant"), "--bots", "random", "--until", "1901",
                 "--save", str(tmp_path / "b"), "--json"]) == 0
    assert json.loads((tmp_path / "b" / "game-0.json").read_text())["map"] == "standard.variant"
    capsys.readouterr()
    code, out, err = run(capsys, "show", "--phase", "F1901M", str(tmp_path / "b" / "game-0.json"))
    assert code == 2 and "map 'standard.variant': not a variant dipsolve ships" in err


def test_an_older_record_naming_its_map_files_path_reads_by_the_files_name(isles, capsys, tmp_path):
    """Records written before issue 52 said the path given to --variant: read with a map
    file of that name."""
    map_file, saved = isles
    game = json.loads(saved.read_text())
    game["map"] = "/somewhere/else/isles.map"
    for ph in game["phases"]:
        ph["state"]["map"] = game["map"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(game))
    code, out, err = run(capsys, "show", "--variant", str(map_file), "--phase", "F1902M", str(old))
    assert code == 0, err
