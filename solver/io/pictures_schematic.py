"""A board without drawn shapes (a variant's): each province a disc, placed by its adjacency.

The standard board is drawn on its shapes (``data/map_shapes.tsv``); a variant's map
(``--variant ancmed``, a map file a user brings) has none, so `schematic` lays one out:

- the provinces are the nodes of the graph of the map's adjacency (`Map.neighbours`: two
  provinces are joined when any unit moves between them), laid out by a force-directed
  layout (Fruchterman & Reingold 1991: neighbours attract, every pair repels) from a
  circle in breadth-first order, with no random start: the same map is always drawn
  the same;
- then overlaps are pushed apart until no two discs meet, and the layout is scaled into
  the map's part of the picture;
- each province is a disc in its terrain's colour (or its owner's, for a supply centre),
  its name under it; a unit stands at its centre; the coasts of a province with several
  are short dashed arcs on its rim, each turned towards the provinces its fleets reach,
  a fleet there drawn on its arc;
- the board's moves are drawn as lines between the discs always (the standard board's
  ``--edges``): on a schematic they are the only way to see which provinces touch.

The picture is a diagram, not a map: where the provinces lie relative to each other
comes from their adjacency only.  `dipsolve.io.pictures_board.board_shapes` turns what
this returns into shapes of the standard board's kind, so every picture (a position, an
outcome, a plan, a game's page) draws on it unchanged.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..core.map import Map

__all__ = ["Place", "Schematic", "schematic"]

Point = tuple[float, float]


class Place(NamedTuple):
    """One province's disc or one coast's arc: where a unit is drawn, where the name is
    written, its SVG path, and where a unit dislodged there is drawn."""

    place: Point
    label: Point
    path: str
    dislodged: Point


@dataclass(frozen=True)
class Schematic:
    """A schematic board: each province's disc, each coast's arc (of a province with
    several), the discs' radius."""

    provinces: dict[str, Place]
    coasts: dict[str, Place]
    disc: float

#: the margin kept clear round the laid-out discs, in the picture's units
MARGIN = 46.0
#: a disc's radius at most and at least
DISC_MAX, DISC_MIN = 30.0, 13.0
#: the layout's iterations, and those of pushing overlapping discs apart
ITERATIONS = 400
SEPARATIONS = 200


def schematic(m: Map, width: float, height: float) -> Schematic:
    """A schematic board of ``m`` in a ``width`` x ``height`` picture (see the module's notes)."""
    names = sorted(m.provinces)
    n = len(names)
    index = {p: i for i, p in enumerate(names)}
    edges = sorted({(min(index[a], index[b]), max(index[a], index[b])) for a in names
                    for b in m.neighbours.get(a, ()) if b in index and a != b})
    r = _radius(n, width, height)
    xy = _fitted(_layout(n, edges), r, width, height)
    for _ in range(3):                      # apart, then fitted again (which may bring them closer)
        xy = _fitted(_separated(xy, 2.0 * r + 16.0), r, width, height)
    if n > 1:                               # no two discs meet, whatever the layout
        dist = np.linalg.norm(xy[:, None, :] - xy[None, :, :], axis=2)
        np.fill_diagonal(dist, np.inf)
        r = max(4.0, min(r, (float(dist.min()) - 6.0) / 2))
    centre = {p: (float(xy[index[p]][0]), float(xy[index[p]][1])) for p in names}
    provinces = {p: _disc(centre[p], r) for p in names}
    coasts: dict[str, Place] = {}
    for p in names:
        locations = [loc for loc in m.fleet_locations.get(p, ()) if loc != p]
        if len(locations) < 2:
            continue
        for loc, angle in zip(locations, _coast_angles(m, p, locations, centre)):
            coasts[loc] = _arc(centre[p], r, angle)
    return Schematic(provinces, coasts, r)


def _layout(n: int, edges: list[tuple[int, int]]) -> np.ndarray:
    """Fruchterman-Reingold positions in the unit square's scale, from a circle in
    breadth-first order (deterministic)."""
    if n == 0:
        return np.zeros((0, 2))
    order = _bfs_order(n, edges)
    angle = np.array([2 * math.pi * order.index(i) / n for i in range(n)])
    pos = np.stack([np.cos(angle), np.sin(angle)], axis=1) * 0.5
    if n == 1:
        return pos
    k = math.sqrt(1.0 / n)                      # the ideal distance between neighbours
    a = np.array([e[0] for e in edges], dtype=int)
    b = np.array([e[1] for e in edges], dtype=int)
    t = 0.1
    for step in range(ITERATIONS):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.maximum(np.linalg.norm(delta, axis=2), 1e-4)
        push = (k * k / dist ** 2)[:, :, None] * delta          # repulsion k²/d along the unit vector
        np.einsum("iij->ij", push)[:] = 0.0
        move = push.sum(axis=1)
        if len(edges):
            d = pos[a] - pos[b]
            length = np.maximum(np.linalg.norm(d, axis=1), 1e-4)
            pull = (length / k)[:, None] * d                    # attraction d²/k along the unit vector
            np.add.at(move, a, -pull)
            np.add.at(move, b, pull)
        move -= pos * 0.02 * n                                  # a little gravity: no part drifts away
        size = np.maximum(np.linalg.norm(move, axis=1), 1e-9)
        pos += move / size[:, None] * np.minimum(size, t)[:, None]
        t = 0.1 * (1 - (step + 1) / ITERATIONS) + 0.002
    return pos


def _bfs_order(n: int, edges: list[tuple[int, int]]) -> list[int]:
    near: list[list[int]] = [[] for _ in range(n)]
    for a, b in edges:
        near[a].append(b)
        near[b].append(a)
    seen: list[int] = []
    for start in range(n):
        if start in seen:
            continue
        queue = deque([start])
        seen.append(start)
        while queue:
            i = queue.popleft()
            for j in sorted(near[i]):
                if j not in seen:
                    seen.append(j)
                    queue.append(j)
    return seen


def _radius(n: int, width: float, height: float) -> float:
    """A disc's radius: the map's area shared among ``n`` provinces."""
    share = math.sqrt((width - 2 * MARGIN) * (height - 2 * MARGIN) / max(n, 1))
    return max(DISC_MIN, min(DISC_MAX, 0.3 * share))


def _fitted(pos: np.ndarray, r: float, width: float, height: float) -> np.ndarray:
    """The layout scaled (the same in x and y, never up past a disc's spacing) and centred
    into the map's part of the picture."""
    if len(pos) == 0:
        return pos
    lo, hi = pos.min(axis=0), pos.max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    room = np.array([width - 2 * (MARGIN + r), height - 2 * (MARGIN + r) - 12.0])
    scale = float(min(room / span)) if len(pos) > 1 else 1.0
    centre = np.array([width / 2, height / 2])
    return (pos - (lo + hi) / 2) * scale + centre


def _separated(p: np.ndarray, gap: float) -> np.ndarray:
    """The points ``p`` with every two pushed apart to ``gap`` at least (as far as
    `SEPARATIONS` rounds of pushing get)."""
    p = p.copy()
    if len(p) < 2:
        return p
    for _ in range(SEPARATIONS):
        delta = p[:, None, :] - p[None, :, :]
        dist = np.linalg.norm(delta, axis=2)
        np.fill_diagonal(dist, 1e9)
        short = dist < gap
        if not short.any():
            break
        need = np.where(short, (gap - dist) / 2 / np.maximum(dist, 1e-6), 0.0)
        p += (need[:, :, None] * delta).sum(axis=1) * 0.5
    return p


def _disc(c: Point, r: float) -> Place:
    x, y = c
    path = (f"M{x - r:.1f},{y:.1f} a{r:.1f},{r:.1f} 0 1,0 {2 * r:.1f},0 "
            f"a{r:.1f},{r:.1f} 0 1,0 {-2 * r:.1f},0 Z")
    return Place(c, (x, y + r + 8.0), path, (x + 0.62 * r, y - 0.62 * r))


def _coast_angles(m: Map, p: str, locations: list[str], centre: dict[str, Point]) -> list[float]:
    """Each coast's direction from its province's centre: towards the provinces its
    fleets reach, and the coasts kept at least 50 degrees apart."""
    c = centre[p]
    angles = []
    for loc in locations:
        reach = [centre[q] for q in sorted(m.fleet_reach.get(loc, ())) if q in centre and q != p]
        if reach:
            x = sum(q[0] for q in reach) / len(reach) - c[0]
            y = sum(q[1] for q in reach) / len(reach) - c[1]
            angles.append(math.atan2(y, x) if (x, y) != (0.0, 0.0) else 0.0)
        else:
            angles.append(2 * math.pi * len(angles) / len(locations))
    apart = math.radians(50)
    for i in range(1, len(angles)):
        for j in range(i):
            diff = (angles[i] - angles[j] + math.pi) % (2 * math.pi) - math.pi
            if abs(diff) < apart:
                angles[i] = angles[j] + (apart if diff >= 0 else -apart)
    return angles


def _arc(c: Point, r: float, angle: float) -> Place:
    """A coast: a short arc on the disc's rim at ``angle``, a fleet there drawn on it."""
    half = 0.45
    x0, y0 = c[0] + r * math.cos(angle - half), c[1] + r * math.sin(angle - half)
    x1, y1 = c[0] + r * math.cos(angle + half), c[1] + r * math.sin(angle + half)
    path = f"M{x0:.1f},{y0:.1f} A{r:.1f},{r:.1f} 0 0,1 {x1:.1f},{y1:.1f}"
    place = (c[0] + 0.62 * r * math.cos(angle), c[1] + 0.62 * r * math.sin(angle))
    return Place(place, place, path, (place[0] + 12.0, place[1] - 10.0))
