"""The command line as a user meets it: adjudicate, show, --json, output files, errors."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dipsolve.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.dip"))


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_examples_exist():
    names = {p.name for p in EXAMPLES}
    assert "start.dip" in names and len(EXAMPLES) >= 7
    kinds = set()
    from dipsolve.grammar import parse_position
    for p in EXAMPLES:
        pos, _ = parse_position(p.read_text(), str(p))
        kinds.add(pos.phase.kind)
    assert kinds == {"movement", "retreat", "adjustment"}


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_adjudicates_and_its_output_adjudicates_again(path, capsys, tmp_path):
    code, out, err = run(capsys, "adjudicate", str(path))
    assert code == 0, err
    # the whole human output is a valid position file (results are comments)
    again = tmp_path / "next.dip"
    again.write_text(out)
    code, out2, err2 = run(capsys, "adjudicate", str(again))
    assert code == 0, err2
    assert "phase:" in out2


def test_output_file_and_json(capsys, tmp_path):
    start = ROOT / "examples" / "start.dip"
    target = tmp_path / "after.dip"
    code, out, _ = run(capsys, "adjudicate", str(start), "--json", "-o", str(target))
    assert code == 0
    obj = json.loads(out)
    assert obj["file"] == str(start) and obj["phase"] == "S1901M"
    assert obj["next"]["phase"] in ("F1901M", "S1901R")
    assert {"power", "order", "success", "reason", "detail"} <= set(obj["results"][0])
    assert set(obj["next"]) >= {"units", "centers", "dislodged", "standoffs", "phase"}
    from dipsolve.grammar import parse_position
    pos, orders = parse_position(target.read_text(), str(target))
    assert pos.phase.short == obj["next"]["phase"] and orders == {}
    units = {p: sorted(us) for p, us in obj["next"]["units"].items() if us}
    assert units == {p: sorted(str(u) for u in pos.units_of(p)) for p in pos.powers() if pos.units_of(p)}


def test_several_files_in_one_process_json_lines(capsys):
    code, out, _ = run(capsys, "adjudicate", *map(str, EXAMPLES[:3]), "--json")
    assert code == 0
    lines = out.strip().splitlines()
    assert len(lines) == 3 and all(json.loads(line)["file"] for line in lines)


def test_orders_file_replaces_the_files_orders(capsys, tmp_path):
    orders = tmp_path / "orders.txt"
    orders.write_text("# France opens\nFrance: A PAR - BUR\nGermany: A MUN - BUR\n")
    code, out, _ = run(capsys, "adjudicate", str(ROOT / "examples" / "start.dip"), "--orders", str(orders), "--json")
    assert code == 0
    res = {r["order"]: r["reason"] for r in json.loads(out)["results"]}
    assert res["A PAR - BUR"] == "bounced" and res["A MUN - BUR"] == "bounced"
    assert res["F BRE H"] == "held"


def test_show(capsys):
    code, out, _ = run(capsys, "show", str(ROOT / "examples" / "start.dip"))
    assert code == 0 and "[Russia]" in out and "F STP/SC" in out
    code, out, _ = run(capsys, "show", "--json", str(ROOT / "examples" / "start.dip"))
    obj = json.loads(out)
    assert obj["units"]["Russia"] == ["A MOS", "A WAR", "F SEV", "F STP/SC"]


def test_missing_file_is_exit_2_without_traceback(capsys):
    code, out, err = run(capsys, "adjudicate", "no/such/file.dip")
    assert code == 2 and "no/such/file.dip: no such file" in err and "Traceback" not in err


def test_bad_orders_file_is_exit_2_with_line_and_column(capsys, tmp_path):
    orders = tmp_path / "orders.txt"
    orders.write_text("France: A PAR - BUR\nFrance: A PIC - BRE\n")
    code, _, err = run(capsys, "adjudicate", str(ROOT / "examples" / "start.dip"), "--orders", str(orders))
    assert code == 2
    assert f"{orders}:2:" in err and "PIC" in err


def test_no_partial_output_on_error(capsys, tmp_path):
    bad = tmp_path / "bad.dip"
    bad.write_text("phase: Spring 1901 Movement\n[France]\nunits: A PARISS\n")
    target = tmp_path / "out"
    code, _, err = run(capsys, "adjudicate", str(ROOT / "examples" / "start.dip"), str(bad), "--out-dir", str(target))
    assert code == 2 and f"{bad}:3:" in err
    assert not target.exists()


def test_console_script_help():
    exe = Path(sys.executable).with_name("dipsolve")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "dipsolve.cli"]
    proc = subprocess.run(cmd + ["adjudicate", "--help"], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "100"})
    assert proc.returncode == 0 and "--orders" in proc.stdout and "--json" in proc.stdout
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 2 and "adjudicate" in proc.stdout


def test_render_option_draws_the_outcome(capsys, tmp_path):
    out = tmp_path / "f1901m.svg"
    code, _, _ = run(capsys, "adjudicate", str(ROOT / "examples" / "f1901m.dip"), "--render", str(out))
    assert code == 0
    svg = out.read_text()
    assert "Russia: F RUM" in svg and "dislodged" in svg


def test_render_option_rejects_an_unknown_format_before_any_work(capsys, tmp_path):
    code, _, err = run(capsys, "adjudicate", str(ROOT / "examples" / "start.dip"), "--render",
                       str(tmp_path / "x.gif"))
    assert code == 2 and "expected .svg or .png" in err and not list(tmp_path.iterdir())


def test_notebook_pictures():
    from dipsolve.core.adjudicator import adjudicate
    from dipsolve.core.position import Position
    from dipsolve.io.pictures import outcome_svg, position_svg
    start = Position.initial()
    assert start._repr_svg_() == position_svg(start)
    out = adjudicate(start, {})
    assert out._repr_svg_() == outcome_svg(out)


# ---------------------------------------------------------------- the version, shared options
def test_version_is_the_installed_packages(capsys):
    from importlib.metadata import version
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out == f"dipsolve {version('dipsolve')}\n"


def test_the_names_the_parser_offers_are_the_librarys():
    """The parser is built without importing the library; its lists must agree with it."""
    from dipsolve.play import registry
    from dipsolve.algorithms import evaluation, path
    from dipsolve.io import pictures
    from dipsolve import search
    from dipsolve.cli import options
    assert options.EVALUATIONS == evaluation.EVALUATORS
    assert options.METHODS == search.METHODS == registry.DIPSOLVE_METHODS
    assert options.OPPONENT_MODELS == registry.OPPONENT_MODELS == search.methods.OPPONENT_MODELS
    assert registry.SEAT_DEFAULT == search.methods.DEFAULT_OPPONENTS       # solve, play and daide
    assert options.PICKS == search.methods.PICKS
    assert options.PATH_ALGORITHMS == path.ALGORITHMS
    assert options.PATH_ORDERS == path.ORDERS
    assert options.PATH_GOAL_TESTS == path.GOAL_TESTS
    from dipsolve.models.path_problem import OPPOSITIONS
    assert options.PATH_OPPOSITIONS == OPPOSITIONS
    assert options.PICTURE_FORMATS == pictures.FORMATS
    from dipsolve.core.variant import VARIANTS
    assert options.VARIANTS == VARIANTS


def test_building_the_parser_imports_no_solver_grammar_or_model():
    """``dipsolve --help`` and every ``COMMAND --help`` load only the command line."""
    code = ("import sys\n"
            "from dipsolve.cli.main import COMMANDS, main\n"
            "for argv in [['--help']] + [[c, '--help'] for c in COMMANDS]:\n"
            "    try:\n"
            "        main(argv)\n"
            "    except SystemExit:\n"
            "        pass\n"
            "print(' '.join(sorted(sys.modules)))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(proc.stdout.splitlines()[-1].split())
    heavy = {"lark", "ortools", "numpy", "pulp", "constraint", "dipsolve.grammar", "dipsolve.models",
             "dipsolve.search", "dipsolve.algorithms", "dipsolve.io", "dipsolve.play"}
    assert "dipsolve.cli.main" in loaded
    loaded -= {"dipsolve.play", "dipsolve.play.registry"}   # the bot registry: the help of --bots
    assert not {m for m in loaded
                if any(".".join(m.split(".")[:k]) in heavy for k in range(1, m.count(".") + 2))}


@pytest.mark.parametrize("command", [
    ["solve", "examples/start.dip"], ["path", "--power", "GER"],
    ["adjust", "examples/w1901a.dip", "--count"], ["play"]])
@pytest.mark.parametrize("limit", ["0", "-1", "nan", "inf"])
def test_every_time_limit_is_positive_and_finite(command, limit, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, *command, "--time-limit", limit)
    assert (code, out) == (2, "")
    assert err.startswith(f"dipsolve: --time-limit {float(limit):g}")
    assert err.endswith(": past the limit max_seconds (a time limit is more than 0, at most "
                        "10,000,000 seconds)\n")
    assert err.count("\n") == 1


def test_a_power_is_any_of_its_names(capsys):
    for name in ("TUR", "turkey", "Turkey"):
        code, out, err = run(capsys, "adjust", str(ROOT / "examples" / "w1901a.dip"), "--count",
                             "--power", name, "--json")
        assert code == 0, err
        assert json.loads(out)["powers"][0]["power"] == "Turkey"


def test_evaluation_everywhere_and_adjusts_old_evaluator_spelling(capsys):
    trieste = str(ROOT / "examples" / "adjustments" / "trieste.dip")
    code, out, _ = run(capsys, "adjust", trieste, "--evaluation", "centers", "--json")
    assert code == 0 and json.loads(out)["evaluator"] == "centers"
    code, old, _ = run(capsys, "adjust", trieste, "--evaluator", "centers", "--json")
    assert code == 0
    assert json.loads(old)["strategies"] == json.loads(out)["strategies"]
    for command in ("adjust", "solve", "play"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        shown = capsys.readouterr().out
        assert "--evaluation NAME" in shown and "--evaluator" not in shown
    code, _, err = run(capsys, "solve", str(ROOT / "examples" / "start.dip"), "--evaluation", "luck")
    assert code == 2 and "--evaluation 'luck': unknown evaluation" in err


# ---------------------------------------------------------------- errors as JSON
MISSING = "no/such/file.dip"


@pytest.mark.parametrize("argv", [
    ["adjudicate", MISSING], ["adjudicate", "examples/start.dip", "--orders", MISSING],
    ["show", MISSING], ["parse", "-f", MISSING], ["parse", "--press", "-f", MISSING],
    ["validate", MISSING, "--position", "examples/start.dip"],
    ["validate", "examples/orders/spring1901.txt", "--position", MISSING],
    ["solve", MISSING], ["solve", "examples/start.dip", "--values", MISSING],
    ["path", "--power", "GER", "--from", MISSING], ["adjust", MISSING],
    ["render", MISSING], ["render", "--plan", MISSING]], ids=" ".join)
def test_a_missing_file_is_one_json_error_with_json(argv, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, *argv, "--json")
    assert (code, err) == (2, "")
    assert json.loads(out) == {"error": "file", "file": MISSING, "line": None, "col": None,
                               "message": "no such file", "found": None, "expected": None}
    code, out, err = run(capsys, *argv)
    assert (code, out, err) == (2, "", f"{MISSING}: no such file\n")


def test_a_mistake_in_a_file_is_a_json_error_with_its_place(capsys, tmp_path):
    bad = tmp_path / "bad.dip"
    bad.write_text("phase: Spring 1901 Movement\n[France]\nunits: A PARISS\n")
    code, out, _ = run(capsys, "show", str(bad), "--json")
    obj = json.loads(out)
    assert code == 2 and (obj["error"], obj["file"], obj["line"], obj["col"]) == ("syntax", str(bad), 3, 10)
    assert "PARISS" in obj["message"]


@pytest.mark.parametrize("argv, message", [
    (["adjust", "--json", "--bogus"], "unrecognized arguments: --bogus"),
    (["solve", "--json"], "the following arguments are required: FILE"),
    (["path", "--json"], "the following arguments are required: --power"),
    (["solve", "x.dip", "--method", "dfs", "--json"],
     "argument --method: invalid choice: 'dfs' (choose from 'agenda', 'minimax', 'expectimax', 'cpsat')"),
    (["play", "--games", "many", "--json"], "argument --games: invalid integer value: 'many'"),
    (["--json"], "unrecognized arguments: --json"),
])
def test_a_usage_error_under_json_is_one_json_object(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    out, err = capsys.readouterr()
    assert e.value.code == 2 and err == ""
    assert json.loads(out) == {"error": "usage", "file": None, "line": None, "col": None,
                               "message": message, "found": None, "expected": None}


def test_a_usage_error_without_json_is_argparses(capsys):
    with pytest.raises(SystemExit) as e:
        main(["solve"])
    out, err = capsys.readouterr()
    assert e.value.code == 2 and out == ""
    assert err.startswith("usage: dipsolve solve [-h]")
    assert err.endswith("dipsolve solve: error: the following arguments are required: FILE\n")
    with pytest.raises(SystemExit) as e:
        main(["solve", "x.dip", "--bogus"])
    assert capsys.readouterr().err == ("usage: dipsolve [-h] [--version] COMMAND ...\n"
                                       "dipsolve: error: unrecognized arguments: --bogus\n")


_COMMANDS = ("adjudicate, show, parse, validate, solve, path, adjust, play, render, view, analyze, "
             "batch, daide")


@pytest.mark.parametrize("word, said", [
    ("solv", "unknown command 'solv' (did you mean solve? expected one of " + _COMMANDS + ")"),
    ("analyse", "unknown command 'analyse' (did you mean analyze? expected one of " + _COMMANDS + ")"),
    ("Render", "unknown command 'Render' (did you mean render? expected one of " + _COMMANDS + ")"),
    ("xyzzy", "unknown command 'xyzzy' (expected one of " + _COMMANDS + ")"),
])
def test_a_misspelt_command_gets_the_closest_as_a_misspelt_power_does(word, said, capsys):
    """Issue 49: ``dipsolve solv`` named no command, where ``--power Frnace`` says France."""
    with pytest.raises(SystemExit) as e:
        main([word, "x.dip"])
    assert e.value.code == 2
    assert capsys.readouterr() == ("", "usage: dipsolve [-h] [--version] COMMAND ...\n"
                                       f"dipsolve: error: {said}\n")
    with pytest.raises(SystemExit) as e:
        main([word, "x.dip", "--json"])
    assert e.value.code == 2
    assert json.loads(capsys.readouterr().out) == {"error": "usage", "file": None, "line": None, "col": None,
                                                   "message": said, "found": word, "expected": "a command"}


# ---------------------------------------------------------------- the progress display
class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    """A clock the test moves by hand (the progress display's ``clock``)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_draws_a_bar_with_eta_on_a_terminal_only_and_erases_itself():
    from dipsolve.cli.progress import Progress
    screen, clock = Terminal(), Clock()
    with Progress(4, stream=screen, clock=clock, mininterval=0.1) as progress:
        clock.now = 1.0
        progress.show("1/4", done=1)
        clock.now = 1.05                    # within mininterval: not redrawn
        progress.show("1/4 still", done=1)
        clock.now = 2.0
        progress.show("2/4", done=2)
    drawn = screen.getvalue().split("\r")
    assert drawn[1].startswith("1/4  25%|") and drawn[1].endswith("1/4 [00:01<00:03]")
    assert drawn[2].startswith("2/4  50%|") and drawn[2].endswith("2/4 [00:02<00:02]")   # the ETA
    assert "still" not in screen.getvalue()
    assert drawn[-2].strip() == "" and drawn[-1] == ""               # erased
    pipe = io.StringIO()
    with Progress(4, stream=pipe) as progress:
        progress.show("1/4", done=1)
    assert pipe.getvalue() == ""
    screen = Terminal()
    with Progress(stream=screen, enabled=False) as progress:
        progress.show("anything")
    assert screen.getvalue() == ""


def test_progress_is_silent_under_json_unless_asked_for(monkeypatch):
    from dipsolve.cli import progress as module
    monkeypatch.setattr(module, "SILENT", True)
    screen = Terminal()
    with module.Progress(4, stream=screen) as progress:
        progress.show("1/4", done=1)
    assert screen.getvalue() == ""
    monkeypatch.setenv("DIPSOLVE_PROGRESS", "always")
    with module.Progress(4, stream=screen) as progress:
        progress.show("1/4", done=1)
    assert "1/4" in screen.getvalue()
    monkeypatch.setattr(module, "SILENT", False)
    monkeypatch.setenv("DIPSOLVE_PROGRESS", "never")
    screen = Terminal()
    with module.Progress(4, stream=screen) as progress:
        progress.show("1/4", done=1)
    assert screen.getvalue() == ""


def test_progress_text_line_shows_the_time_taken_and_pads():
    from dipsolve.cli.progress import Progress
    screen, clock = Terminal(), Clock()
    progress = Progress(stream=screen, clock=clock)
    progress.show("1,000 evaluations (pure)")
    clock.now = 65.0
    progress.show("done")
    assert screen.getvalue().split("\r")[1] == "1,000 evaluations (pure) [00:00]"
    assert screen.getvalue().split("\r")[2].rstrip() == "done [01:05]"
    assert len(screen.getvalue().split("\r")[2]) >= len("1,000 evaluations (pure) [00:00]")
    progress.close()
    progress.close()                      # once erased, nothing more
    assert screen.getvalue().split("\r")[-1] == "" and screen.getvalue().split("\r")[-2].strip() == ""
