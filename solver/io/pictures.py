"""Pictures of the board, the public place: `render` a position, orders, results or a plan as SVG or PNG.

The board is drawn as the map of Europe players know: every province a shape on Natural
Earth's coastlines (``data/map_shapes.tsv``, made by ``data/build_map_shapes.py``: see
docs/pictures.md), land beige, sea blue, impassable land grey, a supply center's province
in its owner's colour with a dot beside its name, the coasts of Bulgaria, Spain and St
Petersburg dashed along their coastline; ``edges=True`` adds the moves of the board as
thin lines.
On top of it:

- units: a disc (army) or a hull (fleet) in the power's colour, lettered A or F, at
  their province's place; a dislodged unit beside it, ringed in red;
- orders: moves as arrows, supports as dashed arrows to the supported move's arrow (or a
  dashed line to a ring round the unit supported to hold), convoys as a dotted ring round the fleet with the
  convoyed army's arrow drawn through the chain of fleets; holds as a frame round the
  unit; retreats as dashed arrows; builds as a dashed ring with a plus; disbands and
  removals as a cross;
- results (`outcome_svg`): an order that failed is drawn faint and marked: a bar across
  the tip of a move that bounced, a red cross on a support that was cut or void or a
  convoy that was disrupted; a dislodged unit gets a red ring and a unit destroyed a
  red cross;
- a plan (`plan_svg`, from `replay_plan`): the moves and builds of every phase, each
  with the phase's number, like the numbered plies of the seed's figure 4.

Every unit, order and province carries a ``<title>`` (``France: A PAR``, ``Paris (PAR):
supply center, owned by France``): tooltips in a browser, and text a test can read.

The SVG is plain SVG 1.1 (no CSS, no markers, no scripts) so that any converter draws it
the same.  `svg_to_png` uses resvg (the ``resvg-py`` wheel, self-contained) with the two
font faces kept in ``data/fonts`` so a PNG looks the same on every machine; cairosvg is
used if resvg is not installed.

The work is split by job: `dipsolve.io.pictures_board` (the look, the province layout, the
geometry, the board graph and the units), `dipsolve.io.pictures_svg` (a position, orders,
results or a plan as SVG text) and this module, which is the place to import from
(`render`, `render_to`, `picture_bytes`, `position_svg`, `outcome_svg`, `plan_svg`,
`replay_plan`, `Subject`, `FORMATS` and the errors) and makes picture files (SVG, PNG);
`dipsolve.io.pictures_html` puts a whole game on one HTML page, and
`dipsolve.io.pictures_chart` draws the centers chart.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Iterable, Mapping

from ..core.bounds import check_picture
from ..core.errors import DipsolveSyntaxError, DipsolveUnavailable
from ..core.files import write_atomic
from ..core.orders import Order
from .pictures_board import (FAINT, HEIGHT, POWER_COLOURS, TERRAIN_COLOURS, WIDTH, board_edges,
                           coords)
from .pictures_svg import (PlanError, Subject, outcome_svg, plan_svg, position_svg, replay_plan,
                          svg_for)

__all__ = ["render", "render_to", "picture_bytes", "svg_to_png", "position_svg", "outcome_svg",
           "plan_svg", "replay_plan", "svg_for", "Subject", "FORMATS", "RenderError",
           "RenderUnavailable", "PlanError", "coords", "board_edges", "write_atomic",
           "POWER_COLOURS", "TERRAIN_COLOURS", "FAINT", "WIDTH", "HEIGHT"]


class RenderError(DipsolveSyntaxError):
    """A picture that cannot be made as asked: an unknown output format, a bad scale."""


class RenderUnavailable(RenderError, DipsolveUnavailable):
    """A picture format that needs a part that is not installed (no PNG converter)."""

    kind = "unavailable"


def render(subject: Subject, orders: Mapping[str, Iterable[Order]] | None = None, *,
           title: str | None = None, edges: bool = False) -> str:
    """The picture of ``subject`` as SVG text: a `Position` (with ``orders``, power ->
    orders, if given), an `Outcome` (its orders and their results) or a plan (a sequence
    of outcomes from `replay_plan`).  `render_to` writes it to a file, SVG or PNG.

        >>> from dipsolve.core.position import Position
        >>> svg = render(Position.initial(), title="The start")
        >>> svg.startswith("<svg") and "<title>The start</title>" in svg
        True
    """
    return svg_for(subject, orders, title=title, edges=edges)


# -- PNG and files -----------------------------------------------------------------------

def _font_files() -> list[str]:
    folder = resources.files("dipsolve") / "data" / "fonts"
    try:
        return sorted(str(p) for p in folder.iterdir() if str(p).endswith(".ttf"))
    except (FileNotFoundError, NotADirectoryError):
        return []


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """PNG bytes of an SVG: resvg (``pip install resvg-py``) with dipsolve's own fonts,
    else cairosvg; `RenderUnavailable` if neither is installed."""
    check_picture(WIDTH, HEIGHT, scale)      # refused before anything is drawn
    try:
        import resvg_py
    except ImportError:
        return _cairosvg_png(svg, scale)
    fonts = _font_files()
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, font_files=fonts or None,
                                       skip_system_fonts=bool(fonts),
                                       zoom=None if scale == 1.0 else scale))


def _cairosvg_png(svg: str, scale: float) -> bytes:
    """PNG bytes from cairosvg, when resvg-py is not installed."""
    try:
        import cairosvg
    except (ImportError, OSError):   # OSError: cairosvg installed, libcairo missing
        raise RenderUnavailable("PNG needs resvg-py (pip install resvg-py) or cairosvg; "
                                "write .svg instead") from None
    return bytes(cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale))


FORMATS = (".svg", ".png")


def picture_bytes(path: str | os.PathLike[str], svg: str, scale: float = 1.0) -> bytes:
    """The bytes to write to ``path``: the SVG itself, or a PNG of it, by the suffix."""
    suffix = Path(path).suffix.lower()
    if suffix == ".svg":
        return svg.encode("utf-8")
    if suffix == ".png":
        return svg_to_png(svg, scale)
    raise RenderError(f"{path}: unknown picture format {suffix or '(no suffix)'!r} "
                      f"(expected .svg or .png)")


def render_to(path: str | os.PathLike[str], subject: Subject,
              orders: Mapping[str, Iterable[Order]] | None = None, *,
              title: str | None = None, edges: bool = False, scale: float = 1.0) -> int:
    """Draw ``subject`` (see `svg_for`) into ``path`` (``.svg`` or ``.png``), atomically:
    the file is whole or not written.  Returns the number of bytes written.

    The helper for a command's ``--render OUT`` option: ``adjudicate`` passes its
    `Outcome`, ``solve`` its position and orders, ``path`` the outcomes of its replayed plan.
    """
    data = picture_bytes(path, svg_for(subject, orders, title=title, edges=edges), scale)
    write_atomic(path, data)
    return len(data)
