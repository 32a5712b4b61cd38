"""The map a player recognises: its shapes agree with the board's adjacency, and no two labels on it overlap.

The shapes (solver/data/map_shapes.tsv, made by solver/data/build_map_shapes.py from
Natural Earth's coastlines) are checked against the map's own adjacency: every two
provinces adjacent on the board share a border in the picture and no others do, but for
the two differences stated in `DIFFERENCES`.  Every line of text on the map (province
names, unit letters, plan numbers) is checked for overlap with every other on every
example and on crowded random positions, with their orders and results.
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dipsolve.io import pictures
from dipsolve.core.adjudicator import adjudicate
from dipsolve.cli import load
from dipsolve.core.map import standard_map
from dipsolve.io.pictures_board import MAP_WIDTH, overlap, shapes, text_box
from dipsolve.testing.random_positions import play_forward, random_orders, random_position

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p for p in (ROOT / "examples").rglob("*.dip") if "variants" not in p.parts)  # the standard board
SVG = "{http://www.w3.org/2000/svg}"

#: where the picture's borders differ from the board's adjacency (real geography):
#: the Skagerrak and the Baltic meet in the Danish straits, which the board closes; Denmark
#: and Sweden, adjacent on the board, face each other across the Øresund, about 1 px apart.
DIFFERENCES = {"in the picture only": {("BAL", "SKA")}, "on the board only": {("DEN", "SWE")}}


def _polygon(d: str):
    from shapely.geometry import Polygon
    rings = [Polygon([tuple(map(float, p.split(","))) for p in ring.split()])
             for ring in re.findall(r"M([^MZ]+)Z", d)]
    shape = rings[0]
    for r in rings[1:]:
        shape = shape.symmetric_difference(r)          # the even-odd rule of the SVG
    return shape


def test_shapes_share_a_border_where_the_board_says_they_are_adjacent():
    pytest.importorskip("shapely", reason="the geometry check needs shapely (the test extra)")
    m = standard_map()
    s = shapes()
    assert set(s.provinces) == set(m.provinces)
    assert set(s.coasts) == {loc for loc in m.province_of if "/" in loc}
    polys = {p: _polygon(sh.path) for p, sh in s.provinces.items()}
    assert all(p.is_valid and p.area > 20 for p in polys.values())
    board = {tuple(sorted((a, b))) for a, ns in m.neighbours.items() for b in ns}
    picture = set()
    for a, b in itertools.combinations(sorted(polys), 2):
        if polys[a].buffer(0.4).intersection(polys[b].buffer(0.4)).area > 1.0:
            picture.add((a, b))
    assert picture - board == DIFFERENCES["in the picture only"]
    assert board - picture == DIFFERENCES["on the board only"]


def test_each_coast_lies_on_its_province_and_by_its_seas():
    pytest.importorskip("shapely", reason="the geometry check needs shapely (the test extra)")
    from shapely.geometry import LineString, Point
    from shapely.ops import unary_union
    m = standard_map()
    s = shapes()
    for loc, sh in s.coasts.items():
        prov = loc.split("/")[0]
        lines = [LineString([tuple(map(float, p.split(","))) for p in part.split()])
                 for part in sh.path.split("M") if part]
        line = unary_union(lines)
        assert line.distance(_polygon(s.provinces[prov].path).boundary) < 0.5, loc
        seas = {dst.split("/")[0] for dst in m.fleet_moves[loc] if m.provinces[dst.split("/")[0]].terrain == "sea"}
        touching = {sea for sea in seas if line.distance(_polygon(s.provinces[sea].path)) < 2.0}
        assert touching, loc
        assert _polygon(s.provinces[prov].path).buffer(1.0).contains(Point(sh.place)), loc
    for prov, sh in s.provinces.items():          # a unit is drawn inside its province
        assert _polygon(sh.path).contains(Point(sh.place)), prov


def _text_boxes(svg: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    root = ET.fromstring(svg)
    out = []
    for t in root.iter(f"{SVG}text"):
        x, y = float(t.get("x")), float(t.get("y"))
        if x >= MAP_WIDTH:                     # the legend, laid out in its own column
            continue
        out.append((t.text or "", text_box((x, y), t.text or "", float(t.get("font-size")),
                                           t.get("text-anchor") or "start")))
    return out


def _overlaps(svg: str) -> list[str]:
    boxes = _text_boxes(svg)
    return [f"{a} {ba} / {b} {bb}" for (a, ba), (b, bb) in itertools.combinations(boxes, 2) if overlap(ba, bb)]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_no_two_labels_overlap_on_any_example(path):
    position, orders = load(str(path))
    assert _overlaps(pictures.render(position)) == []
    if orders:
        assert _overlaps(pictures.render(position, orders)) == []
        assert _overlaps(pictures.render(adjudicate(position, orders))) == []


@pytest.mark.parametrize("seed", range(6))
def test_no_two_labels_overlap_on_crowded_random_positions(seed):
    position = random_position(seed, n_units=34)
    orders = random_orders(seed, position)
    outcome = adjudicate(position, orders)
    assert len(_text_boxes(pictures.render(outcome))) >= 34 + 75     # every name, every unit
    assert _overlaps(pictures.render(outcome)) == []
    assert _overlaps(pictures.render(outcome.next)) == []       # with dislodged units, maybe
    plan = [adjudicate(position, orders)]
    board = plan[-1].next
    for _ in range(3):                                          # a plan's numbered badges
        plan.append(adjudicate(board, random_orders(seed, board)))
        board = plan[-1].next
    assert _overlaps(pictures.render(plan)) == []


# -- every name, supply-center mark and unit inside its own province -----------------------

def _rings(d: str) -> list[list[tuple[float, float]]]:
    """The closed rings of SVG path data made of ``M x,y x,y ... Z`` (the map's shapes)."""
    return [[tuple(map(float, p.split(","))) for p in ring.split()] for ring in re.findall(r"M([^MZ]+)Z", d)]


def _inside(point: tuple[float, float], rings: list[list[tuple[float, float]]]) -> bool:
    """Even-odd point in polygon: a ray to the right crosses the rings an odd number of times."""
    x, y = point
    crossings = 0
    for ring in rings:
        for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
            if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                crossings += 1
    return crossings % 2 == 1


def _placements(svg: str) -> list[tuple[str, str, list[tuple[float, float]]]]:
    """(what, province, points that must lie in the province) for every province name (its
    text box's centre and corners), supply-center mark and unit (their centres) drawn."""
    provinces = set(shapes().provinces)
    root = ET.fromstring(svg)
    out = []
    for layer in root.iter(f"{SVG}g"):
        if layer.get("id") != "labels":
            continue
        last = None
        for el in layer:
            if el.tag == f"{SVG}text" and el.text in provinces:
                last = el.text
                x0, y0, x1, y1 = text_box((float(el.get("x")), float(el.get("y"))), el.text,
                                          float(el.get("font-size")), el.get("text-anchor") or "start")
                out.append((f"name {last}", last, [((x0 + x1) / 2, (y0 + y1) / 2),
                                                   (x0, y0), (x1, y0), (x0, y1), (x1, y1)]))
            elif el.tag == f"{SVG}circle" and el.get("class") == "center-mark":
                out.append((f"center mark {last}", last, [(float(el.get("cx")), float(el.get("cy")))]))
    for g in root.iter(f"{SVG}g"):
        if "unit" not in (g.get("class") or "").split():
            continue
        title = g.find(f"{SVG}title").text
        kind, loc = title.split(": ", 1)[1].split()[:2]
        t = g.find(f"{SVG}text")
        centre = (float(t.get("x")), float(t.get("y")) - (2.5 if kind == "F" else 3.6))
        out.append((title, loc.split("/")[0], [centre]))
    return out


def _outside(svg: str) -> list[str]:
    """What is drawn (wholly or partly) outside its own province."""
    rings = {p: _rings(sh.path) for p, sh in shapes().provinces.items()}
    return [what for what, prov, points in _placements(svg) if not all(_inside(p, rings[prov]) for p in points)]


def _crowded(seed: int) -> list[str]:
    """Pictures of a crowded random board: its orders' results, the retreat phase after
    them, and a retreat phase of its own with its retreats' results."""
    position = random_position(seed, n_units=50)
    outcome = adjudicate(position, random_orders(seed, position))
    retreat = random_position(seed, n_units=50, phase_kind="retreat")
    return [pictures.render(outcome), pictures.render(outcome.next),
            pictures.render(adjudicate(retreat, random_orders(seed, retreat)))]


def test_inside_is_the_even_odd_rule():
    square = _rings("M0,0 10,0 10,10 0,10ZM3,3 7,3 7,7 3,7Z")        # a square with a hole
    assert _inside((1, 5), square) and _inside((9, 9), square)
    assert not _inside((5, 5), square) and not _inside((11, 5), square) and not _inside((5, -1), square)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_name_center_and_unit_lies_in_its_province_on_every_example(path):
    position, orders = load(str(path))
    svgs = [pictures.render(position)]
    if orders:
        svgs.append(pictures.render(adjudicate(position, orders)))
    for svg in svgs:
        assert len(_placements(svg)) >= 75 + 34 + len(position.units)
        assert _outside(svg) == []


@pytest.mark.parametrize("seed", range(6))
def test_every_name_center_and_unit_lies_in_its_province_on_crowded_random_positions(seed):
    for svg in _crowded(seed):
        assert _outside(svg) == []
