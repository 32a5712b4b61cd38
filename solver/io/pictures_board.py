"""The board as a picture: its look, the map's shapes, the geometry, the provinces and the units.

The layer every picture of `dipsolve.io.pictures` is drawn on: the colours and sizes
(`POWER_COLOURS`, `TERRAIN_COLOURS`, `RU`, ...), the map as a player knows it
(`shapes`, from ``data/map_shapes.tsv``: every province a shape on Natural Earth's
coastlines, made by ``data/build_map_shapes.py``), where a unit in each location is
drawn (`coords`), small helpers of plane geometry and SVG text, a `Drawing` with named
layers, its primitives (lines, arrows, crosses, text) and a register of the text on the
map so that no two labels overlap, and the board itself: the provinces coloured by the
owner of their supply center (`draw_board`) and the units (`draw_units`).  Orders,
results and legends are drawn on top of it by `dipsolve.io.pictures_svg`.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Mapping, Sequence
from xml.sax.saxutils import escape

from ..core.map import Map
from ..core.position import Position, Unit
from .pictures_schematic import schematic

# -- look ------------------------------------------------------------------------------

# Every two colours a player must tell apart (the seven powers' colours, the provinces
# they own, unowned land, impassable land, the seas) are at least 20 apart in CIE76 ΔE
# (tests/test_pictures_colours.py); chosen in L*a*b* and written here in sRGB.
#: province fills: land and coast cream, sea a clear blue, impassable land brown-grey
TERRAIN_COLOURS = {"land": "#f5e4bd", "coast": "#f5e4bd", "sea": "#85b2de", "neutral": "#958779"}
WATER = "#c7daea"                             # water that is no sea of the board, paler
BORDER = "#6f6552"
#: the usual colours of the seven powers (Russia purple rather than white, to be seen)
POWER_COLOURS = {"Austria": "#d0312d", "England": "#27399a", "France": "#0086c7",
                 "Germany": "#3c3c3c", "Italy": "#2e8b3e", "Russia": "#8e5bb5",
                 "Turkey": "#e3b505"}
#: the fill of a province a power owns: its hue, light enough to read a name on (France
#: turquoise, to be told from the sea; England violet-blue, from the sea and Russia)
OWNED_COLOURS = {"Austria": "#f09995", "England": "#8185ce", "France": "#9be4e5",
                 "Germany": "#c4c4c4", "Italy": "#99d296", "Russia": "#e2c5ef",
                 "Turkey": "#f9db74"}
_INK_ON = {"Turkey": "#222222"}               # letter colour on a light power colour
_OTHER_COLOUR = "#999999"                     # a power not among the seven
EDGE_COLOURS = {"both": "#8d8d8d", "army": "#a5773c", "fleet": "#4f86c0"}
FAIL_COLOUR = "#d01c1c"
FAINT = 0.45                                  # opacity of an order that failed
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

WIDTH, HEIGHT = 1260, 900        # the whole picture; the map takes x < MAP_WIDTH
MAP_WIDTH = 1010
R = 12                           # how far from a unit's place an order's line stops
RC = 12                          # the same at a coast
RU = 9                           # radius of a unit's marker
UNIT_OFFSET = (0.0, 0.0)         # a unit's marker, from its location's place
DISLODGED_OFFSET = (14.0, 13.0)  # a dislodged unit's marker, where the map gives no place
LABEL_SIZE = 9.5                 # a province's name
CENTER_R = 3.6                   # a supply center's mark

Point = tuple[float, float]
Box = tuple[float, float, float, float]       # x0, y0, x1, y1


@dataclass(frozen=True)
class Shape:
    """One row of ``map_shapes.tsv``: a province, impassable land, or a coast's stretch."""

    id: str
    kind: str                # land, coast, sea, neutral, coast-line
    place: Point             # where a unit is drawn
    label: Point             # where the name is written
    path: str                # SVG path data
    dislodged: Point         # where a unit dislodged there is drawn


@dataclass(frozen=True)
class MapShapes:
    provinces: dict[str, Shape]
    neutral: tuple[Shape, ...]
    coasts: dict[str, Shape]
    #: a schematic board's disc radius (`dipsolve.io.pictures_schematic`); 0 for drawn shapes
    disc: float = 0.0


@cache
def shapes() -> MapShapes:
    """The standard board's shapes (``data/map_shapes.tsv``)."""
    path = resources.files("dipsolve") / "data" / "map_shapes.tsv"
    provinces: dict[str, Shape] = {}
    neutral: list[Shape] = []
    coasts: dict[str, Shape] = {}
    with path.open(encoding="utf-8") as fh:
        rows = csv.DictReader((line for line in fh if not line.startswith("#")), delimiter="\t")
        for row in rows:
            shape = Shape(row["id"], row["kind"], (float(row["x"]), float(row["y"])),
                          (float(row["lx"]), float(row["ly"])), row["path"],
                          (float(row["dx"]), float(row["dy"])))
            if shape.kind == "neutral":
                neutral.append(shape)
            elif shape.kind == "coast-line":
                coasts[shape.id] = shape
            else:
                provinces[shape.id] = shape
    return MapShapes(provinces, tuple(neutral), coasts)


#: the schematic boards drawn so far, by the map's identity (a map is not hashable)
_SCHEMATICS: dict[int, tuple[Map, MapShapes]] = {}


def board_shapes(m: Map) -> MapShapes:
    """The shapes ``m`` is drawn on: the standard board's (`shapes`), or for any other
    map a schematic of discs laid out by its adjacency
    (`dipsolve.io.pictures_schematic.schematic`)."""
    if is_drawn(m):
        return shapes()
    hit = _SCHEMATICS.get(id(m))
    if hit is None or hit[0] is not m:
        if len(_SCHEMATICS) >= 16:
            _SCHEMATICS.clear()
        s = schematic(m, MAP_WIDTH, HEIGHT)
        shapes_ = MapShapes({p: Shape(p, m.provinces[p].terrain, *d) for p, d in s.provinces.items()}, (),
                            {loc: Shape(loc, "coast-line", *a) for loc, a in s.coasts.items()}, disc=s.disc)
        hit = _SCHEMATICS[id(m)] = (m, shapes_)
        variant_colours(m)
    return hit[1]


def is_drawn(m: Map) -> bool:
    """Whether ``m`` has drawn shapes (the standard board) rather than a schematic."""
    return m.name == "standard"


def shows_edges(m: Map, edges: bool) -> bool:
    """Whether a picture of ``m`` draws the board's moves: when asked (``edges``), and
    always on a schematic, where they are the only way to see which provinces touch."""
    return edges or not is_drawn(m)


def coords(m: Map) -> dict[str, Point]:
    """Location (``"PAR"``, ``"STP/NC"``) -> where a unit there is drawn, on ``m``."""
    s = board_shapes(m)
    out = {p: sh.place for p, sh in s.provinces.items()}
    out.update({c: sh.place for c, sh in s.coasts.items()})
    return out


#: the colours of a variant's powers that are not the seven (`variant_colours`): power ->
#: (its colour, its provinces' fill)
_VARIANT_COLOURS: dict[str, tuple[str, str]] = {}


def variant_colours(m: Map) -> None:
    """Give the powers of ``m`` that are not the standard seven the seven's colours, in
    ``m``'s order of play, skipping those its own standard powers use (a power keeps the
    colour it was first given)."""
    taken = {POWER_COLOURS[p] for p in m.powers if p in POWER_COLOURS}
    free = [(c, OWNED_COLOURS[p]) for p, c in POWER_COLOURS.items() if c not in taken]
    for p in m.powers:
        if p not in POWER_COLOURS and p not in _VARIANT_COLOURS and free:
            _VARIANT_COLOURS[p] = free.pop(0)


def colour(power: str) -> str:
    if power in POWER_COLOURS:
        return POWER_COLOURS[power]
    return _VARIANT_COLOURS[power][0] if power in _VARIANT_COLOURS else _OTHER_COLOUR


def tint(power: str) -> str:
    """The fill of a province ``power`` owns (`OWNED_COLOURS`; another power's colour
    mixed with white)."""
    if power in OWNED_COLOURS:
        return OWNED_COLOURS[power]
    if power in _VARIANT_COLOURS:
        return _VARIANT_COLOURS[power][1]
    c = colour(power).lstrip("#")
    return "#" + "".join(f"{round(255 - (255 - int(c[i:i + 2], 16)) * 0.42):02x}" for i in (0, 2, 4))


def text_box(p: Point, s: str, size: float, anchor: str = "middle") -> Box:
    """The box a line of text takes (DejaVu Sans: about 0.62 em a character, caps 0.73 em
    high, the baseline at ``p``)."""
    w = 0.62 * size * len(s)
    x0 = {"middle": p[0] - w / 2, "start": p[0], "end": p[0] - w}[anchor]
    return (x0, p[1] - 0.76 * size, x0 + w, p[1] + 0.2 * size)


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


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
    """An SVG picture under construction: elements go into named layers, drawn in order.

    Text on the map goes through `text`, which keeps the box of every line written
    (`boxes`); `free_spot` finds a place for a new label clear of them all."""

    game_map: Map
    places: dict[str, Point]
    layers: dict[str, list[str]] = field(default_factory=lambda: {
        name: [] for name in ("map", "labels", "edges", "orders", "units", "marks", "badges",
                              "legend")})
    boxes: list[Box] = field(default_factory=list)
    #: the map's shapes by reference (``<use href="#map-PAR">``) to the ``<defs>`` of a
    #: page that holds many pictures (`dipsolve.io.pictures_html.map_defs`)
    refs: bool = False

    def shape(self, sh: Shape, **style: object) -> str:
        """A province or impassable land: its path, or a reference to it."""
        if self.refs:
            return f'<use href="#map-{sh.id.replace(" ", "_")}" {attr(**style)}/>'
        return f'<path {attr(d=sh.path, **style)}/>'

    def add(self, layer: str, element: str) -> None:
        self.layers[layer].append(element)

    def svg(self, title: str) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
                f'width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
                f'font-family="{FONT}">')
        body = [head, tooltip(title),
                f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#fbfaf6"/>',
                f'<rect x="0" y="0" width="{MAP_WIDTH}" height="{HEIGHT}" fill="{WATER}"/>']
        for name, elements in self.layers.items():
            body.append(f'<g id="{name}">')
            body.extend(elements)
            body.append("</g>")
        body.append("</svg>")
        return "\n".join(body) + "\n"

    # -- places --------------------------------------------------------------------
    def at(self, location: str) -> Point | None:
        """Where a unit in a location is drawn (a coast's own place, or its province's)."""
        p = self.places.get(location)
        if p is None:
            p = self.places.get(self.game_map.province_of.get(location, location))
        return p

    def radius(self, location: str) -> float:
        return RC if "/" in location and location in self.places else R

    # -- text ------------------------------------------------------------------------
    def reserve(self, box: Box) -> None:
        """Keep ``box`` clear of labels placed later (a unit's marker, say)."""
        self.boxes.append(box)

    def free_spot(self, p: Point, w: float, h: float, reach: float = 40.0) -> Point:
        """The centre nearest ``p`` of a w x h box that meets no box kept so far."""
        for r in range(0, int(reach) + 1, 3):
            steps = max(1, int(2 * math.pi * r / 4))
            for i in range(steps):
                a = 2 * math.pi * i / steps
                c = (p[0] + r * math.cos(a), p[1] + r * math.sin(a))
                box = (c[0] - w / 2, c[1] - h / 2, c[0] + w / 2, c[1] + h / 2)
                if box[0] >= 0 and box[2] <= MAP_WIDTH and box[1] >= 0 and box[3] <= HEIGHT \
                        and not any(overlap(box, b) for b in self.boxes):
                    return c
        return p

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
              cls: str = "order", head: float = 13.0) -> Point:
        """A polyline ending in an arrowhead (drawn as a polygon: no SVG markers, so every
        converter draws it alike), with a white casing so that it reads on any colour.
        Returns the tip."""
        *body, last = list(points)
        prev = body[-1]
        ux, uy, _ = unit_vec(prev, last)
        half = head / 2
        base = (last[0] - ux * head, last[1] - uy * head)
        pts = [*body, base]
        d = "M" + " L".join(f"{fmt(x)},{fmt(y)}" for x, y in pts)
        left = (base[0] - uy * half, base[1] + ux * half)
        right = (base[0] + uy * half, base[1] - ux * half)
        tri = " ".join(f"{fmt(x)},{fmt(y)}" for x, y in (last, left, right))
        casing = "" if dash else f'<path {attr(d=d, fill="none", stroke="#ffffff", stroke_width=width + 2.2, stroke_opacity=0.7, stroke_linejoin="round")}/>'
        self.add(layer, f'<g {attr(cls=cls, opacity=opacity)}>{tooltip(title)}{casing}'
                        f'<path {attr(d=d, fill="none", stroke=colour_, stroke_width=width, stroke_dasharray=dash, stroke_linejoin="round")}/>'
                        f'<polygon {attr(points=tri, fill=colour_, stroke="#ffffff", stroke_width=0.8)}/></g>')
        return last

    def text(self, layer: str, p: Point, s: str, *, size: float = 11, bold: bool = False,
             fill: str = "#1a1a1a", anchor: str = "middle", keep: bool = True) -> None:
        """A line of text; on the map (``keep``) its box is kept for `free_spot`."""
        if keep and layer != "legend":
            self.boxes.append(text_box(p, s, size, anchor))
        self.add(layer, f'<text {attr(x=p[0], y=p[1], font_size=size, font_weight="bold" if bold else None, fill=fill, text_anchor=anchor)}>'
                        f"{escape(s)}</text>")


# -- the board ---------------------------------------------------------------------------

def board_edges(m: Map) -> list[tuple[str, str, str]]:
    """(location, location, "army"|"fleet"|"both"): the moves of the board, each pair once.

    Between two provinces an army and a fleet can both cross, one edge ``both``; a fleet
    move from or to a coast of a bicoastal province is its own edge from the coast's place.
    """
    kinds: dict[tuple[str, str], set[str]] = {}
    for src, dsts in m.army_moves.items():
        for dst in dsts:
            kinds.setdefault(tuple(sorted((src, dst))), set()).add("army")  # type: ignore[arg-type]
    for src, dsts in m.fleet_moves.items():
        for dst in dsts:
            kinds.setdefault(tuple(sorted((src, dst))), set()).add("fleet")  # type: ignore[arg-type]
    return sorted((a, b, "both" if len(k) == 2 else next(iter(k))) for (a, b), k in kinds.items())


def center_mark(label: Point) -> Point:
    """Where a supply center's mark goes: just left of the province's name."""
    return (label[0] - 18.0, label[1] - 3.2)


def draw_board(d: Drawing, position: Position, edges: bool, faint: bool = False) -> None:
    """The map: impassable land, the provinces (a supply center's in its owner's colour,
    marked with a ringed dot), the coasts of the split provinces, the names; with
    ``edges`` (always on a schematic board), the moves of the board as thin lines over it."""
    m = d.game_map
    s = board_shapes(m)
    edges = shows_edges(m, edges)
    for land in s.neutral:
        d.add("map", f'<g>{tooltip(f"{land.id} (impassable)")}'
                     f'{d.shape(land, fill=TERRAIN_COLOURS["neutral"], stroke=BORDER, stroke_width=0.5, fill_rule="evenodd")}</g>')
    owner = position.owner
    for prov in sorted(m.provinces):
        info = m.provinces[prov]
        sh = s.provinces.get(prov)
        if sh is None:
            continue
        what = [f"{info.name} ({prov})", info.terrain]
        who = owner.get(prov) if info.center else None
        if info.center:
            what.append(f"supply center, owned by {who}" if who else "supply center, unowned")
        fill = tint(who) if who else TERRAIN_COLOURS[info.terrain]
        cls = f"province {info.terrain}" + (" center" if info.center else "") + (f" owner-{who}" if who else "")
        d.add("map", f'<g class="{cls}" id="prov-{prov}">{tooltip(": ".join([what[0], ", ".join(what[1:])]))}'
                     f'{d.shape(sh, fill=fill, stroke=BORDER, stroke_width=0.8 if info.terrain != "sea" else 0.6, fill_rule="evenodd", stroke_linejoin="round")}</g>')
    for loc, sh in sorted(s.coasts.items()):
        name = m.provinces[m.province_of.get(loc, loc.split("/")[0])].name
        d.add("map", f'<g class="coast" id="loc-{loc.replace("/", "-")}">{tooltip(f"{name} ({loc})")}'
                     f'<path {attr(d=sh.path, fill="none", stroke="#2f5f8a", stroke_width=2.2, stroke_dasharray="5,3", stroke_linecap="round")}/></g>')
    for prov in sorted(m.provinces):
        info = m.provinces[prov]
        sh = s.provinces.get(prov)
        if sh is None:
            continue
        ink = "#2b4d6e" if info.terrain == "sea" else "#3a3325"
        d.text("labels", (sh.label[0], sh.label[1] + 0.36 * LABEL_SIZE), prov, size=LABEL_SIZE,
               bold=info.center, fill=ink)
        if info.center:
            c = center_mark(sh.label)
            who = owner.get(prov)
            d.add("labels", f'<circle {attr(cx=c[0], cy=c[1], r=CENTER_R, fill=colour(who) if who else "#ffffff", stroke="#222222", stroke_width=1.2, cls="center-mark")}/>')
            d.reserve((c[0] - CENTER_R, c[1] - CENTER_R, c[0] + CENTER_R, c[1] + CENTER_R))
    if edges:
        for a, b, kind in board_edges(m):
            pa, pb = d.at(a), d.at(b)
            if pa is None or pb is None:
                continue
            p, q = trim(pa, pb, *(s.disc * (0.4 if "/" in x else 1.0) or 4 for x in (a, b)))
            style = attr(stroke=EDGE_COLOURS[kind], stroke_width=1.0,
                         stroke_opacity=0.35 if faint else 0.6, cls=f"edge {kind}")
            d.add("edges", f'<path d="M{fmt(p[0])},{fmt(p[1])} L{fmt(q[0])},{fmt(q[1])}" {style}/>')


def dislodged_places(m: Map) -> dict[str, Point]:
    """Location -> where a unit dislodged there is drawn: beside the unit that took its
    place, inside the province."""
    s = board_shapes(m)
    return {loc: sh.dislodged for loc, sh in [*s.provinces.items(), *s.coasts.items()]}


def marker_at(d: Drawing, location: str, dislodged: bool = False) -> Point | None:
    p = d.at(location)
    if p is None:
        return None
    if dislodged:
        places = dislodged_places(d.game_map)
        q = places.get(location) or places.get(d.game_map.province_of.get(location, location))
        return q if q is not None else offset(p, DISLODGED_OFFSET)
    return offset(p, UNIT_OFFSET)


def unit_shape(kind: str, c: Point, fill: str, stroke: str, *, width: float = 1.2,
               dash: str | None = None) -> str:
    x, y = c
    if kind == "F":
        s = RU + 1
        d = (f"M{fmt(x - s - 1)},{fmt(y - s * 0.45)} L{fmt(x + s + 1)},{fmt(y - s * 0.45)} "
             f"L{fmt(x + s * 0.6)},{fmt(y + s * 0.75)} L{fmt(x - s * 0.6)},{fmt(y + s * 0.75)} Z")
        return f'<path {attr(d=d, fill=fill, stroke=stroke, stroke_width=width, stroke_dasharray=dash, stroke_linejoin="round")}/>'
    return f'<circle {attr(cx=x, cy=y, r=RU, fill=fill, stroke=stroke, stroke_width=width, stroke_dasharray=dash)}/>'


def draw_unit(d: Drawing, u: Unit, *, dislodged: bool = False, note: str = "",
              cls: str = "unit", at: Point | None = None) -> Point | None:
    c = at or marker_at(d, u.location, dislodged)
    if c is None:
        return None
    ink = _INK_ON.get(u.power, "#ffffff")
    label = f"{u.power}: {u}" + (" (dislodged)" if dislodged else "") + (f" {note}" if note else "")
    ty = c[1] + (2.5 if u.kind == "F" else 3.6)
    extra = ""
    if dislodged:
        extra = f'<circle {attr(cx=c[0], cy=c[1], r=RU + 3.5, fill="#ffffff", fill_opacity=0.6, stroke=FAIL_COLOUR, stroke_width=2.5)}/>'
    d.add("units", f'<g class="{cls} {u.power} {"army" if u.kind == "A" else "fleet"}{" dislodged" if dislodged else ""}">'
                   f"{tooltip(label)}{extra}{unit_shape(u.kind, c, colour(u.power), '#1e1e1e')}"
                   f'<text {attr(x=c[0], y=ty, font_size=10, font_weight="bold", text_anchor="middle", fill=ink)}>{u.kind}</text></g>')
    d.reserve(text_box((c[0], ty), u.kind, 10))
    return c


def draw_units(d: Drawing, position: Position, doomed: Mapping[Unit, str] | None = None) -> None:
    """The units; ``doomed`` marks units an outcome dislodges (-> "dislodged") or
    destroys (-> "destroyed")."""
    doomed = doomed or {}
    for u in position.units:
        c = draw_unit(d, u, note=f"({doomed[u]})" if u in doomed else "")
        if c is not None and u in doomed:
            d.add("marks", f'<circle {attr(cx=c[0], cy=c[1], r=RU + 3.5, fill="none", stroke=FAIL_COLOUR, stroke_width=2.5, cls="doomed")}/>')
            if doomed[u] != "dislodged":
                d.cross("marks", c, 8, FAIL_COLOUR, 3.0, f"{u.power}: {u} {doomed[u]}")
    for dis in position.dislodged:
        c = draw_unit(d, dis.unit, dislodged=True,
                      note=f"retreats: {' '.join(dis.retreats) or 'none'}")
        if c is not None and dis.unit in doomed:
            d.cross("marks", c, 8, FAIL_COLOUR, 3.0, f"{dis.unit.power}: {dis.unit} {doomed[dis.unit]}")
