"""Drawing a position, its orders and their results, or a plan, as SVG text.

`position_svg` (a position, with orders if given), `outcome_svg` (the orders of an
`Outcome` with their results), `plan_svg` (a plan played out by `replay_plan`, each
phase's orders numbered) and `svg_for`, which picks one by what it is given.  Each draws
the board of `dipsolve.io.pictures_board`, then the orders as arrows, dashed lines, rings and
crosses (a failed order faint and marked), then a legend.  The public place to import
them from is `dipsolve.io.pictures`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence, Union

from ..core.adjudicator import Outcome, OrderResult, Reason, adjudicate
from ..core.errors import DipsolveRuleError, DipsolveSyntaxError
from ..core.graph import sea_chains
from ..core.orders import (Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold,
                     SupportMove, Waive)
from ..core.position import SEASONS, Phase, Position, Unit
from .pictures_board import (CENTER_R, EDGE_COLOURS, FAIL_COLOUR, FAINT, HEIGHT, MAP_WIDTH,
                             POWER_COLOURS, R, RU, TERRAIN_COLOURS, WIDTH, Drawing, Point, along,
                             attr, board_shapes, colour, coords, draw_board, draw_unit, draw_units, fmt,
                             is_drawn, marker_at, shift, shows_edges, tint, tooltip, trim, unit_shape,
                             unit_vec)


class PlanError(DipsolveRuleError):
    """A plan that does not fit the board it is replayed on (a phase already past)."""


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


def _convoy_chain(d: Drawing, move: Move, fleets: Iterable[str]) -> list[str] | None:
    """Provinces from the army's to its target through the fleets ordered to convoy it
    (shortest chain, ties by name), or None when there is none."""
    m = d.game_map
    po = m.province_of
    src, dst = po.get(move.location, move.location), po.get(move.target, move.target)
    chain = next(sea_chains(m, src, {po.get(f, f) for f in fleets}, dst), None)
    return [src, *chain] if chain is not None else None


def _badge(d: Drawing, c: Point, number: int, power: str) -> None:
    c = d.free_spot(c, 16.0, 16.0)
    d.reserve((c[0] - 8, c[1] - 8, c[0] + 8, c[1] + 8))
    d.add("badges", f'<g class="badge"><circle {attr(cx=c[0], cy=c[1], r=8, fill="#ffffff", stroke=colour(power), stroke_width=2)}/>'
                    f'<text {attr(x=c[0], y=c[1] + 3.6, font_size=10, font_weight="bold", text_anchor="middle", fill="#111111")}>{number}</text></g>')


def _draw_orders(d: Drawing, position: Position, marks: Sequence[_Mark]) -> None:
    """Every order in ``marks`` as its picture, with its result if it has one."""
    m = d.game_map
    po = m.province_of
    moves = [k for k in marks if isinstance(k.order, (Move, Retreat))]
    pairs = {(po.get(o.location, o.location), po.get(o.target, o.target))
             for o in (k.order for k in moves) if isinstance(o, (Move, Retreat))}
    convoys: dict[tuple[str, str], list[str]] = {}
    for k in marks:
        if isinstance(k.order, Convoy):
            key = (po.get(k.order.convoyed_location, k.order.convoyed_location),
                   po.get(k.order.target, k.order.target))
            convoys.setdefault(key, []).append(k.order.location)
    dislodged_at = {po[x.unit.location] for x in position.dislodged}

    c: Point | None                      # where a mark goes
    a: float                             # how far from its node an arrow starts
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
                start = marker_at(d, o.location, dislodged=True) or start
                a = RU + 2
            else:
                a = d.radius(o.location)
            points: list[Point]
            chain = None
            if isinstance(o, Move) and (o.via_convoy or dst_p not in m.army_moves.get(src_p, ()) and o.kind == "A"):
                chain = _convoy_chain(d, o, convoys.get((src_p, dst_p), ()))
            if chain and len(chain) > 2:
                mid = [d.places[p] for p in chain[1:-1]]
                p0, _ = trim(start, mid[0], a, 0)
                _, q0 = trim(mid[-1], end, 0, d.radius(o.target) + 1)
                points = [p0, *mid, q0]
            else:
                p0, q0 = trim(start, end, a, d.radius(o.target) + 1)
                if (dst_p, src_p) in pairs:
                    p0, q0 = shift(p0, q0, 5.0)
                points = [p0, q0]
            tip = d.arrow("orders", points, col, width=2.2 if retreat else 3.0,
                          dash="6,3" if retreat else None, opacity=faint, title=k.label(),
                          cls="order retreat" if retreat else "order move")
            if k.failed and k.reason in (Reason.BOUNCED, Reason.NO_CONVOY, Reason.RETREAT_BOUNCED):
                ux, uy, _ = unit_vec(points[-2], points[-1])
                p, q = (tip[0] - uy * 9, tip[1] + ux * 9), (tip[0] + uy * 9, tip[1] - ux * 9)
                d.add("marks", f'<g>{tooltip(k.label())}<line {attr(x1=p[0], y1=p[1], x2=q[0], y2=q[1], stroke=FAIL_COLOUR, stroke_width=3.5, stroke_linecap="round")}/></g>')
            elif k.failed:
                c, _ = along(points, 0.5)
                d.cross("marks", c, 5, FAIL_COLOUR, 2.5, k.label())
            if k.number is not None:
                c, (a_, b_) = along(points, 0.5)
                ux, uy, _ = unit_vec(a_, b_)
                _badge(d, (c[0] - uy * 9, c[1] + ux * 9), k.number, k.power)
        elif isinstance(o, (SupportHold, SupportMove)):
            start = d.at(o.location)
            unit_at = d.at(o.supported_location)
            if start is None or unit_at is None:
                continue
            if isinstance(o, SupportMove):
                # to the supported move's arrow, near its head: the shape players know
                end = d.at(o.target)
                if end is None:
                    continue
                a0, b0 = trim(unit_at, end, R, R + 1)
                aim = (a0[0] + (b0[0] - a0[0]) * 0.62, a0[1] + (b0[1] - a0[1]) * 0.62)
                p, q = trim(start, aim, d.radius(o.location), 3)
                d.arrow("orders", [p, q], col, width=2.0, dash="6,3.5", opacity=faint,
                        title=k.label(), cls="order support support-move", head=9.0)
            else:
                p, q = trim(start, unit_at, d.radius(o.location), RU + 5)
                d.add("orders", f'<g {attr(cls="order support support-hold", opacity=faint)}>{tooltip(k.label())}'
                                f'<line {attr(x1=p[0], y1=p[1], x2=q[0], y2=q[1], stroke=col, stroke_width=2.0, stroke_dasharray="6,3.5", stroke_linecap="round")}/>'
                                f'<circle {attr(cx=unit_at[0], cy=unit_at[1], r=RU + 5, fill="none", stroke=col, stroke_width=2.0, stroke_dasharray="6,3.5")}/></g>')
            if k.failed:
                d.cross("marks", ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2), 5, FAIL_COLOUR, 2.5, k.label())
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
                p, q = trim(c, army, R + 4, R + 2)
                line = f'<line {attr(x1=p[0], y1=p[1], x2=q[0], y2=q[1], stroke=col, stroke_width=2, stroke_dasharray="2,3")}/>'
            d.add("orders", f'<g {attr(cls="order convoy", opacity=faint)}>{tooltip(k.label())}'
                            f'<circle {attr(cx=c[0], cy=c[1], r=R + 4, fill="none", stroke=col, stroke_width=2.4, stroke_dasharray="2,3")}/>{line}</g>')
            if k.failed:
                d.cross("marks", (c[0] - R, c[1] + R * 0.6), 5, FAIL_COLOUR, 2.5, k.label())
        elif isinstance(o, Hold):
            c = marker_at(d, o.location)
            if c is None:
                continue
            s = RU + 4
            d.add("orders", f'<g {attr(cls="order hold", opacity=faint)}>{tooltip(k.label())}'
                            f'<rect {attr(x=c[0] - s, y=c[1] - s, width=2 * s, height=2 * s, rx=3, fill="none", stroke=col, stroke_width=2.4)}/></g>')
            if k.failed and k.reason is not Reason.DISLODGED:
                d.cross("marks", (c[0] + s, c[1] - s), 4, FAIL_COLOUR, 2.2, k.label())
        elif isinstance(o, Build):
            c = marker_at(d, o.location)
            if c is None:
                continue
            if k.number is not None:         # a plan: a unit of the start may stand there
                c = d.free_spot(c, 2 * RU + 2, 2 * RU + 2, reach=30)
            u = Unit(k.power, o.kind, o.location)
            d.add("orders", f'<g {attr(cls="order build", opacity=faint)}>{tooltip(k.label())}'
                            f'<circle {attr(cx=c[0], cy=c[1], r=RU + 5, fill="none", stroke=col, stroke_width=2, stroke_dasharray="3,2")}/></g>')
            draw_unit(d, u, note="(built)" if not k.failed else "(build failed)", cls="unit built", at=c)
            px, py = c[0] + RU + 6, c[1] - RU - 2
            d.add("marks", f'<path {attr(d=f"M{fmt(px - 4)},{fmt(py)} H{fmt(px + 4)} M{fmt(px)},{fmt(py - 4)} V{fmt(py + 4)}", stroke=col, stroke_width=2.6, stroke_linecap="round")}/>')
            if k.failed:
                d.cross("marks", c, 7, FAIL_COLOUR, 2.5, k.label())
            if k.number is not None:
                _badge(d, (c[0] - RU - 9, c[1] - RU), k.number, k.power)
        elif isinstance(o, Disband):
            dislodged = position.phase.kind == "retreat"
            c = marker_at(d, o.location, dislodged=dislodged)
            if c is None:
                continue
            d.cross("marks", c, 8, "#111111" if not k.failed else FAIL_COLOUR, 3.0, k.label())
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

def _legend(d: Drawing, position: Position, heading: Sequence[str], *,
            orders: bool, results: bool, plan: Sequence[str] = (), notes: Sequence[str] = (),
            edges: bool = False) -> None:
    x0 = MAP_WIDTH + 8
    y = 28.0
    d.add("legend", f'<rect {attr(x=x0 - 6, y=6, width=WIDTH - x0, height=HEIGHT - 12, rx=6, fill="#ffffff", stroke="#cccccc")}/>')
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
        d.add("legend", f'<rect {attr(x=x0 + 4, y=y - 10, width=12, height=12, fill=colour(power), stroke="#1e1e1e", stroke_width=0.8)}/>')
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
        d.add("legend", draw.replace("{X}", fmt(x0 + 16)).replace("{Y}", fmt(y - 4)))
        d.text("legend", (x0 + 38, y), text, size=10.5, anchor="start")
        y += 19

    cx, cy = "{X}", "{Y}"
    drawn = is_drawn(d.game_map)         # a schematic board: no impassable land
    edges = shows_edges(d.game_map, edges)
    if not drawn:
        for note in ("a schematic of the board: each province", "a disc, placed by its neighbours"):
            d.text("legend", (x0 + 4, y), note, size=10, anchor="start", fill="#444444")
            y += 14
        y += 4
    for terrain, text in (("land", "land"), ("sea", "sea"), ("neutral", "impassable"))[:3 if drawn else 2]:
        key(f'<rect x="{x0 + 7}" y="{fmt(y - 12)}" width="18" height="14" fill="{TERRAIN_COLOURS[terrain]}" stroke="#6f6552" stroke-width="0.8"/>', text)
    key(f'<rect x="{x0 + 7}" y="{fmt(y - 12)}" width="18" height="14" fill="{tint("France")}" stroke="#6f6552" stroke-width="0.8"/>',
        "owned center: owner's colour")
    key(f'<circle cx="{cx}" cy="{cy}" r="{CENTER_R}" fill="{POWER_COLOURS["France"]}" stroke="#222222" stroke-width="1.2"/>',
        "supply center (white: unowned)")
    if board_shapes(d.game_map).coasts:
        key(f'<line x1="{x0 + 4}" y1="{cy}" x2="{x0 + 28}" y2="{cy}" stroke="#2f5f8a" stroke-width="2.2" stroke-dasharray="5,3"/>',
            "coast (Spa, Bul, StP)" if drawn else "coast of a province with several")
    if edges:
        key(f'<line x1="{x0 + 4}" y1="{cy}" x2="{x0 + 28}" y2="{cy}" stroke="{EDGE_COLOURS["both"]}" stroke-width="1.5"/>',
            "army and fleet move")
        key(f'<line x1="{x0 + 4}" y1="{cy}" x2="{x0 + 28}" y2="{cy}" stroke="{EDGE_COLOURS["army"]}" stroke-width="1.5"/>',
            "army move only")
        key(f'<line x1="{x0 + 4}" y1="{cy}" x2="{x0 + 28}" y2="{cy}" stroke="{EDGE_COLOURS["fleet"]}" stroke-width="1.5"/>',
            "fleet move only")
    grey = "#666666"
    key(unit_shape("A", (x0 + 16, y - 4), grey, "#1e1e1e"), "army")
    key(unit_shape("F", (x0 + 16, y - 4), grey, "#1e1e1e"), "fleet")
    key(unit_shape("A", (x0 + 16, y - 4), grey, "#1e1e1e")
        + f'<circle cx="{x0 + 16}" cy="{fmt(y - 4)}" r="{RU + 3}" fill="none" stroke="{FAIL_COLOUR}" stroke-width="2.2"/>',
        "dislodged unit")
    if orders or plan:
        key(f'<path d="M{x0 + 2},{fmt(y - 4)} L{x0 + 20},{fmt(y - 4)}" stroke="{grey}" stroke-width="3"/>'
            f'<polygon points="{x0 + 30},{fmt(y - 4)} {x0 + 19},{fmt(y - 9.5)} {x0 + 19},{fmt(y + 1.5)}" fill="{grey}"/>', "move")
    if orders:
        key(f'<line x1="{x0 + 2}" y1="{cy}" x2="{x0 + 22}" y2="{cy}" stroke="{grey}" stroke-width="2" stroke-dasharray="6,3.5"/>'
            f'<polygon points="{x0 + 30},{fmt(y - 4)} {x0 + 21},{fmt(y - 8.5)} {x0 + 21},{fmt(y + 0.5)}" fill="{grey}"/>',
            "support to a move")
        key(f'<line x1="{x0 + 2}" y1="{cy}" x2="{x0 + 18}" y2="{cy}" stroke="{grey}" stroke-width="2" stroke-dasharray="6,3.5"/>'
            f'<circle cx="{x0 + 25}" cy="{cy}" r="7" fill="none" stroke="{grey}" stroke-width="2" stroke-dasharray="4,2.5"/>',
            "support to hold")
        key(f'<circle cx="{cx}" cy="{cy}" r="9" fill="none" stroke="{grey}" stroke-width="2.4" stroke-dasharray="2,3"/>',
            "convoy (army's arrow via fleets)")
        key(f'<rect x="{x0 + 7}" y="{fmt(y - 13)}" width="18" height="18" rx="3" fill="none" stroke="{grey}" stroke-width="2.4"/>', "hold")
    if results:
        key(f'<line x1="{x0 + 4}" y1="{cy}" x2="{x0 + 24}" y2="{cy}" stroke="{grey}" stroke-width="3" opacity="0.45"/>'
            f'<line x1="{x0 + 26}" y1="{fmt(y - 13)}" x2="{x0 + 26}" y2="{fmt(y + 5)}" stroke="{FAIL_COLOUR}" stroke-width="3.5"/>',
            "bounced (faint: order failed)")
        key(f'<path d="M{x0 + 11},{fmt(y - 9)} L{x0 + 21},{fmt(y + 1)} M{x0 + 11},{fmt(y + 1)} L{x0 + 21},{fmt(y - 9)}" stroke="{FAIL_COLOUR}" stroke-width="2.5"/>',
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

def _new(position: Position, refs: bool = False) -> Drawing:
    """A drawing of ``position``'s board: every picture starts here (a variant's board,
    which has no shapes, as a schematic: `dipsolve.io.pictures_board.board_shapes`)."""
    board = position.map
    return Drawing(board, coords(board), refs=refs)


def position_svg(position: Position, orders: Mapping[str, Iterable[Order]] | None = None, *,
                 title: str | None = None, edges: bool = False, refs: bool = False) -> str:
    """The position as SVG text; with ``orders`` (power -> orders), the orders too.
    ``refs``: the map's shapes by reference, for a page (`dipsolve.io.pictures_html`)."""
    d = _new(position, refs)
    draw_board(d, position, edges, faint=bool(orders))
    marks = _marks_for_orders(orders) if orders else []
    draw_units(d, position)
    _draw_orders(d, position, marks)
    heading = [title or str(position.phase)]
    if orders:
        heading.append(f"{len(marks)} orders")
    waives = [f"{k.power} waives a build" for k in marks if isinstance(k.order, Waive)]
    _legend(d, position, heading, orders=bool(orders), results=False, notes=waives, edges=edges)
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


def outcome_svg(outcome: Outcome, *, title: str | None = None, edges: bool = False,
                refs: bool = False) -> str:
    """The position before ``outcome`` with every order given and its result."""
    position = outcome.position
    d = _new(position, refs)
    draw_board(d, position, edges, faint=True)
    marks = _marks_for_results(outcome.results)
    draw_units(d, position, _doomed(outcome))
    _draw_orders(d, position, marks)
    failed = sum(1 for k in marks if k.failed)
    heading = [title or str(position.phase),
               f"results: {len(marks) - failed} succeeded, {failed} failed",
               f"next: {outcome.next.phase}"]
    notes = [f"{k.power} waives a build" for k in marks if isinstance(k.order, Waive)]
    notes += [f"destroyed: {u.power} {u}" for u in outcome.destroyed]
    _legend(d, position, heading, orders=True, results=True, notes=notes, edges=edges)
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


def plan_svg(outcomes: Sequence[Outcome], *, title: str | None = None, edges: bool = False) -> str:
    """A plan (from `replay_plan`) on the board it starts from: each phase's orders drawn
    with the phase's number; an order that failed in the replay is faint and marked."""
    if not outcomes:
        raise DipsolveSyntaxError("plan_svg needs at least one phase")
    start, end = outcomes[0].position, outcomes[-1].next
    d = _new(start)
    draw_board(d, start, edges, faint=True)
    draw_units(d, start)
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
    order = start.map.powers
    powers = sorted({k.power for k in marks}, key=lambda p: (order.index(p) if p in order else 99, p))
    after = ", ".join(f"{p} {len(end.centers_of(p))}" for p in powers)
    heading = [title or f"Plan from {start.phase}",
               f"{len(outcomes)} phases, {start.phase.short} to {outcomes[-1].position.phase.short}",
               f"centers after: {after}" if after else "no orders"]
    failed = sum(1 for k in marks if k.failed)
    notes = [f"{failed} orders failed in the replay (faint)"] if failed else []
    _legend(d, start, heading, orders=True, results=failed > 0, plan=lines, notes=notes, edges=edges)
    return d.svg(heading[0])


Subject = Union[Position, Outcome, Sequence[Outcome]]

#: what XML 1.0 cannot hold: control characters but tab and line ends, lone surrogates,
#: U+FFFE and U+FFFF
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def svg_for(subject: Subject, orders: Mapping[str, Iterable[Order]] | None = None, *,
            title: str | None = None, edges: bool = False) -> str:
    """The picture of a position (with ``orders`` if given), an outcome, or a plan (a
    sequence of outcomes from `replay_plan`).  A ``title`` with a character SVG (XML 1.0)
    cannot hold, a control character or a lone surrogate, raises `DipsolveSyntaxError`."""
    if title is not None:
        bad = _NOT_XML.search(title)
        if bad is not None:
            raise DipsolveSyntaxError(f"the title has U+{ord(bad.group()):04X} at character "
                                      f"{bad.start() + 1}, which a picture (XML) cannot hold",
                                      found=repr(bad.group()), expected="printable text")
    if isinstance(subject, Position):
        return position_svg(subject, orders, title=title, edges=edges)
    if isinstance(subject, Outcome):
        return outcome_svg(subject, title=title, edges=edges)
    return plan_svg(list(subject), title=title, edges=edges)
