"""Build ``map_shapes.tsv``, the board as a player sees it: every province as a shape.

    npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz
    pip install shapely
    python solver/data/build_map_shapes.py package/land-50m.json > solver/data/map_shapes.tsv

The coastlines are Natural Earth's 1:50m land polygons (public domain,
https://www.naturalearthdata.com/about/terms-of-use/), as the npm package
``world-atlas`` 2.0.2 ships them in TopoJSON (ISC licence, © Michael Bostock; the data
public domain).  Nothing of any Diplomacy map's art is used: the province borders are
dipsolve's own, drawn here as the Voronoi cells of a few seed points per province (the
``LAND``, ``SEA`` and ``NEUTRAL`` tables below, placed by hand after the board's
geography so that the borders fall where the board's do), clipped to the land (land and
coastal provinces, and the impassable land: Switzerland, Ireland, Iceland, islands,
Africa and Asia off the board) or to the water (seas).

The output (committed; the runtime needs no geometry library) has one row a shape::

    id  kind  x  y  lx  ly  path

``kind`` is land, coast or sea (a province), neutral (impassable land) or the name of a
split province's coast (``STP/NC``: ``path`` is then the stretch of coastline the coast
lies on, an open polyline); ``x, y`` is where a unit there is drawn, ``lx, ly`` where the
province's name is written; ``path`` is SVG path data in the picture's units (the map
area is ``MAP_WIDTH`` x ``HEIGHT`` of `dipsolve.io.pictures_board`, y down).  Adjacency is
checked against the map's own by tests/test_pictures_map.py.
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any, Iterable

try:
    import shapely
    from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box
    from shapely.ops import polylabel, unary_union
except ImportError:                       # pragma: no cover - a tool, run by hand
    sys.exit("build_map_shapes.py needs shapely: pip install shapely")

MAP_WIDTH, HEIGHT = 1010, 900
CENTERS: set[str] = set()                 # read from standard.map
SIMPLIFY = 0.7                            # pixels: the shapes' tolerance

# -- seeds (longitude, latitude): a province is the union of its seeds' Voronoi cells ----

LAND: dict[str, list[tuple[float, float]]] = {
    "CLY": [(-5.2, 57.6), (-5.0, 58.3)],
    "EDI": [(-2.6, 56.0), (-3.0, 57.3), (-3.6, 58.5)],
    "LVP": [(-3.0, 53.7), (-3.2, 54.8), (-4.2, 55.2), (-4.6, 55.8), (-5.4, 56.4)],
    "YOR": [(-1.3, 54.0), (-1.6, 55.0), (-0.6, 53.3)],
    "WAL": [(-3.8, 52.3), (-4.4, 51.6), (-3.6, 52.9)],
    "LON": [(-0.3, 51.5), (1.0, 52.4), (-1.2, 51.0), (-2.5, 50.8), (-4.4, 50.5)],
    "BRE": [(-3.3, 48.2), (-1.2, 48.6)],
    "PIC": [(2.2, 49.9), (1.0, 49.6)],
    "PAR": [(2.4, 48.4), (0.6, 47.6)],
    "BUR": [(4.6, 47.3), (4.4, 49.2), (5.9, 48.6)],
    "GAS": [(-0.6, 44.3), (-0.5, 46.0), (1.6, 44.8)],
    "MAR": [(5.2, 43.9), (3.2, 43.7), (6.2, 45.2)],
    "SPA": [(-3.8, 40.2), (-1.0, 41.0), (-4.6, 37.8), (-4.5, 43.0), (1.5, 41.8)],
    "POR": [(-8.2, 39.6), (-8.0, 41.5), (-8.0, 37.6)],
    "NAF": [(-5.5, 33.0), (1.0, 34.0), (4.8, 35.0), (-5.4, 35.3)],
    "TUN": [(9.4, 35.0), (10.5, 33.0)],
    "BEL": [(4.6, 50.6), (3.4, 50.9)],
    "HOL": [(5.6, 52.4), (6.4, 53.1)],
    "RUH": [(7.4, 50.9), (7.8, 50.0), (7.2, 51.8)],
    "KIE": [(9.8, 53.3), (8.6, 52.6), (10.6, 52.2), (10.8, 54.1)],
    "BER": [(13.4, 53.2), (12.0, 52.0), (12.4, 54.0)],
    "MUN": [(11.4, 48.8), (9.0, 48.6), (10.8, 50.3), (12.8, 50.8)],
    "SIL": [(16.8, 51.0), (15.0, 51.6), (18.6, 50.6)],
    "PRU": [(20.6, 54.0), (17.2, 53.8)],
    "DEN": [(9.2, 56.0), (11.8, 55.5), (10.2, 57.2)],
    "PIE": [(7.6, 44.9), (8.4, 45.9)],
    "VEN": [(12.0, 45.6), (11.0, 44.9), (13.4, 46.0), (12.0, 44.3), (13.2, 43.6)],
    "TUS": [(11.0, 43.3), (10.4, 43.8)],
    "ROM": [(12.6, 42.0), (13.4, 41.5)],
    "APU": [(16.4, 41.0), (14.4, 42.2), (17.8, 40.5)],
    "NAP": [(15.9, 39.5), (14.4, 37.5), (14.9, 40.8)],
    "TYR": [(12.4, 46.9), (10.5, 47.0), (13.5, 48.2), (13.6, 46.6), (10.2, 46.4)],
    "BOH": [(14.4, 49.8), (13.0, 50.2), (17.3, 49.5), (18.6, 49.5)],
    "VIE": [(15.8, 47.8), (14.8, 47.4), (18.0, 48.3)],
    "BUD": [(19.8, 47.2), (22.0, 47.8), (18.0, 46.6)],
    "GAL": [(23.8, 49.6), (20.4, 49.4), (25.6, 48.6)],
    "TRI": [(15.6, 44.6), (17.5, 43.6), (14.0, 45.7)],
    "SER": [(20.9, 43.6), (19.8, 44.6), (21.6, 42.0)],
    "ALB": [(19.9, 41.2), (19.6, 42.2)],
    "GRE": [(22.0, 39.4), (22.6, 37.8), (23.0, 40.5)],
    "BUL": [(25.4, 42.6), (23.4, 42.7), (27.4, 43.2), (25.2, 41.3)],
    "RUM": [(25.2, 45.4), (28.0, 44.6), (23.0, 45.8), (27.0, 46.8), (28.6, 46.4)],
    "CON": [(28.4, 41.2), (26.6, 40.9), (29.8, 40.4)],
    "ANK": [(33.0, 41.0), (36.2, 40.9)],
    "SMY": [(28.8, 38.4), (32.0, 37.6), (35.4, 37.4), (31.4, 39.2)],
    "ARM": [(40.8, 39.8), (43.0, 40.4), (39.2, 38.4)],
    "SYR": [(37.6, 35.8), (39.2, 34.8), (36.8, 33.8)],
    "SEV": [(35.0, 46.8), (40.0, 46.6), (43.0, 45.0), (34.2, 44.8), (44.5, 48.5), (31.4, 46.8)],
    "UKR": [(30.6, 49.4), (28.0, 48.4), (33.0, 50.4)],
    "WAR": [(21.4, 52.0), (19.0, 52.0), (24.0, 51.8)],
    "MOS": [(37.6, 55.4), (32.0, 54.2), (44.0, 55.0), (36.0, 52.0), (46.0, 59.0)],
    "LVN": [(25.0, 57.0), (26.0, 55.2), (28.5, 57.8)],
    "STP": [(30.6, 59.8), (34.0, 62.8), (38.0, 66.6), (48.0, 66.0), (33.6, 68.6)],
    "FIN": [(26.0, 62.6), (28.0, 65.2), (24.4, 61.0)],
    "SWE": [(15.4, 59.6), (17.8, 63.8), (14.2, 57.2), (20.2, 66.6)],
    "NWY": [(9.2, 61.0), (14.0, 66.6), (22.6, 69.8), (7.4, 59.0), (10.6, 59.8), (17.0, 68.5), (12.0, 64.0)],
}

#: where a unit stands, where the shape's own middle is not where a player looks
UNIT_AT = {"MOS": (37.6, 55.8), "SEV": (35.5, 46.6), "STP": (35.0, 63.5), "NAF": (-2.0, 33.6),
           "SWE": (15.6, 60.4), "NWY": (9.6, 61.2), "FIN": (26.0, 62.6), "ARM": (41.5, 39.8),
           "SYR": (38.0, 35.4), "SMY": (30.0, 38.2), "UKR": (30.6, 49.6), "TUN": (9.4, 34.6),
           "STP/NC": (36.0, 69.0), "STP/SC": (28.8, 60.4),
           "MAO": (-7.5, 45.2), "NAO": (-18.0, 56.0)}

#: impassable land: drawn, but no province
NEUTRAL: dict[str, list[tuple[float, float]]] = {
    "Switzerland": [(8.2, 46.8), (7.2, 46.4), (9.4, 46.8)],
    "Ireland": [(-8.0, 53.2), (-7.2, 54.6), (-9.0, 52.0)],
    "Iceland": [(-18.6, 64.9)],
    "Corsica": [(9.1, 42.2)],
    "Sardinia": [(9.0, 40.0)],
    "Crete": [(24.8, 35.2)],
    "Cyprus": [(33.2, 35.0)],
    "Balearics": [(2.9, 39.6)],
    "Africa": [(18.0, 29.0), (28.0, 29.5), (-9.0, 29.0), (3.0, 30.5), (11.0, 30.0)],
    "Asia": [(44.0, 33.0), (47.0, 38.5), (48.5, 42.0)],
    "Svalbard": [(16.0, 78.5)],
    "Novaya Zemlya": [(55.0, 73.5)],
}

SEA: dict[str, list[tuple[float, float]]] = {
    "NAO": [(-26.0, 55.0), (-20.0, 60.0), (-16.0, 54.0), (-12.0, 58.5), (-28.0, 48.0), (-8.5, 56.6)],
    "NWG": [(2.0, 66.0), (-8.0, 66.0), (8.0, 70.0), (-3.5, 60.0), (16.0, 72.5)],
    "BAR": [(36.0, 73.0), (28.0, 72.5), (44.0, 70.5), (40.0, 67.5)],
    "MAO": [(-14.0, 43.0), (-8.0, 46.0), (-13.0, 36.5), (-20.0, 38.0), (-4.0, 45.0),
            (-9.0, 34.0), (-12.0, 50.0), (-7.4, 36.6), (-3.5, 47.2)],
    "IRI": [(-5.4, 53.2), (-6.8, 51.4), (-4.6, 54.4)],
    "ENG": [(-3.0, 49.9), (0.2, 50.2), (-4.6, 49.5), (1.2, 50.7)],
    "NTH": [(2.6, 55.0), (3.0, 57.6), (1.0, 57.5), (2.2, 53.0), (4.0, 60.5), (6.8, 56.7)],
    "HEL": [(7.8, 54.3), (8.0, 55.0)],
    "SKA": [(9.6, 57.9), (11.2, 57.6)],
    "BAL": [(18.4, 55.2), (15.2, 54.8), (20.0, 57.8), (21.4, 57.9), (13.0, 54.5)],
    "BOT": [(20.2, 62.0), (22.6, 64.8), (19.6, 60.3), (25.0, 65.3), (23.0, 60.1), (21.5, 59.4)],
    "LYO": [(4.6, 42.6), (6.8, 42.8), (3.8, 41.3), (8.6, 43.8)],
    "WES": [(1.8, 38.4), (4.2, 39.6), (-1.8, 36.5), (7.0, 38.4), (6.8, 37.2)],
    "TYS": [(11.6, 40.0), (10.2, 41.6), (13.0, 38.8), (11.4, 37.4)],
    "ION": [(18.5, 36.0), (16.4, 38.0), (22.0, 36.4), (19.8, 39.2), (14.8, 34.0)],
    "ADR": [(15.6, 42.8), (13.2, 44.5), (18.4, 41.2)],
    "AEG": [(25.0, 38.6), (24.4, 40.3), (25.5, 36.5), (26.0, 39.8)],
    "EAS": [(30.8, 34.0), (34.5, 34.0), (27.0, 34.5), (35.5, 36.3)],
    "BLA": [(34.0, 43.4), (30.4, 43.0), (38.2, 42.6), (31.0, 45.3), (29.0, 41.9), (36.5, 45.8)],
}

#: water drawn as land: the Sea of Marmara and its straits, so that Constantinople is the
#: land bridge it is on the board (the Black and Aegean Seas do not meet)
FILLED = [[(26.1, 40.0), (26.7, 40.55), (27.4, 40.75), (28.8, 41.15), (29.15, 41.35),
           (29.4, 41.2), (29.4, 40.35), (27.6, 40.25), (26.6, 39.95)]]

#: each split province's coasts and the seas a fleet on that coast touches
COASTS = {
    "STP/NC": ("BAR",), "STP/SC": ("BOT",),
    "SPA/NC": ("MAO",), "SPA/SC": ("LYO", "WES"),
    "BUL/EC": ("BLA",), "BUL/SC": ("AEG",),  # noqa
}
#: coasts whose sea also touches the other coast's stretch: kept to this side of the province
COAST_SIDE = {"SPA/NC": "north"}

# -- the projection: Lambert conformal conic, standard parallels 40 and 62, meridian 14 E --

PHI1, PHI2, PHI0, LAM0 = map(math.radians, (40.0, 62.0, 52.0, 14.0))
_N = (math.log(math.cos(PHI1) / math.cos(PHI2))
      / math.log(math.tan(math.pi / 4 + PHI2 / 2) / math.tan(math.pi / 4 + PHI1 / 2)))
_F = math.cos(PHI1) * math.tan(math.pi / 4 + PHI1 / 2) ** _N / _N
_RHO0 = _F / math.tan(math.pi / 4 + PHI0 / 2) ** _N

#: the corners of the board (longitude, latitude): top left, bottom right after projection
VIEW_WEST, VIEW_NORTH = (-19.0, 52.0), (22.0, 73.6)
VIEW_EAST, VIEW_SOUTH = (45.0, 40.0), (14.0, 31.2)


def lcc(lon: float, lat: float) -> tuple[float, float]:
    lam, phi = math.radians(lon), math.radians(lat)
    rho = _F / math.tan(math.pi / 4 + phi / 2) ** _N
    return rho * math.sin(_N * (lam - LAM0)), _RHO0 - rho * math.cos(_N * (lam - LAM0))


def _fit() -> tuple[float, float, float]:
    left = lcc(*VIEW_WEST)[0]
    right = lcc(*VIEW_EAST)[0]
    top = lcc(*VIEW_NORTH)[1]
    bottom = lcc(*VIEW_SOUTH)[1]
    scale = min(MAP_WIDTH / (right - left), HEIGHT / (top - bottom))
    # the other way round, the view is centred
    left -= (MAP_WIDTH / scale - (right - left)) / 2
    top += (HEIGHT / scale - (top - bottom)) / 2
    return scale, left, top


_SCALE, _LEFT, _TOP = _fit()


#: Britain drawn larger, as on the board, by a smooth lens (centre longitude and latitude,
#: radius in pixels, magnification at the centre); outside its radius nothing moves
LENSES = [((-2.8, 54.6), 190.0, 2.1)]


def _lens(x: float, y: float) -> tuple[float, float]:
    for (lon, lat), radius, k in LENSES:
        cx, cy = _plain(lon, lat)
        r = math.hypot(x - cx, y - cy)
        if 0 < r < radius:
            f = 1 + (k - 1) * (1 - r / radius) ** 2      # monotonic while k < 4
            x, y = cx + (x - cx) * f, cy + (y - cy) * f
    return x, y


def _plain(lon: float, lat: float) -> tuple[float, float]:
    x, y = lcc(lon, lat)
    return (x - _LEFT) * _SCALE, (_TOP - y) * _SCALE


def project(lon: float, lat: float) -> tuple[float, float]:
    return _lens(*_plain(lon, lat))


# -- TopoJSON ---------------------------------------------------------------------------

def read_land(path: str) -> MultiPolygon:
    """The land of a TopoJSON file (world-atlas's ``land`` Any), projected."""
    with open(path, encoding="utf-8") as fh:
        topo = json.load(fh)
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)

    def ring(indices: Iterable[int]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for i in indices:
            pts = arcs[i] if i >= 0 else arcs[~i][::-1]
            out.extend(pts[1:] if out else pts)
        return out

    polys = []
    for geom in topo["objects"]["land"]["geometries"]:
        parts = geom["arcs"] if geom["type"] == "MultiPolygon" else [geom["arcs"]]
        for part in parts:
            rings = [ring(r) for r in part]
            outer = rings[0]
            lons = [p[0] for p in outer]
            lats = [p[1] for p in outer]
            if max(lons) < -45 or min(lons) > 70 or max(lats) < 20 or min(lats) > 85:
                continue
            shell = [project(*p) for p in outer]
            holes = [[project(*p) for p in r] for r in rings[1:]]
            poly = Polygon(shell, holes).buffer(0)
            if not poly.is_empty:
                polys.append(poly)
    polys += [Polygon([project(*p) for p in ring]) for ring in FILLED]
    return unary_union(polys)


# -- the cells ---------------------------------------------------------------------------

def cells(seeds: dict[str, list[tuple[float, float]]], frame: Polygon) -> dict[str, Any]:
    """Owner -> the union of its seeds' Voronoi cells, inside ``frame``."""
    points, owners = [], []
    for owner, pts in seeds.items():
        for p in pts:
            points.append(Point(project(*p)))
            owners.append(owner)
    regions = shapely.voronoi_polygons(shapely.MultiPoint(points), extend_to=frame.buffer(400))
    by_owner: dict[str, list[Any]] = {}
    for region in regions.geoms:
        for i, p in enumerate(points):
            if region.contains(p):
                by_owner.setdefault(owners[i], []).append(region)
                break
    return {o: unary_union(rs).intersection(frame) for o, rs in by_owner.items()}


def parts(geom: Any, min_area: float) -> list[Polygon]:
    geoms = list(getattr(geom, "geoms", [geom]))
    return [g for g in geoms if isinstance(g, Polygon) and g.area >= min_area]


def _rehome_strays(shapes: dict[str, Any]) -> None:
    """A piece of land cut off from its province's seeds by water (the tip of Kent in
    Picardy's cell, say) goes to the province it shares the longest border with."""
    seeds = {o: [Point(project(*p)) for p in pts] for o, pts in {**LAND, **NEUTRAL}.items()}
    for owner in list(seeds):
        pieces = parts(shapes[owner], 0.0)
        keep: list[Any] = []
        strays: list[Any] = []
        for g in pieces:
            home = any(g.distance(s) < 2.0 for s in seeds[owner]) or g.area > 1500
            (keep if home else strays).append(g)
        for g in strays:
            touching = [(shapes[o].intersection(g.buffer(0.5)).area, o) for o in seeds if o != owner]
            area, other = max(touching)
            if area > 0.2:
                shapes[other] = unary_union([shapes[other], g])
            else:
                keep.append(g)                   # an island of its own
        shapes[owner] = unary_union(keep)


def path_data(geom: Any) -> str:
    out = []
    for poly in parts(geom, 0.0):
        for r in [poly.exterior, *poly.interiors]:
            coords = list(r.coords)[:-1]
            out.append("M" + " ".join(f"{x:.1f},{y:.1f}" for x, y in coords) + "Z")
    return "".join(out)


def line_data(line: Any) -> str:
    lines = list(getattr(line, "geoms", [line]))
    out = []
    for ln in lines:
        if isinstance(ln, LineString) and ln.length > 0:
            out.append("M" + " ".join(f"{x:.1f},{y:.1f}" for x, y in ln.coords))
    return "".join(out)


def label_spot(shape: Any, avoid: list[tuple[float, float, float]], boxes: list[Any],
               left: float, right: float, near: tuple[float, float]) -> tuple[float, float]:
    """A spot for a label reaching ``left`` and ``right`` of its centre (11 high), clear
    of ``avoid`` (x, y, radius: units) and ``boxes`` (other labels) by 1.5 pixels, as
    near ``near`` as can be: inside ``shape`` if it has room, else just outside."""
    candidates = sorted(((x, y) for x in range(-300, 301, 2) for y in range(-300, 301, 2)),
                        key=lambda c: math.hypot(*c))
    outside = None
    for dx, dy in candidates:
        x, y = near[0] + dx, near[1] + dy
        if not (left + 2 <= x <= MAP_WIDTH - right - 2 and 8 <= y <= HEIGHT - 8):
            continue
        dist = math.hypot(dx, dy)
        if outside is not None and dist > 30:
            return outside
        rect = box(x - left, y - 5.5, x + right, y + 5.5)
        if not (all(rect.distance(Point(ax, ay)) > ar + 1.5 for ax, ay, ar in avoid)
                and all(rect.distance(b) > 1.5 for b in boxes)):
            continue
        if shape.contains(rect.buffer(1.0)):
            return (x, y)
        if outside is None and dist <= 45:
            outside = (x, y)
    if outside is None:
        raise SystemExit(f"no room for a label near {near}")
    return outside


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    frame = box(0, 0, MAP_WIDTH, HEIGHT)
    land = read_land(argv[0]).intersection(frame)
    water = frame.difference(land)
    land_cells = cells({**LAND, **NEUTRAL}, frame)
    sea_cells = cells(SEA, frame)
    shapes: dict[str, Any] = {}
    for owner, cell in land_cells.items():
        shapes[owner] = unary_union(parts(cell.intersection(land), 4.0))
    _rehome_strays(shapes)
    for owner in land_cells:
        shapes[owner] = shapes[owner].simplify(SIMPLIFY)
    for owner, cell in sea_cells.items():
        pieces = parts(cell.intersection(water), 1.0)
        seed_points = [Point(project(*p)) for p in SEA[owner]]
        # a sea is the water its seeds are in (and the bays and straits joined to it)
        kept = [g for g in pieces if any(g.distance(s) < 1.0 for s in seed_points) or g.area > 400]
        shapes[owner] = unary_union(kept).simplify(SIMPLIFY)

    rows = ["# Made by solver/data/build_map_shapes.py from Natural Earth 1:50m land (public domain, "
            "via the npm package world-atlas 2.0.2, ISC); province borders drawn by dipsolve.",
            "id\tkind\tx\ty\tlx\tly\tpath"]
    terrain = {}
    for line in open(__file__.replace("build_map_shapes.py", "standard.map"), encoding="utf-8"):
        f = line.split()
        if f[:1] == ["province"]:
            terrain[f[1]] = f[2]
            if "center" in f:
                CENTERS.add(f[1])
    labels: list[tuple[float, float, float]] = []
    units: dict[str, tuple[float, float]] = {}
    for prov in sorted({*LAND, *SEA}):
        main_part = max(parts(shapes[prov], 0.0), key=lambda g: g.area)
        c = polylabel(main_part, tolerance=0.5)
        units[prov] = project(*UNIT_AT[prov]) if prov in UNIT_AT else (c.x, c.y)
    coast_rows = []
    coast_units: dict[str, tuple[float, float]] = {}
    for loc, seas in COASTS.items():
        prov = loc.split("/")[0]
        shape = shapes[prov]
        touch = unary_union([shapes[s] for s in seas]).buffer(1.5)
        stretch = shape.boundary.intersection(touch)
        stretch = shapely.line_merge(stretch) if stretch.geom_type == "MultiLineString" else stretch
        lines = [g for g in getattr(stretch, "geoms", [stretch]) if isinstance(g, LineString) and g.length > 0]
        if not lines:
            raise SystemExit(f"{loc}: the province touches none of {seas}")
        side = COAST_SIDE.get(loc)
        centre = shape.centroid
        cx, cy = centre.x, centre.y

        def on_side(g: LineString) -> float:
            m = g.interpolate(0.5, normalized=True)
            return {"north": cy - m.y, "south": m.y - cy, None: 1.0}[side]
        lines = [g for g in lines if g.length >= 8.0]
        good = [g for g in lines if on_side(g) > 0] or lines[:1]
        cx, cy = units[prov]
        main_line = max(good, key=lambda g: g.length)
        mid = main_line.interpolate(0.5, normalized=True)
        if loc in UNIT_AT:
            mid = Point(project(*UNIT_AT[loc]))
        ux, uy = cx - mid.x, cy - mid.y
        d = math.hypot(ux, uy) or 1.0
        inward = min(13.0, d * 0.5)
        coast_units[loc] = (mid.x + ux / d * inward, mid.y + uy / d * inward)
        coast_rows.append((loc, unary_union(good).simplify(SIMPLIFY)))
    avoid = [(x, y, 12.0) for x, y in units.values()] + [(x, y, 12.0) for x, y in coast_units.values()]
    avoid += [(x + 14, y + 13, 13.0) for x, y in units.values()]          # a dislodged unit
    boxes: list[Any] = []
    centers = {p for p, t in ((p, line) for p, line in terrain.items()) if p in CENTERS}
    for prov in sorted({*LAND, *SEA}):
        shape = max(parts(shapes[prov], 0.0), key=lambda g: g.area)
        x, y = units[prov]
        left = 23.0 if prov in centers else 12.0
        lx, ly = label_spot(shape, avoid, boxes, left, 12.0, (x, y + 20))
        boxes.append(box(lx - left, ly - 5.5, lx + 12.0, ly + 5.5))
        kind = terrain[prov]
        rows.append(f"{prov}\t{kind}\t{x:.1f}\t{y:.1f}\t{lx:.1f}\t{ly:.1f}\t{path_data(shapes[prov])}")
    for name in sorted(NEUTRAL):
        if name in shapes and not shapes[name].is_empty:
            c = shapes[name].representative_point()
            rows.append(f"{name}\tneutral\t{c.x:.1f}\t{c.y:.1f}\t{c.x:.1f}\t{c.y:.1f}\t{path_data(shapes[name])}")
    for loc, line in coast_rows:
        x, y = coast_units[loc]
        rows.append(f"{loc}\tcoast-line\t{x:.1f}\t{y:.1f}\t{x:.1f}\t{y:.1f}\t{line_data(line)}")
    sys.stdout.write("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
