"""The pictures of docs/pictures.md are rendered by this test: the start, a crowded mid-game phase with its orders and results, a retreat phase, an adjustment phase.

Each is drawn from its example file and compared with the drawing the committed PNG was
made from (``docs/pictures/SOURCES``: a SHA-256 of each SVG).  When the drawing code
changes, the test says so; ``DIPSOLVE_WRITE_DOC_PICTURES=1 python -m pytest
tests/test_doc_pictures.py`` writes the PNGs (and SOURCES) anew.  The PNGs are also kept
in ``$DIPSOLVE_ARTIFACTS`` when that is set, to look at after a CI run.
"""

from __future__ import annotations

import hashlib
import os
import struct
from pathlib import Path

import pytest

from dipsolve.io import pictures
from dipsolve.core.adjudicator import adjudicate
from dipsolve.cli import load
from dipsolve.core.position import Position

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "docs" / "pictures"
SOURCES = FOLDER / "SOURCES"


def _subjects() -> dict[str, str]:
    """name -> SVG of each picture of the page."""
    out = {"start": pictures.render(Position.initial(), title="The start: Spring 1901")}
    for name, example, title in (("midgame-results", "s1902m.dip", "Spring 1902: orders and results"),
                                 ("retreat", "s1902r.dip", "Spring 1902 Retreat: the retreats"),
                                 ("adjustment", "w1901a.dip", "Winter 1901: builds")):
        position, orders = load(str(ROOT / "examples" / example))
        out[name] = pictures.render(adjudicate(position, orders), title=title)
    from dipsolve.core.variant import variant
    from dipsolve.grammar.position import parse_position_text
    position, orders = parse_position_text((ROOT / "examples" / "variants" / "ancmed.dip").read_text(),
                                           game_map=variant("ancmed").map)
    out["ancmed-results"] = pictures.render(adjudicate(position, orders),
                                            title="Ancient Mediterranean: the first moves")
    return out


def _digest(svg: str) -> str:
    return hashlib.sha256(svg.encode("utf-8")).hexdigest()


def test_the_doc_pictures_are_drawn_by_the_current_code():
    subjects = _subjects()
    artifacts = os.environ.get("DIPSOLVE_ARTIFACTS")
    if os.environ.get("DIPSOLVE_WRITE_DOC_PICTURES") or artifacts:
        for name, svg in subjects.items():
            png = pictures.svg_to_png(svg)
            assert png[:8] == b"\x89PNG\r\n\x1a\n"
            assert struct.unpack(">II", png[16:24]) == (pictures.WIDTH, pictures.HEIGHT)
            if os.environ.get("DIPSOLVE_WRITE_DOC_PICTURES"):
                pictures.write_atomic(FOLDER / f"{name}.png", png)
            if artifacts:
                Path(artifacts).mkdir(parents=True, exist_ok=True)
                (Path(artifacts) / f"doc-{name}.png").write_bytes(png)
        if os.environ.get("DIPSOLVE_WRITE_DOC_PICTURES"):
            pictures.write_atomic(SOURCES, "".join(f"{_digest(svg)}  {name}.png\n"
                                                   for name, svg in subjects.items()).encode())
    recorded = dict(reversed(line.split("  ")) for line in SOURCES.read_text().splitlines())
    for name, svg in subjects.items():
        assert (FOLDER / f"{name}.png").stat().st_size > 50_000
        assert recorded[f"{name}.png"] == _digest(svg), (
            f"docs/pictures/{name}.png is out of date: DIPSOLVE_WRITE_DOC_PICTURES=1 "
            f"python -m pytest tests/test_doc_pictures.py")


@pytest.mark.parametrize("name", ["start", "midgame-results", "retreat", "adjustment"])
def test_the_page_shows_each_picture(name):
    page = (ROOT / "docs" / "pictures.md").read_text(encoding="utf-8")
    assert f"](pictures/{name}.png)" in page
