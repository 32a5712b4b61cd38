"""A variant's board drawn as a schematic (`dipsolve.io.pictures_schematic`): every
province a disc inside the picture, no two meeting, neighbours drawn nearer than the
rest, the coasts of a province with several on its rim apart, the same picture every
time, and every picture (a position, an outcome, a game's page) drawn on it."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import dipsolve
from dipsolve.core.map import standard_map
from dipsolve.core.variant import variant
from dipsolve.core.variant_files import find_variant
from dipsolve.io.pictures_board import HEIGHT, MAP_WIDTH, colour
from dipsolve.io.pictures_schematic import schematic

ROOT = Path(__file__).resolve().parent.parent
MAPS = {"ancmed": lambda: variant("ancmed").map, "pure": lambda: variant("pure").map,
        "isles": lambda: find_variant(str(ROOT / "examples" / "variants" / "isles.map")).map,
        "standard": standard_map}        # the standard board too: its three provinces of two coasts


@pytest.fixture(scope="module", params=sorted(MAPS))
def board(request):
    m = MAPS[request.param]()
    return m, schematic(m, MAP_WIDTH, HEIGHT)


def test_every_province_is_a_disc_inside_the_map_and_none_meet(board):
    m, s = board
    assert set(s.provinces) == set(m.provinces) and s.disc >= 4
    r = s.disc
    for p, sh in s.provinces.items():
        x, y = sh.place
        assert r <= x <= MAP_WIDTH - r and r <= y <= HEIGHT - r, (p, sh.place)
    places = [sh.place for sh in s.provinces.values()]
    closest = min(math.dist(p, q) for i, p in enumerate(places) for q in places[i + 1:])
    assert closest >= 2 * r


def test_neighbours_are_drawn_nearer_than_the_rest(board):
    m, s = board
    near, far = [], []
    names = sorted(m.provinces)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            (near if b in m.neighbours[a] else far).append(math.dist(s.provinces[a].place, s.provinces[b].place))
    if far:                              # pure: every province next to every other
        assert sum(near) / len(near) < 0.6 * sum(far) / len(far)


def test_the_coasts_of_a_province_with_several_lie_apart_on_its_rim(board):
    m, s = board
    split = {p: [loc for loc in locs if loc != p] for p, locs in m.fleet_locations.items()}
    split = {p: locs for p, locs in split.items() if len(locs) > 1}
    assert set(s.coasts) == {loc for locs in split.values() for loc in locs}
    for p, locs in split.items():
        c = s.provinces[p].place
        angles = [math.atan2(s.coasts[loc].place[1] - c[1], s.coasts[loc].place[0] - c[0]) for loc in locs]
        for i, a in enumerate(angles):
            for b in angles[i + 1:]:
                assert abs((a - b + math.pi) % (2 * math.pi) - math.pi) >= math.radians(49)
            assert math.dist(c, s.coasts[locs[i]].place) < s.disc


def test_the_same_map_is_drawn_the_same():
    assert schematic(variant("ancmed").map, MAP_WIDTH, HEIGHT) == schematic(variant("ancmed").map, MAP_WIDTH, HEIGHT)


def test_a_variants_outcome_is_drawn_with_its_orders_and_its_powers_colours():
    from dipsolve.io.pictures import outcome_svg
    pos = dipsolve.Position.initial(variant("ancmed"))
    army = next(u for u in pos.units_of("Rome") if u.kind == "A")
    target = sorted(pos.map.army_moves[army.location])[0]
    outcome = dipsolve.adjudicate(pos, {"Rome": [f"A {army.location} - {target}"]})
    svg = outcome_svg(outcome)
    ET.fromstring(svg)
    assert 'class="order' in svg and f'id="prov-{target}"' in svg
    colours = {colour(p) for p in pos.map.powers}     # five of the seven powers' colours, none grey
    assert len(colours) == 5 and "#999999" not in colours and all(f'fill="{c}"' in svg for c in colours)
