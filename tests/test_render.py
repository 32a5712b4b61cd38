"""Pictures of the board: what a user sees in the SVG and PNG that ``dipsolve render`` makes.

Every example file renders (position, orders, results); the SVG is well-formed XML and
names every unit and every supply center with its owner; orders and results are drawn
where they belong; plans are replayed and numbered; PNG conversion works with the
bundled fonts; files are written whole or not at all.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dipsolve.io import pictures as render, pictures_board
from dipsolve.core.adjudicator import adjudicate
from dipsolve.cli import UserError, load
from dipsolve.cli.options import add_render as add_render_argument, write_render
from dipsolve.cli.render import load_plan, register
from dipsolve.grammar import parse_position
from dipsolve.core.map import standard_map
from dipsolve.core.orders import Build, Move
from dipsolve.core.position import Phase, Position

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p for p in (ROOT / "examples").rglob("*.dip")      # every example, subfolders too,
                  if "variants" not in p.parts)                            # on the standard board
SVG = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def titles(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [t.text or "" for t in root.iter(f"{SVG}title")]


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def group_titled(svg: str, prefix: str) -> ET.Element:
    """The element whose <title> starts with ``prefix``."""
    root = ET.fromstring(svg)
    for g in root.iter():
        t = g.find(f"{SVG}title")
        if t is not None and (t.text or "").startswith(prefix):
            return g
    raise AssertionError(f"nothing titled {prefix!r}")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_SIGNATURE
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def assert_names_board(svg: str, position: Position) -> None:
    """Every unit (with its power) and every supply center (with its owner) is named."""
    ts = titles(svg)
    for u in position.units:
        assert any(t.startswith(f"{u.power}: {u}") for t in ts), u
    for d in position.dislodged:
        assert f"{d.unit.power}: {d.unit} (dislodged)" in " ".join(ts), d
    labels = texts(svg)
    owner = position.owner
    for c in sorted(position.map.centers):
        assert c in labels
        name = position.map.provinces[c].name
        want = f"owned by {owner[c]}" if c in owner else "unowned"
        assert any(t.startswith(f"{name} ({c})") and want in t for t in ts), c


# -- the board layout --------------------------------------------------------------------

def test_every_province_and_coast_has_a_place():
    m = standard_map()
    places = render.coords(m)
    assert set(m.province_of) == set(places)      # every province and coast, nothing else


def test_edges_are_the_moves_of_the_board():
    m = standard_map()
    edges = {(a, b): kind for a, b, kind in render.board_edges(m)}
    assert edges[("BUR", "PAR")] == "army"
    assert edges[("BRE", "MAO")] == "fleet"
    assert edges[("BRE", "PIC")] == "both"
    assert edges[("BOT", "STP/SC")] == "fleet" and ("BOT", "STP") not in edges
    assert ("FIN", "STP") in edges and ("FIN", "STP/SC") in edges    # army and fleet apart
    svg = render.position_svg(Position.initial(), edges=True)
    drawn = ET.fromstring(svg).find(f"{SVG}g[@id='edges']")
    assert drawn is not None and len(list(drawn)) == len(edges)


# -- every example ------------------------------------------------------------------------

@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_renders_and_names_every_unit_and_center(path):
    position, orders = load(str(path))
    plain = render.position_svg(position)
    assert_names_board(plain, position)
    with_orders = render.position_svg(position, orders)
    assert_names_board(with_orders, position)
    outcome = adjudicate(position, orders)
    results = render.outcome_svg(outcome)
    assert_names_board(results, position)
    ts = titles(results)
    for r in outcome.results:
        if r.detail == "no order":
            continue
        assert any(t.startswith(f"{r.power}: {r.order}: {r.reason.value}") for t in ts), r


def test_start_picture_says_what_the_seed_figure_says():
    svg = render.position_svg(Position.initial())
    root = ET.fromstring(svg)
    par = root.find(f".//{SVG}g[@id='prov-PAR']")
    bur = root.find(f".//{SVG}g[@id='prov-BUR']")
    nth = root.find(f".//{SVG}g[@id='prov-NTH']")
    bre = root.find(f".//{SVG}g[@id='prov-BRE']")
    assert par.find(f"{SVG}path").get("fill") == pictures_board.tint("France")   # owned center
    assert "owner-France" in par.get("class")
    assert bur.find(f"{SVG}path").get("fill") == render.TERRAIN_COLOURS["land"]
    assert nth.find(f"{SVG}path").get("fill") == render.TERRAIN_COLOURS["sea"]
    assert bre.find(f"{SVG}path").get("fill") == pictures_board.tint("France")
    labels = {t.text: t for t in root.find(f"{SVG}g[@id='labels']").iter(f"{SVG}text")}
    assert labels["PAR"].get("font-weight") == "bold"          # a supply center
    assert labels["BUR"].get("font-weight") is None
    marks = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "center-mark"]
    assert len(marks) == 34
    assert sum(c.get("fill") == "#ffffff" for c in marks) == 12      # the neutral centers
    for coast in ("STP-NC", "STP-SC", "SPA-NC", "SPA-SC", "BUL-EC", "BUL-SC"):
        assert root.find(f".//{SVG}g[@id='loc-{coast}']") is not None
    fleets = [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("unit Russia fleet")]
    assert len(fleets) == 2


# -- orders and results -------------------------------------------------------------------

def test_results_mark_bounces_dislodgements_and_destruction():
    position, orders = load(str(ROOT / "examples" / "s1902m.dip"))
    outcome = adjudicate(position, orders)
    svg = render.outcome_svg(outcome)
    ts = " | ".join(titles(svg))
    assert "Austria: A VIE - GAL: bounced" in ts
    assert "Russia: F SEV (dislodged)" in ts
    assert "Russia: F STP/NC destroyed" in ts
    bounced = group_titled(svg, "Austria: A VIE - GAL: bounced")
    moved = group_titled(svg, "Austria: A RUM - SEV: moved")
    assert float(bounced.get("opacity")) == render.FAINT and moved.get("opacity") is None
    support = group_titled(svg, "England: F BAR S A NWY - STP: supported")
    assert support.find(f"{SVG}path").get("stroke-dasharray")          # dashed, to the arrow
    assert "support-move" in support.get("class")
    assert "results: 27 succeeded, 5 failed" in texts(svg)


def test_convoy_is_drawn_through_the_chain_of_fleets():
    position, orders = parse_position("""phase: Spring 1902 Movement
[England]
units: A LON, F NTH, F NWG
centers: LON
[orders]
England: A LON - NWY VIA
England: F NTH C A LON - NWY
England: F NWG S A LON - NWY
""")
    svg = render.outcome_svg(adjudicate(position, orders))
    move = group_titled(svg, "England: A LON - NWY VIA: moved")
    d = move.find(f"{SVG}path").get("d")
    nth = render.coords(standard_map())["NTH"]
    assert f"{pictures_board.fmt(nth[0])},{pictures_board.fmt(nth[1])}" in d       # the arrow runs through NTH
    convoy = group_titled(svg, "England: F NTH C A LON - NWY: convoyed")
    assert convoy.find(f"{SVG}circle").get("stroke-dasharray")


def test_retreat_and_build_orders_are_drawn():
    position, orders = load(str(ROOT / "examples" / "f1901r.dip"))
    svg = render.position_svg(position, orders)
    retreat = group_titled(svg, "Russia: F RUM R SEV")
    assert "retreat" in retreat.get("class")
    position, orders = load(str(ROOT / "examples" / "w1901a.dip"))
    svg = render.outcome_svg(adjudicate(position, orders))
    assert "Austria: F TRI B: built" in titles(svg)
    assert "Austria: F TRI (built)" in titles(svg)


# -- plans ------------------------------------------------------------------------------

PLAN = {"power": "Germany", "plan": [
    {"phase": "S1901M", "orders": ["F KIE - DEN", "A MUN - RUH", "A BER - KIE"]},
    {"phase": "F1901M", "orders": ["A RUH - BEL", "A KIE - HOL", "F DEN - SWE"]},
    {"phase": "W1901A", "orders": ["A BER B", "F KIE B", "A MUN B"]}]}


def test_plan_is_replayed_and_numbered_by_phase(tmp_path):
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(PLAN, indent=1))
    steps = load_plan(str(path))
    assert [s[0].short for s in steps] == ["S1901M", "F1901M", "W1901A"]
    assert steps[2][1]["Germany"][0] == Build("A", "BER")
    board = Position.initial()
    alone = Position.build(board.phase, board.units_of("Germany"), board.centers)
    outcomes = render.replay_plan(alone, steps)
    assert len(outcomes[-1].next.centers_of("Germany")) == 6
    svg = render.plan_svg(outcomes)
    ts = titles(svg)
    assert "1. Germany: F KIE - DEN: moved" in ts
    assert "2. Germany: A RUH - BEL: moved" in ts
    assert "3. Germany: A BER B: built" in ts
    assert "3 phases, S1901M to W1901A" in texts(svg)   # the last phase played, not the next
    badges = [g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "badge"]
    assert sorted(g.find(f"{SVG}text").text for g in badges) == ["1"] * 3 + ["2"] * 3 + ["3"] * 3


def test_plan_orders_that_fail_in_the_replay_are_marked(tmp_path):
    path = tmp_path / "plan.json"
    path.write_text(json.dumps([{"phase": "Spring 1901 Movement",
                                 "orders": {"GER": ["A MUN - BUR"], "France": ["A PAR - BUR"]}},
                                {"orders": [{"power": "France", "order": "A PAR - PIC"}]}]))
    outcomes = render.replay_plan(Position.initial(), load_plan(str(path)))
    svg = render.plan_svg(outcomes)
    bounced = group_titled(svg, "1. Germany: A MUN - BUR: bounced")
    assert float(bounced.get("opacity")) == render.FAINT
    assert "1. France: A PAR - BUR: bounced" in titles(svg)
    assert "2. France: A PAR - PIC: moved" in titles(svg)
    assert "2 orders failed in the replay (faint)" in texts(svg)


def test_plan_skips_phases_it_leaves_out_and_refuses_a_past_phase():
    board = Position.initial()
    hold_spring = [(None, {})]
    later = [(Phase.parse("F1901M"), {"Germany": [Move("A", "MUN", "RUH")]})]
    out = render.replay_plan(board, later)
    assert out[0].position.phase.short == "F1901M"
    assert render.replay_plan(board, hold_spring)[0].position.phase.short == "S1901M"
    with pytest.raises(render.PlanError, match="already at"):
        render.replay_plan(board, later + [(Phase.parse("S1901M"), {})])


# -- PNG ----------------------------------------------------------------------------------

def test_png_conversion_draws_the_picture_and_its_text():
    svg = render.position_svg(Position.initial())
    data = render.svg_to_png(svg)
    assert png_size(data) == (render.WIDTH, render.HEIGHT)
    assert png_size(render.svg_to_png(svg, scale=0.5)) == (render.WIDTH // 2, render.HEIGHT // 2)
    # the text is drawn (with the bundled fonts, so on any machine): a picture without
    # its labels comes out different
    blank = re.sub(r"<text [^>]*>[^<]*</text>", "", svg)
    assert render.svg_to_png(blank) != data


def test_pictures_svgs_whatever_it_is_given_and_notebooks_see_the_same(tmp_path):
    """`render` is the one call: a position (with orders), an outcome, or a plan; the
    notebook hooks (`_repr_svg_`, drawn lazily) give the same pictures."""
    position, orders = load(str(ROOT / "examples" / "s1902m.dip"))
    outcome = adjudicate(position, orders)
    assert render.render(position) == render.position_svg(position) == position._repr_svg_()
    assert render.render(position, orders) == render.position_svg(position, orders)
    assert render.render(outcome) == render.outcome_svg(outcome) == outcome._repr_svg_()
    plan = render.replay_plan(Position.initial(), [(None, {"Germany": [Move("A", "MUN", "RUH")]})])
    assert render.render(plan, title="one move") == render.plan_svg(plan, title="one move")
    assert set(render.FORMATS) == {".svg", ".png"}
    assert render.render_to(tmp_path / "o.svg", outcome) == len(render.render(outcome).encode())


def test_unknown_format_is_refused_and_nothing_is_written(tmp_path):
    with pytest.raises(render.RenderError, match="expected .svg or .png"):
        render.render_to(tmp_path / "board.gif", Position.initial())
    assert list(tmp_path.iterdir()) == []


def test_failed_png_leaves_no_file(tmp_path, monkeypatch):
    def broken(svg: str, scale: float = 1.0) -> bytes:
        raise render.RenderError("PNG needs resvg-py")
    monkeypatch.setattr(render, "svg_to_png", broken)
    with pytest.raises(render.RenderError):
        render.render_to(tmp_path / "board.png", Position.initial())
    assert list(tmp_path.iterdir()) == []


# -- the command line -----------------------------------------------------------------------

def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="dipsolve")
    sub = p.add_subparsers()
    register(sub)
    return p


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Like ``dipsolve.cli.main``: a user mistake is exit status 2 with one message."""
    from dipsolve.grammar import DipsolveError
    args = parser().parse_args(list(argv))
    try:
        code = args.func(args)
    except (UserError, DipsolveError) as e:
        print(str(e), file=__import__("sys").stderr)
        code = 2
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_render_svg_png_and_json(capsys, tmp_path):
    example = str(ROOT / "examples" / "s1902m.dip")
    code, out, err = run(capsys, "render", example, "--results", "-o", str(tmp_path / "r.svg"))
    assert code == 0, err
    svg = (tmp_path / "r.svg").read_text()
    assert "Austria: A VIE - GAL: bounced" in titles(svg)
    code, out, err = run(capsys, "render", example, "--orders", "--json", "-o", str(tmp_path / "o.png"))
    assert code == 0, err
    info = json.loads(out)
    assert info["picture"] == "orders" and info["orders"] == 32 and info["format"] == "png"
    assert png_size((tmp_path / "o.png").read_bytes()) == (render.WIDTH, render.HEIGHT)
    mask = os.umask(0)
    os.umask(mask)
    assert (tmp_path / "o.png").stat().st_mode & 0o777 == 0o666 & ~mask     # not mkstemp's 0600
    code, out, err = run(capsys, "render", example)
    assert code == 0 and ET.fromstring(out).tag == f"{SVG}svg"
    code, out, err = run(capsys, "render", example, "--json")
    assert json.loads(out)["svg"].startswith("<svg")
    other = str(ROOT / "examples" / "s1902m-russia-attacks.txt")
    code, out, err = run(capsys, "render", example, "--orders-file", other, "--results", "--json")
    assert code == 0, err
    info = json.loads(out)
    assert info["picture"] == "results" and info["orders"] == 8
    assert "Russia: A UKR - RUM" in " ".join(titles(info["svg"]))


def test_cli_render_plan(capsys, tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(PLAN))
    code, out, err = run(capsys, "render", "--plan", str(plan), "--alone", "--json",
                         "-o", str(tmp_path / "plan.svg"))
    assert code == 0, err
    info = json.loads(out)["plan"]
    assert info == {"file": str(plan), "phases": 3, "from": "S1901M", "to": "S1902M",
                    "orders": 9, "failed": 0, "centers_after": {"Germany": 6}}


@pytest.mark.parametrize("text, where, what", [
    ('{"power": "GER", "plan": [\n {"phase": "S1901M",\n  "orders": ["A BER - KEI"]}]}', ":3:23:",
     "unknown province 'KEI'"),
    ('{"plan": [{"phase": "S1901M", "orders": ["A BER - KIE"]}]}', ":1:", "no power for this order"),
    ('{"plan": [{"phase": "Summer 1901", "orders": []}]}', ":1:21:", "is not a phase"),
    ('{"plan": [', ":1:11:", "not JSON"),
    ('{"steps": []}', "plan.json: ", 'no "plan"'),
])
def test_cli_render_bad_plan_says_where(capsys, tmp_path, text, where, what):
    plan = tmp_path / "plan.json"
    plan.write_text(text)
    out_file = tmp_path / "p.svg"
    code, out, err = run(capsys, "render", "--plan", str(plan), "-o", str(out_file))
    assert code == 2
    assert where in err and what in err, err
    assert "Traceback" not in err and not out_file.exists()


def test_cli_render_user_mistakes(capsys, tmp_path):
    example = str(ROOT / "examples" / "start.dip")
    for argv, what in [((example, "-o", str(tmp_path / "x.jpg")), "expected .svg or .png"),
                       ((), "needs a FILE"),
                       ((example, "--alone"), "--alone applies to --plan only"),
                       ((str(tmp_path / "missing.dip"),), "no such file")]:
        code, out, err = run(capsys, "render", *argv)
        assert code == 2 and what in err, (argv, err)
    assert list(tmp_path.iterdir()) == []


def test_render_option_for_other_commands(tmp_path):
    p = argparse.ArgumentParser()
    add_render_argument(p)
    args = p.parse_args(["--render", str(tmp_path / "{stem}.svg")])
    position, orders = load(str(ROOT / "examples" / "s1902m.dip"))
    written = write_render(args, adjudicate(position, orders), source="examples/s1902m.dip")
    assert written == str(tmp_path / "s1902m.svg")
    assert "results: 27 succeeded, 5 failed" in texts(Path(written).read_text())
    assert write_render(p.parse_args([]), position) is None


def test_render_without_o_does_not_pour_svg_into_a_terminal(capsys, monkeypatch):
    """At a terminal, render asks for -o (exit 2, one line) instead of printing 60 KB of
    SVG; into a pipe or a file the SVG goes to stdout as before."""
    import sys
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    code, out, err = run(capsys, "render", "examples/start.dip")
    assert code == 2 and out == "" and "give a file with -o OUT" in err
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False, raising=False)
    code, out, err = run(capsys, "render", "examples/start.dip")
    assert code == 0 and out.startswith("<svg")


def test_a_variants_board_is_drawn_as_a_schematic(tmp_path):
    example = ROOT / "examples" / "variants" / "pure.dip"
    proc = subprocess.run([sys.executable, "-m", "dipsolve", "render", "--variant", "pure", str(example),
                           "-o", str(tmp_path / "pure.svg")], capture_output=True, text=True)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    svg = (tmp_path / "pure.svg").read_text(encoding="utf-8")
    ET.fromstring(svg)
    assert svg.count('class="unit ') == 7 and "a schematic of the board" in svg
