"""Check, and gently repair, the hand-made layout of dipsolve's board picture.

``solver/data/coords.tsv`` places every province and coast of the board graph (laid out
by hand after the board's geography; no map or coordinates taken from elsewhere) and a
few bend points (``MAO-WES``: that edge is drawn through the point).  A good layout has
no two nodes on top of each other and no edge running through a node it does not join;
tests/test_render.py asserts both.  This tool lists the faults, and with ``--fix`` moves
the nodes a few pixels at a time (a deterministic local search that keeps every node as
near its hand-made place as it can) until none is left, then rewrites the file.

    python tests/tools/layout_coords.py          # list faults
    python tests/tools/layout_coords.py --fix    # repair and rewrite coords.tsv
"""

from __future__ import annotations

import argparse
import math
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COORDS = ROOT / "solver" / "data" / "coords.tsv"

#: smallest distances the picture needs (its node radii are 19 and 8)
NODE_GAP = 50.0          # two province nodes, center to center
COAST_GAP = 30.0         # a coast node and another node
EDGE_CLEARANCE = 6.0     # between an edge and the rim of a node it passes


def read(path: Path = COORDS) -> tuple[list[str], dict[str, tuple[float, float]]]:
    header: list[str] = []
    places: dict[str, tuple[float, float]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("location\t"):
            header.append(line)
            continue
        if line.strip():
            name, x, y = line.split("\t")
            places[name] = (float(x), float(y))
    return header, places


def write(header: list[str], places: dict[str, tuple[float, float]], path: Path = COORDS) -> None:
    rows = [f"{k}\t{round(x)}\t{round(y)}" for k, (x, y) in places.items()]
    path.write_text("\n".join(header + rows) + "\n", encoding="utf-8")


def segment_distance(p, a, b) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy or 1.0
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length))
    return math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1])


def faults(places: dict[str, tuple[float, float]]) -> list[tuple[float, str]]:
    """(how bad, what) for every fault of the layout; none for a good one."""
    from dipsolve.map import standard_map
    from dipsolve.pictures_board import R, RC, board_edges as _edges
    m = standard_map()
    nodes = {k: v for k, v in places.items() if k in m.province_of}
    prov = m.province_of
    out: list[tuple[float, str]] = []
    names = sorted(nodes)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            gap = NODE_GAP if "/" not in a + b else COAST_GAP
            d = math.dist(nodes[a], nodes[b])
            if d < gap:
                out.append((gap - d, f"{a} and {b} are {d:.0f} apart (at least {gap:.0f})"))
    for a, b, _ in _edges(m):
        bend = places.get(f"{a}-{b}") or places.get(f"{b}-{a}")
        path = [nodes[a], *([bend] if bend else []), nodes[b]]
        for loc, p in nodes.items():
            if prov[loc] in (prov[a], prov[b]):
                continue
            need = (RC if "/" in loc else R) + EDGE_CLEARANCE
            d = min(segment_distance(p, s, t) for s, t in zip(path, path[1:]))
            if d < need:
                out.append((need - d, f"edge {a}-{b} passes {d:.0f} from {loc} (at least {need:.0f})"))
    return out


def cost(places, home) -> float:
    bad = sum(10.0 + x * x for x, _ in faults(places))
    moved = sum(math.dist(places[k], home[k]) ** 2 for k in home)
    return bad * 100 + moved * 0.01


def fix(places: dict[str, tuple[float, float]], rounds: int = 4000, seed: int = 1) -> dict[str, tuple[float, float]]:
    rng = random.Random(seed)
    home = dict(places)
    best = dict(places)
    score = cost(best, home)
    movable = sorted(k for k in places if "-" not in k)
    for _ in range(rounds):
        if not faults(best):
            break
        k = rng.choice(movable)
        x, y = best[k]
        trial = dict(best)
        trial[k] = (x + rng.choice((-6, -3, 3, 6)), y + rng.choice((-6, -3, 0, 3, 6)))
        s = cost(trial, home)
        if s < score:
            best, score = trial, s
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fix", action="store_true", help="move nodes until no fault is left, rewrite the file")
    ap.add_argument("--rounds", type=int, default=4000)
    args = ap.parse_args()
    header, places = read()
    if args.fix:
        places = fix(places, args.rounds)
    found = faults(places)
    for _, what in sorted(found, reverse=True):
        print(what)
    print(f"{len(found)} faults")
    if args.fix:
        write(header, places)


if __name__ == "__main__":
    main()
