"""Where a seat's supply centers come from and go: gains and losses by kind, free centers left, builds missed.

A seat's final count is what it gained less what it lost, and a seat that gains 22
centers in a game and loses 11 of them plays differently from one that gains 12 and loses
one.  For one power of each game, every Fall's changes of ownership are sorted:

* **gained**: centers it owns after the Fall and did not before;
* **lost**, by how the center stood when the Fall's moves began: *held* (its own unit
  stood in it: dislodged, or it moved out and another moved in), *empty* (split by whether
  its unit had stood there in the Spring before and moved out, or it was empty then too),
  or *occupied* (a foreign unit already stood in it since the Spring);
* **free centers**: the Fall chances of a center it did not own, empty, next to one of its
  units and out of every foreign unit's reach (a move there cannot fail), and how many it
  took;
* **builds**: those owed in each winter that was played, those made, and those short of a
  site (fewer owned empty home centers than builds owed), of which because its own units
  stood in its home centers.

    python benchmarks/center_flow.py GAMES_DIR --rotate          # dipsolve play --rotate --save GAMES_DIR
    python benchmarks/center_flow.py game-3.json --power Germany --json

``benchmarks/play.py`` reports the same for the dipsolve seat of every series it plays.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import sys
from collections import Counter
from typing import Iterable

#: the figures, in the order they are printed, with their labels
FIGURES = (
    ("gained", "centers gained"),
    ("lost", "centers lost"),
    ("lost_held", "  held by its unit when the Fall began"),
    ("lost_empty", "  empty when the Fall began"),
    ("lost_empty_left", "    its unit had left it in the Spring"),
    ("lost_occupied", "  a foreign unit stood in it since the Spring"),
    ("free_chances", "free centers in reach (Fall)"),
    ("free_taken", "  taken"),
    ("builds_owed", "builds owed"),
    ("builds_made", "  made"),
    ("builds_short", "  short of a site"),
    ("builds_short_own", "    its own units in its home centers"),
)


def flow(game, power: str) -> Counter:
    """The figures of `FIGURES` for ``power`` in ``game`` (a `dipsolve.io.game.Game`)."""
    from dipsolve.core.graph import reachable_provinces
    from dipsolve.core.orders import Build, Move

    out: Counter = Counter()
    phases = list(game.phases)
    spring = None
    for k, ph in enumerate(phases):
        pos = ph.position
        m = pos.map
        if pos.phase.kind == "movement" and pos.phase.season == "Spring":
            spring = pos
        if pos.phase.kind == "adjustment" and k + 1 < len(phases):
            owed = pos.adjustment(power)
            if owed > 0:
                sites = len(pos.buildable(power))
                own_in_homes = sum(1 for h in m.homes.get(power, ()) if pos.owner.get(h) == power
                                   and h in pos.unit_in and pos.unit_in[h].power == power)
                short = owed - min(owed, sites)
                out["builds_owed"] += owed
                out["builds_made"] += sum(isinstance(o, Build) for o in ph.orders.get(power, ()))
                out["builds_short"] += short
                out["builds_short_own"] += min(short, own_in_homes)
        if not (pos.phase.kind == "movement" and pos.phase.season == "Fall"):
            continue
        after = next((q.position for q in phases[k + 1:] if q.position.phase.season != "Fall"), None)
        if after is None:
            after = game.position if game.position.phase.season != "Fall" else None
        if after is None:
            continue
        before = {c for c, o in pos.owner.items() if o == power}
        now = {c for c, o in after.owner.items() if o == power}
        out["gained"] += len(now - before)
        for c in before - now:
            out["lost"] += 1
            unit = pos.unit_in.get(c)
            if unit is None:
                out["lost_empty"] += 1
                was = spring.unit_in.get(c) if spring is not None else None
                if was is not None and was.power == power:
                    out["lost_empty_left"] += 1
            elif unit.power == power:
                out["lost_held"] += 1
            else:
                out["lost_occupied"] += 1
        # where its units and the others' can move without a convoy
        mine: set[str] = set()
        foreign: set[str] = set()
        for u in pos.units:
            (mine if u.power == power else foreign).update(reachable_provinces(m, u))
        free = {t for t in mine - foreign
                if t in m.centers and pos.owner.get(t) != power and t not in pos.unit_in}
        moved = {m.province_of[o.target] for o in ph.orders.get(power, ()) if isinstance(o, Move)}
        out["free_chances"] += len(free)
        out["free_taken"] += len(free & moved)
    return out


def centers_by_year(game, power: str) -> dict[int, int]:
    """``power``'s supply centers at the end of each year the game played: once that year's
    Fall and its retreats are over (a retreat into a center takes it), in the Winter or the
    Spring after it; a game that stopped in a Fall (a solo) ends with that Fall's count, as
    its retreats would leave it."""
    from dipsolve.core.position import centers

    positions = [ph.position for ph in game.phases] + [game.position]
    out: dict[int, int] = {}
    for pos in positions[1:]:      # the first is the start: no year played yet
        ph = pos.phase
        if ph.season == "Fall" and (ph.kind == "movement" or pos is not game.position):
            continue
        year = ph.year - 1 if ph.season == "Spring" else ph.year
        out.setdefault(year, int(centers(pos, power)))
    return out


def summary(counts: Iterable[Counter]) -> dict:
    """Per game: the mean of each figure over ``counts`` (one a game), and the games."""
    counts = list(counts)
    n = len(counts)
    return {"games": n, **{key: round(sum(c[key] for c in counts) / n, 2) if n else 0.0
                           for key, _ in FIGURES}}


def print_summary(s: dict, title: str) -> None:
    print(f"{title}: {s['games']} games, per game")
    for key, label in FIGURES:
        print(f"  {label:<48} {s[key]:6.2f}")


def _number(path: str) -> int | None:
    hit = re.search(r"(\d+)\.json$", os.path.basename(path))
    return int(hit.group(1)) if hit else None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog="Games are the files `dipsolve play --save DIR` writes "
                                       "(DIR/game-K.json), or any saved-game JSON.")
    p.add_argument("games", nargs="+", help="saved games, or directories of them")
    seat = p.add_mutually_exclusive_group(required=True)
    seat.add_argument("--power", help="the power followed in every game")
    seat.add_argument("--rotate", action="store_true",
                     help="game-K.json's power is the K-th of the seven, K modulo 7, as "
                          "`dipsolve play --rotate` seats its first bot")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = p.parse_args(argv)
    from dipsolve.core.errors import DipsolveError
    from dipsolve.core.map import POWERS
    from dipsolve.core.names import check_power
    from dipsolve.io.game import Game

    files: list[str] = []
    for g in args.games:
        if not os.path.exists(g):
            p.error(f"{g!r}: no such file or directory")
        files += sorted(glob.glob(os.path.join(g, "*.json")), key=lambda f: (_number(f) or 0, f)) \
            if os.path.isdir(g) else [g]
    if not files:
        p.error("no saved games found")
    counts = []
    try:
        power = check_power(args.power) if args.power else None
        for f in files:
            who = power
            if who is None:
                k = _number(f)
                if k is None:
                    p.error(f"--rotate: {f!r} is not named game-K.json")
                who = POWERS[k % len(POWERS)]
            counts.append(flow(Game.load(f), who))
    except DipsolveError as e:
        print(f"center_flow: {e}", file=sys.stderr)
        return 2
    s = summary(counts)
    if args.json:
        print(json.dumps(s))
    else:
        print_summary(s, power or "the rotated seat")
    return 0


if __name__ == "__main__":
    sys.exit(main())
