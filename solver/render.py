"""Pictures of the board: positions, orders, results and plans, as SVG (and PNG).

The board is drawn as the gameboard graph of the Stormont & Allan seed (figure 2): one
node per province at a fixed place (``data/coords.tsv``, laid out by hand for dipsolve),
land green, coast tan, sea blue, supply centers in bold, the moves an army or a fleet can
make as edges, and the two coasts of Bulgaria, Spain and St Petersburg as small nodes of
their own joined to their province by a dashed line (fleet edges start at the coast).
On top of it:

- supply-center owners: a thick ring in the owner's colour around the center's node;
- units: a disc (army) or a hull (fleet) in the power's colour, lettered A or F, at the
  top right of their node; a dislodged unit at the bottom right, ringed in red;
- orders: moves as arrows, supports as dashed lines (to the supported unit, or to the
  province a supported move goes to), convoys as a dotted ring round the fleet with the
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
"""

from __future__ import annotations

import csv
import math
import os
from collections import deque
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Iterable, Mapping, Sequence, Union
from xml.sax.saxutils import escape

from .adjudicator import Outcome, OrderResult, Reason, adjudicate
from .errors import DipsolveRuleError, DipsolveSyntaxError, DipsolveUnavailable
from .files import write_atomic
from .map import POWERS, Map
from .orders import (Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold,
                     SupportMove, Waive)
from .position import SEASONS, Phase, Position, Unit

__all__ = ["RenderError", "PlanError", "coords", "position_svg", "outcome_svg", "plan_svg",
           "replay_plan", "svg_for", "svg_to_png", "render_to", "picture_bytes", "write_atomic",
           "POWER_COLOURS", "TERRAIN_COLOURS", "FORMATS"]


class RenderError(DipsolveSyntaxError):
    """A picture that cannot be made as asked: an unknown output format, a bad scale."""


class RenderUnavailable(RenderError, DipsolveUnavailable):
    """A picture format that needs a part that is not installed (no PNG converter)."""

    kind = "unavailable"


class PlanError(DipsolveRuleError):
    """A plan that does not fit the board it is replayed on (a phase already past)."""


# -- look ------------------------------------------------------------------------------

#: node fills, as in the seed's figure 2 (land green, coast tan, sea blue)
TERRAIN_COLOURS = {"land": "#bddca5", "coast": "#ecd8a8", "sea": "#a8cbe8"}
#: the usual colours of the seven powers (Russia purple rather than white, to be seen)
POWER_COLOURS = {"Austria": "#d0312d", "England": "#27399a", "France": "#2b9fd9",
                 "Germany": "#555555", "Italy": "#2e8b3e", "Russia": "#8e5bb5",
                 "Turkey": "#e3b505"}
_INK_ON = {"Turkey": "#222222"}               # letter colour on a light power colour
_OTHER_COLOUR = "#999999"                     # a power not among the seven
_EDGE_COLOURS = {"both": "#8d8d8d", "army": "#a5773c", "fleet": "#4f86c0"}
_FAIL = "#d01c1c"
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


def _f(x: float) -> str:
    """A coordinate, short: 12.0 -> "12", 12.345 -> "12.3"."""
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _attr(**kw: object) -> str:
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


def _title(text: str) -> str:
    return f"<title>{escape(text)}</title>"


# -- geometry --------------------------------------------------------------------------

def _unit_vec(p: Point, q: Point) -> tuple[float, float, float]:
    dx, dy = q[0] - p[0], q[1] - p[1]
    d = math.hypot(dx, dy) or 1.0
    return dx / d, dy / d, d


def _trim(p: Point, q: Point, a: float, b: float) -> tuple[Point, Point]:
    """The segment p-q with ``a`` cut off at p's end and ``b`` at q's end."""
    ux, uy, d = _unit_vec(p, q)
    a, b = min(a, d * 0.4), min(b, d * 0.4)
    return (p[0] + ux * a, p[1] + uy * a), (q[0] - ux * b, q[1] - uy * b)


def _shift(p: Point, q: Point, by: float) -> tuple[Point, Point]:
    """The segment p-q moved sideways by ``by`` (to the right, walking from p to q)."""
    ux, uy, _ = _unit_vec(p, q)
    nx, ny = -uy * by, ux * by
    return (p[0] + nx, p[1] + ny), (q[0] + nx, q[1] + ny)


def _along(points: Sequence[Point], t: float) -> tuple[Point, Point]:
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


def _add(p: Point, d: tuple[float, float]) -> Point:
    return (p[0] + d[0], p[1] + d[1])


# -- the drawing -----------------------------------------------------------------------

@dataclass
class _Drawing:
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
        body = [head, _title(title),
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
        self.add(layer, f"<line {_attr(x1=p[0], y1=p[1], x2=q[0], y2=q[1], **style)}/>")

    def cross(self, layer: str, c: Point, size: float, colour_: str, width: float = 3.0,
              title: str | None = None) -> None:
        s = size
        t = _title(title) if title else ""
        path = (f"M{_f(c[0] - s)},{_f(c[1] - s)} L{_f(c[0] + s)},{_f(c[1] + s)} "
                f"M{_f(c[0] - s)},{_f(c[1] + s)} L{_f(c[0] + s)},{_f(c[1] - s)}")
        style = _attr(d=path, stroke=colour_, stroke_width=width, stroke_linecap="round", fill="none")
        self.add(layer, f"<g>{t}<path {style}/></g>")

    def arrow(self, layer: str, points: Sequence[Point], colour_: str, *, width: float = 3.0,
              dash: str | None = None, opacity: float | None = None, title: str = "",
              cls: str = "order") -> Point:
        """A polyline ending in an arrowhead (drawn as a polygon: no SVG markers, so every
        converter draws it alike).  Returns the tip."""
        *body, last = list(points)
        prev = body[-1]
        ux, uy, _ = _unit_vec(prev, last)
        head, half = 13.0, 6.5
        base = (last[0] - ux * head, last[1] - uy * head)
        pts = [*body, base]
        d = "M" + " L".join(f"{_f(x)},{_f(y)}" for x, y in pts)
        left = (base[0] - uy * half, base[1] + ux * half)
        right = (base[0] + uy * half, base[1] - ux * half)
        tri = " ".join(f"{_f(x)},{_f(y)}" for x, y in (last, left, right))
        self.add(layer, f'<g {_attr(cls=cls, opacity=opacity)}>{_title(title)}'
                        f'<path {_attr(d=d, fill="none", stroke=colour_, stroke_width=width, stroke_dasharray=dash, stroke_linejoin="round")}/>'
                        f'<polygon {_attr(points=tri, fill=colour_)}/></g>')
        return last

    def text(self, layer: str, p: Point, s: str, *, size: float = 11, bold: bool = False,
             fill: str = "#1a1a1a", anchor: str = "middle") -> None:
        self.add(layer, f'<text {_attr(x=p[0], y=p[1], font_size=size, font_weight="bold" if bold else None, fill=fill, text_anchor=anchor)}>'
                        f"{escape(s)}</text>")


# -- the board ---------------------------------------------------------------------------

def _edges(m: Map) -> list[tuple[str, str, str]]:
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


def _draw_board(d: _Drawing, position: Position, edges: bool, faint: bool = False) -> None:
    """Edges (fainter under orders), coasts and provinces with their owners."""
    m = d.game_map
    if edges:
        for a, b, kind in _edges(m):
            pa, pb = d.at(a), d.at(b)
            if pa is None or pb is None:
                continue
            bend = d.places.get(f"{a}-{b}") or d.places.get(f"{b}-{a}")
            style = _attr(stroke=_EDGE_COLOURS[kind], stroke_width=1.3,
                          stroke_opacity=0.4 if faint else 0.75,
                          fill="none", cls=f"edge {kind}")
            if bend is None:
                p, q = _trim(pa, pb, d.radius(a), d.radius(b))
                d.add("edges", f"<path d=\"M{_f(p[0])},{_f(p[1])} L{_f(q[0])},{_f(q[1])}\" {style}/>")
            else:
                p, _ = _trim(pa, bend, d.radius(a), 0)
                _, q = _trim(bend, pb, 0, d.radius(b))
                d.add("edges", f"<path d=\"M{_f(p[0])},{_f(p[1])} L{_f(bend[0])},{_f(bend[1])} "
                               f"L{_f(q[0])},{_f(q[1])}\" {style}/>")
    owner = position.owner
    for prov in sorted(m.provinces):
        info = m.provinces[prov]
        c = d.places[prov]
        fill = TERRAIN_COLOURS[info.terrain]
        for loc in m.fleet_locations.get(prov, ()):
            if "/" not in loc:
                continue
            cc = d.places[loc]
            p, q = _trim(c, cc, R, RC)
            d.line("nodes", p, q, stroke="#6b5a3a", stroke_width=1.3, stroke_dasharray="3,2")
            d.add("nodes", f'<g class="coast" id="loc-{loc.replace("/", "-")}">'
                           f"{_title(f'{info.name} ({loc})')}"
                           f'<circle {_attr(cx=cc[0], cy=cc[1], r=RC, fill=fill, stroke="#6b5a3a", stroke_width=1, stroke_dasharray="2,1.5")}/>'
                           f'<text {_attr(x=cc[0], y=cc[1] + 3, font_size=7.5, text_anchor="middle", fill="#3d3320")}>'
                           f"{loc.split('/')[1].lower()}</text></g>")
        what = [f"{info.name} ({prov})", info.terrain]
        if info.center:
            who = owner.get(prov)
            what.append(f"supply center, owned by {who}" if who else "supply center, unowned")
            ring = _attr(stroke=colour(who), stroke_width=4.5) if who else _attr(stroke="#222222", stroke_width=1.6)
        else:
            ring = _attr(stroke="#7d7d7d", stroke_width=0.8)
        dash = ' stroke-dasharray="4,2"' if info.coasts and not (info.center and owner.get(prov)) else ""
        cls = f"province {info.terrain}" + (" center" if info.center else "")
        d.add("nodes", f'<g class="{cls}" id="prov-{prov}">{_title(": ".join([what[0], ", ".join(what[1:])]))}'
                       f'<circle {_attr(cx=c[0], cy=c[1], r=R, fill=fill)} {ring}{dash}/>'
                       f'<text {_attr(x=c[0], y=c[1] + 4, font_size=11, text_anchor="middle", font_weight="bold" if info.center else None, fill="#1a1a1a")}>'
                       f"{prov}</text></g>")


def _marker_at(d: _Drawing, location: str, dislodged: bool = False) -> Point | None:
    p = d.at(location)
    if p is None:
        return None
    off = DISLODGED_OFFSET if dislodged else UNIT_OFFSET
    if "/" in location and location in d.places:
        off = (off[0] * 0.75, off[1] * 0.75)
    return _add(p, off)


def _unit_shape(kind: str, c: Point, fill: str, stroke: str, *, width: float = 1.2,
                dash: str | None = None) -> str:
    x, y = c
    if kind == "F":
        s = RU
        d = (f"M{_f(x - s - 1)},{_f(y - s * 0.45)} L{_f(x + s + 1)},{_f(y - s * 0.45)} "
             f"L{_f(x + s * 0.6)},{_f(y + s * 0.75)} L{_f(x - s * 0.6)},{_f(y + s * 0.75)} Z")
        return f'<path {_attr(d=d, fill=fill, stroke=stroke, stroke_width=width, stroke_dasharray=dash, stroke_linejoin="round")}/>'
    return f'<circle {_attr(cx=x, cy=y, r=RU, fill=fill, stroke=stroke, stroke_width=width, stroke_dasharray=dash)}/>'


def _draw_unit(d: _Drawing, u: Unit, *, dislodged: bool = False, note: str = "",
               cls: str = "unit") -> Point | None:
    c = _marker_at(d, u.location, dislodged)
    if c is None:
        return None
    ink = _INK_ON.get(u.power, "#ffffff")
    label = f"{u.power}: {u}" + (" (dislodged)" if dislodged else "") + (f" {note}" if note else "")
    ty = c[1] + (2.5 if u.kind == "F" else 3.8)
    extra = ""
    if dislodged:
        extra = f'<circle {_attr(cx=c[0], cy=c[1], r=RU + 4, fill="none", stroke=_FAIL, stroke_width=2.5)}/>'
    d.add("units", f'<g class="{cls} {u.power} {"army" if u.kind == "A" else "fleet"}{" dislodged" if dislodged else ""}">'
                   f"{_title(label)}{extra}{_unit_shape(u.kind, c, colour(u.power), '#1e1e1e')}"
                   f'<text {_attr(x=c[0], y=ty, font_size=10.5, font_weight="bold", text_anchor="middle", fill=ink)}>{u.kind}</text></g>')
    return c


def _draw_units(d: _Drawing, position: Position, doomed: Mapping[Unit, str] | None = None) -> None:
    """The units; ``doomed`` marks units an outcome dislodges (-> "dislodged") or
    destroys (-> "destroyed")."""
    doomed = doomed or {}
    for u in position.units:
        c = _draw_unit(d, u, note=f"({doomed[u]})" if u in doomed else "")
        if c is not None and u in doomed:
            d.add("marks", f'<circle {_attr(cx=c[0], cy=c[1], r=RU + 4, fill="none", stroke=_FAIL, stroke_width=2.5)}/>')
            if doomed[u] == "destroyed":
                d.cross("marks", c, 8, _FAIL, 3.0, f"{u.power}: {u} destroyed")
    for dis in position.dislodged:
        c = _draw_unit(d, dis.unit, dislodged=True,
                       note=f"retreats: {' '.join(dis.retreats) or 'none'}")
        if c is not None and dis.unit in doomed:
            d.cross("marks", c, 8, _FAIL, 3.0, f"{dis.unit.power}: {dis.unit} {doomed[dis.unit]}")


# -- orders ------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Mark:
    """How an order is drawn: its power, whether and why it failed, its plan number."""

    power: str
    order: Order
    success: bool | None = None          # None: no result (orders only, or a plan)
    reason: Reason | None = None
    detail: str = ""
    number: int | None = None            # a plan's phase number

    @property
    def failed(self) -> bool:
        return self.success is False

    def label(self) -> str:
        s = f"{self.power}: {self.order}"
        if self.number is not None:
            s = f"{self.number}. {s}"
        if self.reason is not None:
            s += f": {self.reason.value}" + (f" ({self.detail})" if self.detail else "")
        return s


def _convoy_chain(d: _Drawing, move: Move, fleets: Iterable[str]) -> list[str] | None:
    """Provinces from the army's to its target through the fleets ordered to convoy it
    (shortest chain, ties by name), or None when there is none."""
    m = d.game_map
    po = m.province_of
    src, dst = po.get(move.location, move.location), po.get(move.target, move.target)
    seas = {po.get(f, f) for f in fleets}
    prev: dict[str, str | None] = {src: None}
    queue = deque([src])
    while queue:
        here = queue.popleft()
        for nxt in sorted(m.neighbours.get(here, ())):
            if nxt in prev:
                continue
            if nxt == dst and here != src:
                chain = [dst, here]
                while prev[chain[-1]] is not None:
                    chain.append(prev[chain[-1]])  # type: ignore[arg-type]
                return chain[::-1]
            if nxt in seas:
                prev[nxt] = here
                queue.append(nxt)
    return None


def _badge(d: _Drawing, c: Point, number: int, power: str) -> None:
    d.add("badges", f'<g class="badge"><circle {_attr(cx=c[0], cy=c[1], r=8, fill="#ffffff", stroke=colour(power), stroke_width=2)}/>'
                    f'<text {_attr(x=c[0], y=c[1] + 3.6, font_size=10, font_weight="bold", text_anchor="middle", fill="#111111")}>{number}</text></g>')


def _draw_orders(d: _Drawing, position: Position, marks: Sequence[_Mark]) -> None:
    """Every order in ``marks`` as its picture, with its result if it has one."""
    m = d.game_map
    po = m.province_of
    moves = [k for k in marks if isinstance(k.order, (Move, Retreat))]
    pairs = {(po.get(k.order.location, k.order.location), po.get(k.order.target, k.order.target))  # type: ignore[union-attr]
             for k in moves}
    convoys: dict[tuple[str, str], list[str]] = {}
    for k in marks:
        if isinstance(k.order, Convoy):
            key = (po.get(k.order.convoyed_location, k.order.convoyed_location),
                   po.get(k.order.target, k.order.target))
            convoys.setdefault(key, []).append(k.order.location)
    dislodged_at = {po[x.unit.location] for x in position.dislodged}

    for k in marks:
        o, col = k.order, colour(k.power)
        faint = FAINT if k.failed else None
        if isinstance(o, (Move, Retreat)):
            start = d.at(o.location)
            end = d.at(o.target)
            if start is None or end is None:
                continue
            src_p, dst_p = po.get(o.location, o.location), po.get(o.target, o.target)
            retreat = isinstance(o, Retreat) or (position.phase.kind == "retreat" and src_p in dislodged_at)
            if retreat:
                start = _marker_at(d, o.location, dislodged=True) or start
                a = RU + 2
            else:
                a = d.radius(o.location)
            points: list[Point]
            chain = None
            if isinstance(o, Move) and (o.via_convoy or dst_p not in m.army_moves.get(src_p, ()) and o.kind == "A"):
                chain = _convoy_chain(d, o, convoys.get((src_p, dst_p), ()))
            if chain and len(chain) > 2:
                mid = [d.places[p] for p in chain[1:-1]]
                p0, _ = _trim(start, mid[0], a, 0)
                _, q0 = _trim(mid[-1], end, 0, d.radius(o.target) + 1)
                points = [p0, *mid, q0]
            else:
                p0, q0 = _trim(start, end, a, d.radius(o.target) + 1)
                if (dst_p, src_p) in pairs:
                    p0, q0 = _shift(p0, q0, 5.0)
                points = [p0, q0]
            tip = d.arrow("orders", points, col, width=2.2 if retreat else 3.0,
                          dash="6,3" if retreat else None, opacity=faint, title=k.label(),
                          cls="order retreat" if retreat else "order move")
            if k.failed and k.reason in (Reason.BOUNCED, Reason.NO_CONVOY, Reason.RETREAT_BOUNCED):
                ux, uy, _ = _unit_vec(points[-2], points[-1])
                p, q = (tip[0] - uy * 9, tip[1] + ux * 9), (tip[0] + uy * 9, tip[1] - ux * 9)
                d.add("marks", f'<g>{_title(k.label())}<line {_attr(x1=p[0], y1=p[1], x2=q[0], y2=q[1], stroke=_FAIL, stroke_width=3.5, stroke_linecap="round")}/></g>')
            elif k.failed:
                c, _ = _along(points, 0.5)
                d.cross("marks", c, 5, _FAIL, 2.5, k.label())
            if k.number is not None:
                c, (a_, b_) = _along(points, 0.5)
                ux, uy, _ = _unit_vec(a_, b_)
                _badge(d, (c[0] - uy * 9, c[1] + ux * 9), k.number, k.power)
        elif isinstance(o, (SupportHold, SupportMove)):
            start = d.at(o.location)
            to = o.target if isinstance(o, SupportMove) else o.supported_location
            end = d.at(to)
            if start is None or end is None:
                continue
            p, q = _trim(start, end, d.radius(o.location), d.radius(to) + 2)
            d.add("orders", f'<g {_attr(cls="order support", opacity=faint)}>{_title(k.label())}'
                            f'<line {_attr(x1=p[0], y1=p[1], x2=q[0], y2=q[1], stroke=col, stroke_width=2.2, stroke_dasharray="7,4", stroke_linecap="round")}/>'
                            f'<circle {_attr(cx=q[0], cy=q[1], r=3.5, fill=col)}/></g>')
            if k.failed:
                d.cross("marks", ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2), 5, _FAIL, 2.5, k.label())
        elif isinstance(o, Convoy):
            c = d.at(o.location)
            army = d.at(o.convoyed_location)
            if c is None:
                continue
            key = (po.get(o.convoyed_location, o.convoyed_location), po.get(o.target, o.target))
            moved = any(isinstance(x.order, Move) and (po.get(x.order.location), po.get(x.order.target)) == key
                        for x in moves)
            line = ""
            if not moved and army is not None:
                p, q = _trim(c, army, R + 4, R + 2)
                line = f'<line {_attr(x1=p[0], y1=p[1], x2=q[0], y2=q[1], stroke=col, stroke_width=2, stroke_dasharray="2,3")}/>'
            d.add("orders", f'<g {_attr(cls="order convoy", opacity=faint)}>{_title(k.label())}'
                            f'<circle {_attr(cx=c[0], cy=c[1], r=R + 4, fill="none", stroke=col, stroke_width=2.4, stroke_dasharray="2,3")}/>{line}</g>')
            if k.failed:
                d.cross("marks", (c[0] - R, c[1] + R * 0.6), 5, _FAIL, 2.5, k.label())
        elif isinstance(o, Hold):
            c = _marker_at(d, o.location)
            if c is None:
                continue
            s = RU + 4
            d.add("orders", f'<g {_attr(cls="order hold", opacity=faint)}>{_title(k.label())}'
                            f'<rect {_attr(x=c[0] - s, y=c[1] - s, width=2 * s, height=2 * s, rx=3, fill="none", stroke=col, stroke_width=2.4)}/></g>')
            if k.failed and k.reason is not Reason.DISLODGED:
                d.cross("marks", (c[0] + s, c[1] - s), 4, _FAIL, 2.2, k.label())
        elif isinstance(o, Build):
            c = _marker_at(d, o.location)
            if c is None:
                continue
            u = Unit(k.power, o.kind, o.location)
            d.add("orders", f'<g {_attr(cls="order build", opacity=faint)}>{_title(k.label())}'
                            f'<circle {_attr(cx=c[0], cy=c[1], r=RU + 5, fill="none", stroke=col, stroke_width=2, stroke_dasharray="3,2")}/></g>')
            _draw_unit(d, u, note="(built)" if not k.failed else "(build failed)", cls="unit built")
            d.text("marks", (c[0] + RU + 5, c[1] - RU), "+", size=13, bold=True, fill=col)
            if k.failed:
                d.cross("marks", c, 7, _FAIL, 2.5, k.label())
            if k.number is not None:
                _badge(d, (c[0] - RU - 8, c[1] - RU), k.number, k.power)
        elif isinstance(o, Disband):
            dislodged = position.phase.kind == "retreat"
            c = _marker_at(d, o.location, dislodged=dislodged)
            if c is None:
                continue
            d.cross("marks", c, 8, "#111111" if not k.failed else _FAIL, 3.0, k.label())
            if k.number is not None:
                _badge(d, (c[0] - RU - 8, c[1]), k.number, k.power)
        # Waive: nothing to draw on the board (the legend lists it)


def _marks_for_orders(orders: Mapping[str, Iterable[Order]], number: int | None = None) -> list[_Mark]:
    return [_Mark(power, o, number=number) for power, os in orders.items() for o in os]


def _marks_for_results(results: Iterable[OrderResult], number: int | None = None) -> list[_Mark]:
    out = []
    for r in results:
        if r.reason in (Reason.NO_UNIT, Reason.NOT_YOUR_UNIT):
            continue                       # set aside: no unit to draw it from
        if isinstance(r.order, Hold) and r.detail == "no order":
            continue                       # an unordered unit holds: nothing to draw
        if r.reason is Reason.CIVIL_DISORDER and not isinstance(r.order, Disband):
            continue
        out.append(_Mark(r.power, r.order, r.success, r.reason, r.detail, number))
    return out


# -- the legend --------------------------------------------------------------------------

def _legend(d: _Drawing, position: Position, heading: Sequence[str], *,
            orders: bool, results: bool, plan: Sequence[str] = (), notes: Sequence[str] = ()) -> None:
    x0 = MAP_WIDTH + 8
    y = 28.0
    d.add("legend", f'<rect {_attr(x=x0 - 6, y=6, width=WIDTH - x0, height=HEIGHT - 12, rx=6, fill="#ffffff", stroke="#cccccc")}/>')
    for i, line in enumerate(heading):
        size = min(15.0, 330.0 / max(len(line), 1)) if i == 0 else min(11.5, 390.0 / max(len(line), 1))
        d.text("legend", (x0 + 4, y), line, size=size, bold=i == 0, anchor="start")
        y += 20 if i == 0 else 16
    y += 6
    d.text("legend", (x0 + 4, y), "power", size=10.5, bold=True, anchor="start")
    d.text("legend", (x0 + 150, y), "units", size=10.5, bold=True, anchor="end")
    d.text("legend", (x0 + 200, y), "centers", size=10.5, bold=True, anchor="end")
    y += 16
    for power in position.powers():
        units = len(position.units_of(power))
        centers = len(position.centers_of(power))
        d.add("legend", f'<rect {_attr(x=x0 + 4, y=y - 10, width=12, height=12, fill=colour(power), stroke="#1e1e1e", stroke_width=0.8)}/>')
        d.text("legend", (x0 + 22, y), power, size=11, anchor="start")
        d.text("legend", (x0 + 150, y), str(units), size=11, anchor="end")
        d.text("legend", (x0 + 200, y), str(centers), size=11, anchor="end")
        y += 16
    unowned = len(d.game_map.centers) - len(position.centers)
    d.text("legend", (x0 + 22, y), "unowned", size=11, anchor="start", fill="#555555")
    d.text("legend", (x0 + 200, y), str(unowned), size=11, anchor="end", fill="#555555")
    y += 24

    def key(draw: str, text: str) -> None:
        nonlocal y
        d.add("legend", draw.replace("{X}", _f(x0 + 16)).replace("{Y}", _f(y - 4)))
        d.text("legend", (x0 + 38, y), text, size=10.5, anchor="start")
        y += 19

    cx, cy = "{X}", "{Y}"
    for terrain in ("land", "coast", "sea"):
        key(f'<circle cx="{cx}" cy="{cy}" r="8" fill="{TERRAIN_COLOURS[terrain]}" stroke="#7d7d7d" stroke-width="0.8"/>', terrain)
    key(f'<circle cx="{cx}" cy="{cy}" r="8" fill="{TERRAIN_COLOURS["coast"]}" stroke="{POWER_COLOURS["France"]}" stroke-width="3.5"/>',
        "BOLD: supply center (ring: owner)")
    key(f'<line x1="{x0 + 4}" y1="{cy}" x2="{x0 + 28}" y2="{cy}" stroke="{_EDGE_COLOURS["both"]}" stroke-width="1.5"/>',
        "army and fleet move")
    key(f'<line x1="{x0 + 4}" y1="{cy}" x2="{x0 + 28}" y2="{cy}" stroke="{_EDGE_COLOURS["army"]}" stroke-width="1.5"/>',
        "army move only")
    key(f'<line x1="{x0 + 4}" y1="{cy}" x2="{x0 + 28}" y2="{cy}" stroke="{_EDGE_COLOURS["fleet"]}" stroke-width="1.5"/>',
        "fleet move only")
    grey = "#666666"
    key(_unit_shape("A", (x0 + 16, y - 4), grey, "#1e1e1e"), "army")
    key(_unit_shape("F", (x0 + 16, y - 4), grey, "#1e1e1e"), "fleet")
    key(_unit_shape("A", (x0 + 16, y - 4), grey, "#1e1e1e")
        + f'<circle cx="{x0 + 16}" cy="{_f(y - 4)}" r="{RU + 3}" fill="none" stroke="{_FAIL}" stroke-width="2.2"/>',
        "dislodged unit")
    if orders or plan:
        key(f'<path d="M{x0 + 2},{_f(y - 4)} L{x0 + 20},{_f(y - 4)}" stroke="{grey}" stroke-width="3"/>'
            f'<polygon points="{x0 + 30},{_f(y - 4)} {x0 + 19},{_f(y - 9.5)} {x0 + 19},{_f(y + 1.5)}" fill="{grey}"/>', "move")
    if orders:
        key(f'<line x1="{x0 + 2}" y1="{cy}" x2="{x0 + 28}" y2="{cy}" stroke="{grey}" stroke-width="2.2" stroke-dasharray="7,4"/>'
            f'<circle cx="{x0 + 28}" cy="{cy}" r="3.5" fill="{grey}"/>', "support")
        key(f'<circle cx="{cx}" cy="{cy}" r="9" fill="none" stroke="{grey}" stroke-width="2.4" stroke-dasharray="2,3"/>',
            "convoy (army's arrow via fleets)")
        key(f'<rect x="{x0 + 7}" y="{_f(y - 13)}" width="18" height="18" rx="3" fill="none" stroke="{grey}" stroke-width="2.4"/>', "hold")
    if results:
        key(f'<line x1="{x0 + 4}" y1="{cy}" x2="{x0 + 24}" y2="{cy}" stroke="{grey}" stroke-width="3" opacity="0.45"/>'
            f'<line x1="{x0 + 26}" y1="{_f(y - 13)}" x2="{x0 + 26}" y2="{_f(y + 5)}" stroke="{_FAIL}" stroke-width="3.5"/>',
            "bounced (faint: order failed)")
        key(f'<path d="M{x0 + 11},{_f(y - 9)} L{x0 + 21},{_f(y + 1)} M{x0 + 11},{_f(y + 1)} L{x0 + 21},{_f(y - 9)}" stroke="{_FAIL}" stroke-width="2.5"/>',
            "cut, void, disrupted, destroyed")
    if plan:
        y += 6
        d.text("legend", (x0 + 4, y), "plan: phase of each numbered move", size=10.5, bold=True, anchor="start")
        y += 16
        cols = 2 if len(plan) > (HEIGHT - y - 20) // 15 else 1
        per_col = math.ceil(len(plan) / cols)
        for i, line in enumerate(plan):
            cx_ = x0 + 4 + (i // per_col) * 115
            cy_ = y + (i % per_col) * 15
            d.text("legend", (cx_, cy_), line, size=10, anchor="start")
        y += per_col * 15
    for note in notes:
        y += 4
        d.text("legend", (x0 + 4, y), note, size=10, anchor="start", fill="#444444")
        y += 14


# -- the pictures ------------------------------------------------------------------------

def _new(position: Position) -> _Drawing:
    places = coords()
    return _Drawing(position.map, places)


def position_svg(position: Position, orders: Mapping[str, Iterable[Order]] | None = None, *,
                 title: str | None = None, edges: bool = True) -> str:
    """The position as SVG text; with ``orders`` (power -> orders), the orders too."""
    d = _new(position)
    _draw_board(d, position, edges, faint=bool(orders))
    marks = _marks_for_orders(orders) if orders else []
    _draw_orders(d, position, marks)
    _draw_units(d, position)
    heading = [title or str(position.phase)]
    if orders:
        heading.append(f"{len(marks)} orders")
    waives = [f"{k.power} waives a build" for k in marks if isinstance(k.order, Waive)]
    _legend(d, position, heading, orders=bool(orders), results=False, notes=waives)
    return d.svg(heading[0])


def _doomed(outcome: Outcome) -> dict[Unit, str]:
    """Units the outcome dislodges or destroys, as they stood before it."""
    kind = outcome.position.phase.kind
    out: dict[Unit, str] = {}
    if kind == "movement":
        for dis in outcome.next.dislodged:
            out[dis.unit] = "dislodged"
    for u in outcome.destroyed:
        out[u] = "destroyed" if kind != "adjustment" else "removed"
    return out


def outcome_svg(outcome: Outcome, *, title: str | None = None, edges: bool = True) -> str:
    """The position before ``outcome`` with every order given and its result."""
    position = outcome.position
    d = _new(position)
    _draw_board(d, position, edges, faint=True)
    marks = _marks_for_results(outcome.results)
    _draw_orders(d, position, marks)
    _draw_units(d, position, _doomed(outcome))
    failed = sum(1 for k in marks if k.failed)
    heading = [title or str(position.phase),
               f"results: {len(marks) - failed} succeeded, {failed} failed",
               f"next: {outcome.next.phase}"]
    notes = [f"{k.power} waives a build" for k in marks if isinstance(k.order, Waive)]
    notes += [f"destroyed: {u.power} {u}" for u in outcome.destroyed]
    _legend(d, position, heading, orders=True, results=True, notes=notes)
    return d.svg(heading[0])


def _phase_key(phase: Phase) -> tuple[int, int, int]:
    kinds = {"movement": 0, "retreat": 1, "adjustment": 2}
    return (phase.year, SEASONS.index(phase.season), kinds[phase.kind])


def replay_plan(position: Position,
                steps: Sequence[tuple[Phase | None, Mapping[str, Sequence[Order]]]]) -> list[Outcome]:
    """Play a plan through the adjudicator: one `Outcome` per step.

    Each step is ``(phase, orders)``; ``phase`` None means "the phase the board is in".
    A phase the plan leaves out (an adjustment with nothing to build, a retreat phase
    nobody planned for) is adjudicated with no orders: units hold, dislodged units
    disband, missing removals are made by civil disorder.  In a retreat phase a move is
    read as a retreat.  Raises `PlanError` when a step's phase is already past.
    """
    outcomes: list[Outcome] = []
    board = position
    for i, (phase, orders) in enumerate(steps, 1):
        while phase is not None and board.phase != phase:
            if _phase_key(board.phase) > _phase_key(phase):
                raise PlanError(f"step {i} is for {phase} ({phase.short}), but the board is "
                                f"already at {board.phase} ({board.phase.short})")
            board = adjudicate(board, {}).next
        if board.phase.kind == "retreat":
            orders = {p: [Retreat(o.kind, o.location, o.target) if isinstance(o, Move) else o for o in os]
                      for p, os in orders.items()}
        outcome = adjudicate(board, orders)
        outcomes.append(outcome)
        board = outcome.next
    return outcomes


def plan_svg(outcomes: Sequence[Outcome], *, title: str | None = None, edges: bool = True) -> str:
    """A plan (from `replay_plan`) on the board it starts from: each phase's orders drawn
    with the phase's number; an order that failed in the replay is faint and marked."""
    if not outcomes:
        raise ValueError("plan_svg needs at least one phase")
    start, end = outcomes[0].position, outcomes[-1].next
    d = _new(start)
    _draw_board(d, start, edges, faint=True)
    marks: list[_Mark] = []
    lines = []
    number = 0
    for outcome in outcomes:
        step = [k for k in _marks_for_results(outcome.results)
                if not isinstance(k.order, (Hold, Waive))]
        if not step:
            continue
        number += 1
        step = [_Mark(k.power, k.order, k.success, k.reason, k.detail, number) for k in step]
        # each phase against its own board, so retreats and disbands find their units
        _draw_orders(d, outcome.position, step)
        marks += step
        failed = sum(1 for k in step if k.failed)
        lines.append(f"{number}  {outcome.position.phase.short}: {len(step)} orders"
                     + (f", {failed} failed" if failed else ""))
    _draw_units(d, start)
    powers = sorted({k.power for k in marks}, key=lambda p: (POWERS.index(p) if p in POWERS else 99, p))
    after = ", ".join(f"{p} {len(end.centers_of(p))}" for p in powers)
    heading = [title or f"Plan from {start.phase}",
               f"{len(outcomes)} phases, {start.phase.short} to {outcomes[-1].position.phase.short}",
               f"centers after: {after}" if after else "no orders"]
    failed = sum(1 for k in marks if k.failed)
    notes = [f"{failed} orders failed in the replay (faint)"] if failed else []
    _legend(d, start, heading, orders=True, results=failed > 0, plan=lines, notes=notes)
    return d.svg(heading[0])


Subject = Union[Position, Outcome, Sequence[Outcome]]


def svg_for(subject: Subject, orders: Mapping[str, Iterable[Order]] | None = None, *,
            title: str | None = None, edges: bool = True) -> str:
    """The picture of a position (with ``orders`` if given), an outcome, or a plan (a
    sequence of outcomes from `replay_plan`)."""
    if isinstance(subject, Position):
        return position_svg(subject, orders, title=title, edges=edges)
    if isinstance(subject, Outcome):
        return outcome_svg(subject, title=title, edges=edges)
    return plan_svg(list(subject), title=title, edges=edges)


# -- PNG and files -----------------------------------------------------------------------

def _font_files() -> list[str]:
    folder = resources.files("dipsolve") / "data" / "fonts"
    try:
        return sorted(str(p) for p in folder.iterdir() if str(p).endswith(".ttf"))  # type: ignore[union-attr]
    except (FileNotFoundError, NotADirectoryError):
        return []


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """PNG bytes of an SVG: resvg (``pip install resvg-py``) with dipsolve's own fonts,
    else cairosvg; `RenderError` if neither is installed."""
    if not scale > 0:
        raise RenderError(f"scale must be positive, not {scale}")
    try:
        import resvg_py
    except ImportError:
        resvg_py = None
    if resvg_py is not None:
        fonts = _font_files()
        kw: dict[str, object] = {"svg_string": svg}
        if fonts:
            kw.update(font_files=fonts, skip_system_fonts=True)
        if scale != 1.0:
            kw["zoom"] = scale
        return bytes(resvg_py.svg_to_bytes(**kw))
    try:
        import cairosvg  # type: ignore[import-not-found]
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
              title: str | None = None, edges: bool = True, scale: float = 1.0) -> int:
    """Draw ``subject`` (see `svg_for`) into ``path`` (``.svg`` or ``.png``), atomically:
    the file is whole or not written.  Returns the number of bytes written.

    The helper for a command's ``--render OUT`` option: ``adjudicate`` passes its
    `Outcome`, ``solve`` its position and orders, ``path`` the outcomes of its replayed plan.
    """
    data = picture_bytes(path, svg_for(subject, orders, title=title, edges=edges), scale)
    write_atomic(path, data)
    return len(data)
