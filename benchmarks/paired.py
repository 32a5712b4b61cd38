"""Two runs of `benchmarks/play.py` compared game by game, with the trap of stopping early.

    python benchmarks/paired.py BASE.json NEW.json              # the first series of each
    python benchmarks/paired.py BASE_a.json,BASE_b.json NEW.json --json
    python benchmarks/paired.py BASE.err NEW.err                # play.py's per-game lines
    python benchmarks/paired.py BASE.json NEW.json --year 1910  # as the games stood then

Each run is one or more files joined by commas (the halves of a run split by ``--seed``):
``play.py --json`` output (its first one-seat series, or ``--series LABEL``; the games
from ``per_game``), or the lines ``play.py`` writes on stderr, ``game seed N: ...; BOT as
POWER: C centers``.  Printed: each run's games, solos and mean centers with 95% intervals;
on the seeds both played, the mean difference NEW − BASE with its 95% interval; and the
correlation of the two runs' centers over those seeds.  ``--year Y`` (JSON runs) compares
the games as they stood at the end of year Y (``per_game``'s ``centers_by_year``; a solo
counts if it came by then): a run to 1935 beside one to 1910, on the same seeds.

**Stopping early.**  Two different seats' games on the same seed are only loosely related
(dipsolve's seats against six DumbBots: correlation 0.13–0.38 over 70 seeds, 2026-11-27),
so pairing removes little of a game's chance.  When NEW has played only some of BASE's
seeds, the difference on them carries BASE's luck on those seeds: if BASE's mean there
is X above its mean over all its seeds, a NEW exactly as strong is expected to be behind
by about (1 − r) · X.  That figure is printed beside the difference, with a warning, when
NEW covers part of BASE's seeds.  The remedy is to play the seeds to the end.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys

from play import mean_interval      # the interval play.py prints, beside this file

LINE = re.compile(r"game seed (\d+): (.*?); (\S+) as (\w+): (\d+) centers")


class Unreadable(Exception):
    """A run that could not be read: the file and why."""


def _at_year(game: dict, year: int | None) -> tuple[int, bool]:
    """A game's (centers, solo) at its end, or at the end of ``year``."""
    if year is None:
        return int(game["centers"]), bool(game["solo"])
    played = {int(y): int(c) for y, c in game.get("centers_by_year", {}).items()}
    known = [y for y in played if y <= year]
    if not known:
        raise Unreadable(f"game seed {game['seed']} has no centers by the end of {year}")
    return played[max(known)], bool(game["solo"]) and max(played) <= year


def _games(path: str, series: str | None, year: int | None = None) -> dict[int, tuple[int, bool]]:
    """Seed -> (centers, solo) of the one dipsolve seat in one file."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as e:
        raise Unreadable(f"{path}: cannot read it ({e.strerror})") from None
    except UnicodeDecodeError:
        raise Unreadable(f"{path}: not UTF-8 text") from None
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise Unreadable(f"{path}:{e.lineno}:{e.colno}: not JSON ({e.msg})") from None
        rows = [r for r in data.get("series", []) if isinstance(r, dict) and "per_game" in r
                and (series is None or r.get("series") == series)]
        if not rows:
            named = f" named {series!r}" if series else ""
            raise Unreadable(f"{path}: no series{named} with per-game results (play.py --json "
                             f"writes them since 2026-11-27)")
        return {int(g["seed"]): _at_year(g, year) for g in rows[0]["per_game"]}
    if year is not None:
        raise Unreadable(f"{path}: --year reads play.py --json runs, not its per-game lines")
    out = {}
    for line in text.splitlines():
        m = LINE.search(line)
        if m:
            seat = m.group(4)
            out[int(m.group(1))] = (int(m.group(5)), m.group(2).startswith(seat))
    if not out:
        raise Unreadable(f"{path}: no per-game line ('game seed N: ...; BOT as POWER: C centers')")
    return out


def _run(spec: str, series: str | None, year: int | None = None) -> dict[int, tuple[int, bool]]:
    out: dict[int, tuple[int, bool]] = {}
    for path in spec.split(","):
        out.update(_games(path, series, year))
    return out


def _correlation(xs: list[float], ys: list[float]) -> float | None:
    """Pearson's correlation; None with fewer than three pairs or a constant side."""
    if len(xs) < 3:
        return None
    try:
        return statistics.correlation(xs, ys)
    except statistics.StatisticsError:
        return None


def compare(base: dict[int, tuple[int, bool]], new: dict[int, tuple[int, bool]]) -> dict:
    """The figures of the module notes, as a dictionary."""
    out: dict = {}
    for name, run in (("base", base), ("new", new)):
        m, lo, hi = mean_interval([float(c) for c, _ in run.values()])
        out[name] = {"games": len(run), "solos": sum(s for _, s in run.values()),
                     "mean_centers": round(m, 2), "interval": [round(lo, 2), round(hi, 2)]}
    common = sorted(set(base) & set(new))
    out["common_seeds"] = len(common)
    if len(common) < 2:
        return out
    b = [float(base[s][0]) for s in common]
    n = [float(new[s][0]) for s in common]
    d, lo, hi = mean_interval([y - x for x, y in zip(b, n)])
    r = _correlation(b, n)
    out["difference"] = round(d, 2)
    out["difference_interval"] = [round(lo, 2), round(hi, 2)]
    out["correlation"] = None if r is None else round(r, 2)
    base_here = sum(b) / len(b)
    base_all = sum(c for c, _ in base.values()) / len(base)
    out["base_on_common"] = round(base_here, 2)
    out["base_on_all"] = round(base_all, 2)
    if len(common) < len(base) and r is not None:
        out["expected_if_equal"] = round(-(1 - r) * (base_here - base_all), 2)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("base", help="the baseline run: play.py --json or stderr files, joined by commas")
    p.add_argument("new", help="the run compared with it, the same way")
    p.add_argument("--series", help="the series label to read from JSON (default: the first one-seat series)")
    p.add_argument("--year", type=int, help="compare the games as they stood at the end of this year "
                                                "(JSON runs)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = p.parse_args(argv)
    try:
        base, new = _run(args.base, args.series, args.year), _run(args.new, args.series, args.year)
    except Unreadable as e:
        if args.json:
            print(json.dumps({"error": str(e)}))
        else:
            print(f"paired.py: {e}", file=sys.stderr)
        return 2
    out = compare(base, new)
    if args.json:
        print(json.dumps(out))
        return 0
    for name in ("base", "new"):
        r = out[name]
        print(f"{name:4s} {r['games']:3d} games, {r['solos']:2d} solos, mean centers "
              f"{r['mean_centers']:.2f} ({r['interval'][0]:.2f}-{r['interval'][1]:.2f})")
    if "difference" not in out:
        print(f"only {out['common_seeds']} seed(s) in common: no difference")
        return 0
    lo, hi = out["difference_interval"]
    corr = "n/a" if out["correlation"] is None else f"{out['correlation']:.2f}"
    print(f"new - base on the {out['common_seeds']} seeds both played: {out['difference']:+.2f} "
          f"({lo:+.2f} to {hi:+.2f}); correlation {corr}")
    if "expected_if_equal" in out:
        print(f"warning: base scored {out['base_on_common']:.2f} on these seeds and "
              f"{out['base_on_all']:.2f} on all {len(base)}; a new run exactly as strong is "
              f"expected at {out['expected_if_equal']:+.2f} here (stopped early: play the rest)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
