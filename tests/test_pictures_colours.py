"""The board's fills a player must tell apart are far apart in colour: the seven powers
(their units, and the provinces they own), impassable land, the seas and neutral land.

The distance is CIE76 ΔE (the Euclidean distance in CIE L*a*b*, D65 white), computed
here from sRGB; ΔE about 2.3 is the smallest difference the eye sees side by side, and
20 (`THRESHOLD`) is plainly another colour.  Issue 49: "colours every pair of which a
player can tell apart (powers, impassable, sea)".
"""

from __future__ import annotations

import itertools
import math

from dipsolve.io.pictures_board import POWER_COLOURS, TERRAIN_COLOURS, tint

THRESHOLD = 20.0


def lab(hex_colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour ``#rrggbb``."""
    rgb = [int(hex_colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    r, g, b = lin
    xyz = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b,
           0.2126729 * r + 0.7151522 * g + 0.0721750 * b,
           0.0193339 * r + 0.1191920 * g + 0.9503041 * b)
    white = (0.95047, 1.0, 1.08883)

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29
    fx, fy, fz = (f(v / w) for v, w in zip(xyz, white))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: str, b: str) -> float:
    return math.dist(lab(a), lab(b))


def test_lab_matches_known_values():
    assert all(abs(x - y) < 0.05 for x, y in zip(lab("#ffffff"), (100.0, 0.0, 0.0)))
    assert all(abs(x - y) < 0.05 for x, y in zip(lab("#ff0000"), (53.24, 80.09, 67.20)))
    assert delta_e("#000000", "#ffffff") > 99.9


def _fills() -> dict[str, str]:
    return {"impassable": TERRAIN_COLOURS["neutral"], "sea": TERRAIN_COLOURS["sea"],
            "neutral land": TERRAIN_COLOURS["land"]}


def _near(colours: dict[str, str]) -> list[tuple[str, str, float]]:
    """The pairs closer than `THRESHOLD`, with their ΔE."""
    return [(a, b, round(delta_e(colours[a], colours[b]), 1))
            for a, b in itertools.combinations(colours, 2) if delta_e(colours[a], colours[b]) < THRESHOLD]


def test_every_two_powers_and_the_terrain_are_told_apart():
    """The powers' own colours (units, center marks) among themselves and against every
    fill of the map they stand on."""
    assert _near({**POWER_COLOURS, **_fills()}) == []


def test_every_two_owned_provinces_and_the_terrain_are_told_apart():
    """The fills of the provinces: each power's tint, impassable land, sea, unowned land."""
    assert _near({**{p: tint(p) for p in POWER_COLOURS}, **_fills()}) == []


def test_every_unit_is_told_from_every_province_it_stands_on():
    """A unit (its power's colour) against each fill: any power's owned provinces and the
    terrain."""
    fills = {**{f"owned by {p}": tint(p) for p in POWER_COLOURS}, **_fills()}
    near = [(p, f, round(delta_e(c, fill), 1)) for p, c in POWER_COLOURS.items()
            for f, fill in fills.items() if delta_e(c, fill) < THRESHOLD]
    assert near == []
