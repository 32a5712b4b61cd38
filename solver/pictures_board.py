"""The board as a picture: its look, the province layout, the geometry, and the board graph with its units.

The layer every picture of `dipsolve.pictures` is drawn on: the colours and sizes
(`TERRAIN_COLOURS`, `POWER_COLOURS`, `R`, ...), where each province's node is drawn
(`coords`, from ``data/coords.tsv``), small helpers of plane geometry and SVG text, a
`Drawing` with named layers and its primitives (lines, arrows, crosses, text), and the
board itself: the edges of the map graph, the provinces with their owners
(`draw_board`) and the units (`draw_units`).  Orders, results and legends are drawn on
top of it by `dipsolve.pictures_svg`.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Mapping, Sequence
from xml.sax.saxutils import escape

from .map import Map
from .position import Position, Unit

# -- look ------------------------------------------------------------------------------

#: node fills, as in the seed's figure 2 (land green, coast tan, sea blue)
TERRAIN_COLOURS = {"land": "#bddca5", "coast": "#ecd8a8", "sea": "#a8cbe8"}
#: the usual colours of the seven powers (Russia purple rather than white, to be seen)
POWER_COLOURS = {"Austria": "#d0312d", "England": "#27399a", "France": "#2b9fd9",
                 "Germany": "#555555", "Italy": "#2e8b3e", "Russia": "#8e5bb5",
                 "Turkey": "#e3b505"}
_INK_ON = {"Turkey": "#222222"}               # letter colour on a light power colour
_OTHER_COLOUR = "#999999"                     # a power not among the seven
EDGE_COLOURS = {"both": "#8d8d8d", "army": "#a5773c", "fleet": "#4f86c0"}
FAIL_COLOUR = "#d01c1c"
FAINT = 0.45                                  # opacity of an order that failed
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

WIDTH, HEIGHT = 1260, 900        # the whole picture; the map takes x < MAP_WIDTH
MAP_WIDTH = 1010
R = 19                           # radius of a province's node
RC = 8                           # radius of a coast's node
RU = 10                          # radius of a unit's marker
UNIT_OFFSET = (15.0, -15.0)      # a unit's marker, from its node's center
DISLODGED_OFFSET = (15.0, 15.0)  # a dislodged unit's marker

Point = tuple[float, float]


@cache
def coords() -> dict[str, Point]:
    """Location (``"PAR"``, ``"STP/NC"``) -> where its node is drawn; ``"MAO-WES"`` -> the
    point the edge between the two is drawn through."""
    path = resources.files("dipsolve") / "data" / "coords.tsv"
    with path.open(encoding="utf-8") as fh:
        rows = csv.DictReader((line for line in fh if not line.startswith("#")), delimiter="\t")
        return {row["location"]: (float(row["x"]), float(row["y"])) for row in rows}


def colour(power: str) -> str:
    return POWER_COLOURS.get(power, _OTHER_COLOUR)


def fmt(x: float) -> str:
    """A coordinate, short: 12.0 -> "12", 12.345 -> "12.3"."""
    return f"{x:.1f}".rstrip("0").rstrip(".")


def attr(**kw: object) -> str:
    """XML attributes from keywords (``stroke_width`` -> ``stroke-width``); None is left out."""
    parts = []
    for k, v in kw.items():
        if v is None:
            continue
        name = "class" if k == "cls" else k.replace("_", "-")
        if isinstance(v, float):
            v = f"{v:.2f}".rstrip("0").rstrip(".")
        parts.append(f'{name}="{escape(str(v), {chr(34): "&quot;"})}"')
    return " ".join(parts)


def tooltip(text: str) -> str:
    return f"<title>{escape(text)}</title>"


# -- geometry --------------------------------------------------------------------------

def unit_vec(p: Point, q: Point) -> tuple[float, float, float]:
    dx, dy = q[0] - p[0], q[1] - p[1]
    d = math.hypot(dx, dy) or 1.0
    return dx / d, dy / d, d


def trim(p: Point, q: Point, a: float, b: float) -> tuple[Point, Point]:
    """The segment p-q with ``a`` cut off at p's end and ``b`` at q's end."""
    ux, uy, d = unit_vec(p, q)
    a, b = min(a, d * 0.4), min(b, d * 0.4)
    return (p[0] + ux * a, p[1] + uy * a), (q[0] - ux * b, q[1] - uy * b)


def shift(p: Point, q: Point, by: float) -> tuple[Point, Point]:
    """The segment p-q moved sideways by ``by`` (to the right, walking from p to q)."""
    ux, uy, _ = unit_vec(p, q)
    nx, ny = -uy * by, ux * by
    return (p[0] + nx, p[1] + ny), (q[0] + nx, q[1] + ny)


def along(points: Sequence[Point], t: float) -> tuple[Point, tuple[Point, Point]]:
    """The point at fraction ``t`` of a polyline's length, and the segment it lies on."""
    lengths = [math.dist(a, b) for a, b in zip(points, points[1:])]
    goal = sum(lengths) * t
    for (a, b), length in zip(zip(points, points[1:]), lengths):
        if goal <= length or length == lengths[-1]:
            s = goal / length if length else 0.0
            s = min(max(s, 0.0), 1.0)
            return (a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s), (a, b)
        goal -= length
    return points[-1], (points[-2], points[-1])


def offset(p: Point, d: tuple[float, float]) -> Point:
    return (p[0] + d[0], p[1] + d[1])


# -- the drawing -----------------------------------------------------------------------

@dataclass
class Drawing:
    """An SVG picture under construction: elements go into named layers, drawn in order."""

    game_map: Map
    places: dict[str, Point]
    layers: dict[str, list[str]] = field(default_factory=lambda: {
        name: [] for name in ("edges", "nodes", "orders", "units", "marks", "badges", "legend")})

    def add(self, layer: str, element: str) -> None:
        self.layers[layer].append(element)

    def svg(self, title: str) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
                f'width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
                f'font-family="{FONT}">')
        body = [head, tooltip(title),
                f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#fbfaf6"/>']
        for name, elements in self.layers.items():
            body.append(f'<g id="{name}">')
            body.extend(elements)
            body.append("</g>")
        body.append("</svg>")
        return "\n".join(body) + "\n"

    # -- places --------------------------------------------------------------------
    def at(self, location: str) -> Point | None:
        """Where a location is drawn (a coast's own node, or its province's)."""
        p = self.places.get(location)
        if p is None:
            p = self.places.get(self.game_map.province_of.get(location, location))
        return p

    def radius(self, location: str) -> float:
        return RC if "/" in location and location in self.places else R

    # -- primitives ----------------------------------------------------------------
    def line(self, layer: str, p: Point, q: Point, **style: object) -> None:
        self.add(layer, f"<line {attr(x1=p[0], y1=p[1], x2=q[0], y2=q[1], **style)}/>")

    def cross(self, layer: str, c: Point, size: float, colour_: str, width: float = 3.0,
              title: str | None = None) -> None:
        s = size
        t = tooltip(title) if title else ""
        path = (f"M{fmt(c[0] - s)},{fmt(c[1] - s)} L{fmt(c[0] + s)},{fmt(c[1] + s)} "
                f"M{fmt(c[0] - s)},{fmt(c[1] + s)} L{fmt(c[0] + s)},{fmt(c[1] - s)}")
        style = attr(d=path, stroke=colour_, stroke_width=width, stroke_linecap="round", fill="none")
        self.add(layer, f"<g>{t}<path {style}/></g>")

    def arrow(self, layer: str, points: Sequence[Point], colour_: str, *, width: float = 3.0,
              dash: str | None = None, opacity: float | None = None, title: str = "",
              cls: str = "order") -> Point:
        """A polyline ending in an arrowhead (drawn as a polygon: no SVG markers, so every
        converter draws it alike).  Returns the tip."""
        *body, last = list(points)
        prev = body[-1]
        ux, uy, _ = unit_vec(prev, last)
        head, half = 13.0, 6.5
        base = (last[0] - ux * head, last[1] - uy * head)
        pts = [*body, base]
        d = "M" + " L".join(f"{fmt(x)},{fmt(y)}" for x, y in pts)
        left = (base[0] - uy * half, base[1] + ux * half)
        right = (base[0] + uy * half, base[1] - ux * half)
        tri = " ".join(f"{fmt(x)},{fmt(y)}" for x, y in (last, left, right))
        self.add(layer, f'<g {attr(cls=cls, opacity=opacity)}>{tooltip(title)}'
                        f'<path {attr(d=d, fill="none", stroke=colour_, stroke_width=width, stroke_dasharray=dash, stroke_linejoin="round")}/>'
                        f'<polygon {attr(points=tri, fill=colour_)}/></g>')
        return last

    def text(self, layer: str, p: Point, s: str, *, size: float = 11, bold: bool = False,
             fill: str = "#1a1a1a", anchor: str = "middle") -> None:
        self.add(layer, f'<text {attr(x=p[0], y=p[1], font_size=size, font_weight="bold" if bold else None, fill=fill, text_anchor=anchor)}>'
                        f"{escape(s)}</text>")


# -- the board ---------------------------------------------------------------------------

def board_edges(m: Map) -> list[tuple[str, str, str]]:
    """(location, location, "army"|"fleet"|"both"): the moves of the board, each pair once.

    Between two provinces an army and a fleet can both cross, one edge ``both``; a fleet
    move from or to a coast of a bicoastal province is its own edge from the coast's node.
    """
    kinds: dict[tuple[str, str], set[str]] = {}
    for src, dsts in m.army_moves.items():
        for dst in dsts:
            kinds.setdefault(tuple(sorted((src, dst))), set()).add("army")  # type: ignore[arg-type]
    for src, dsts in m.fleet_moves.items():
        for dst in dsts:
            kinds.setdefault(tuple(sorted((src, dst))), set()).add("fleet")  # type: ignore[arg-type]
    return sorted((a, b, "both" if len(k) == 2 else next(iter(k))) for (a, b), k in kinds.items())


def draw_board(d: Drawing, position: Position, edges: bool, faint: bool = False) -> None:
    """Edges (fainter under orders), coasts and provinces with their owners."""
    m = d.game_map
    if edges:
        for a, b, kind in board_edges(m):
            pa, pb = d.at(a), d.at(b)
            if pa is None or pb is None:
                continue
            bend = d.places.get(f"{a}-{b}") or d.places.get(f"{b}-{a}")
            style = attr(stroke=EDGE_COLOURS[kind], stroke_width=1.3,
                          stroke_opacity=0.4 if faint else 0.75,
                          fill="none", cls=f"edge {kind}")
            if bend is None:
                p, q = trim(pa, pb, d.radius(a), d.radius(b))
                d.add("edges", f"<path d=\"M{fmt(p[0])},{fmt(p[1])} L{fmt(q[0])},{fmt(q[1])}\" {style}/>")
            else:
                p, _ = trim(pa, bend, d.radius(a), 0)
                _, q = trim(bend, pb, 0, d.radius(b))
                d.add("edges", f"<path d=\"M{fmt(p[0])},{fmt(p[1])} L{fmt(bend[0])},{fmt(bend[1])} "
                               f"L{fmt(q[0])},{fmt(q[1])}\" {style}/>")
    owner = position.owner
    for prov in sorted(m.provinces):
        info = m.provinces[prov]
        c = d.places[prov]
        fill = TERRAIN_COLOURS[info.terrain]
        for loc in m.fleet_locations.get(prov, ()):
            if "/" not in loc:
                continue
            cc = d.places[loc]
            p, q = trim(c, cc, R, RC)
            d.line("nodes", p, q, stroke="#6b5a3a", stroke_width=1.3, stroke_dasharray="3,2")
            d.add("nodes", f'<g class="coast" id="loc-{loc.replace("/", "-")}">'
                           f"{tooltip(f'{info.name} ({loc})')}"
                           f'<circle {attr(cx=cc[0], cy=cc[1], r=RC, fill=fill, stroke="#6b5a3a", stroke_width=1, stroke_dasharray="2,1.5")}/>'
                           f'<text {attr(x=cc[0], y=cc[1] + 3, font_size=7.5, text_anchor="middle", fill="#3d3320")}>'
                           f"{loc.split('/')[1].lower()}</text></g>")
        what = [f"{info.name} ({prov})", info.terrain]
        if info.center:
            who = owner.get(prov)
            what.append(f"supply center, owned by {who}" if who else "supply center, unowned")
            ring = attr(stroke=colour(who), stroke_width=4.5) if who else attr(stroke="#222222", stroke_width=1.6)
        else:
            ring = attr(stroke="#7d7d7d", stroke_width=0.8)
        dash = ' stroke-dasharray="4,2"' if info.coasts and not (info.center and owner.get(prov)) else ""
        cls = f"province {info.terrain}" + (" center" if info.center else "")
        d.add("nodes", f'<g class="{cls}" id="prov-{prov}">{tooltip(": ".join([what[0], ", ".join(what[1:])]))}'
                       f'<circle {attr(cx=c[0], cy=c[1], r=R, fill=fill)} {ring}{dash}/>'
                       f'<text {attr(x=c[0], y=c[1] + 4, font_size=11, text_anchor="middle", font_weight="bold" if info.center else None, fill="#1a1a1a")}>'
                       f"{prov}</text></g>")


def marker_at(d: Drawing, location: str, dislodged: bool = False) -> Point | None:
    p = d.at(location)
    if p is None:
        return None
    off = DISLODGED_OFFSET if dislodged else UNIT_OFFSET
    if "/" in location and location in d.places:
        off = (off[0] * 0.75, off[1] * 0.75)
    return offset(p, off)


def unit_shape(kind: str, c: Point, fill: str, stroke: str, *, width: float = 1.2,
                dash: str | None = None) -> str:
    x, y = c
    if kind == "F":
        s = RU
        d = (f"M{fmt(x - s - 1)},{fmt(y - s * 0.45)} L{fmt(x + s + 1)},{fmt(y - s * 0.45)} "
             f"L{fmt(x + s * 0.6)},{fmt(y + s * 0.75)} L{fmt(x - s * 0.6)},{fmt(y + s * 0.75)} Z")
        return f'<path {attr(d=d, fill=fill, stroke=stroke, stroke_width=width, stroke_dasharray=dash, stroke_linejoin="round")}/>'
    return f'<circle {attr(cx=x, cy=y, r=RU, fill=fill, stroke=stroke, stroke_width=width, stroke_dasharray=dash)}/>'


def draw_unit(d: Drawing, u: Unit, *, dislodged: bool = False, note: str = "",
               cls: str = "unit") -> Point | None:
    c = marker_at(d, u.location, dislodged)
    if c is None:
        return None
    ink = _INK_ON.get(u.power, "#ffffff")
    label = f"{u.power}: {u}" + (" (dislodged)" if dislodged else "") + (f" {note}" if note else "")
    ty = c[1] + (2.5 if u.kind == "F" else 3.8)
    extra = ""
    if dislodged:
        extra = f'<circle {attr(cx=c[0], cy=c[1], r=RU + 4, fill="none", stroke=FAIL_COLOUR, stroke_width=2.5)}/>'
    d.add("units", f'<g class="{cls} {u.power} {"army" if u.kind == "A" else "fleet"}{" dislodged" if dislodged else ""}">'
                   f"{tooltip(label)}{extra}{unit_shape(u.kind, c, colour(u.power), '#1e1e1e')}"
                   f'<text {attr(x=c[0], y=ty, font_size=10.5, font_weight="bold", text_anchor="middle", fill=ink)}>{u.kind}</text></g>')
    return c


def draw_units(d: Drawing, position: Position, doomed: Mapping[Unit, str] | None = None) -> None:
    """The units; ``doomed`` marks units an outcome dislodges (-> "dislodged") or
    destroys (-> "destroyed")."""
    doomed = doomed or {}
    for u in position.units:
        c = draw_unit(d, u, note=f"({doomed[u]})" if u in doomed else "")
        if c is not None and u in doomed:
            d.add("marks", f'<circle {attr(cx=c[0], cy=c[1], r=RU + 4, fill="none", stroke=FAIL_COLOUR, stroke_width=2.5)}/>')
            if doomed[u] == "destroyed":
                d.cross("marks", c, 8, FAIL_COLOUR, 3.0, f"{u.power}: {u} destroyed")
    for dis in position.dislodged:
        c = draw_unit(d, dis.unit, dislodged=True,
                       note=f"retreats: {' '.join(dis.retreats) or 'none'}")
        if c is not None and dis.unit in doomed:
            d.cross("marks", c, 8, FAIL_COLOUR, 3.0, f"{dis.unit.power}: {dis.unit} {doomed[dis.unit]}")
