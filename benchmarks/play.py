"""Play strength: one dipsolve bot against six DumbBots, and DumbBot against random play.

Issue 6's test of dipsolve's search in play: every game seats one dipsolve bot and six
DumbBots (David Norman's, `dipsolve.dumbbot`), the dipsolve seat moving one power on
each game (``--rotate``: over 7 games it plays each power once), from the 1901 start to
the end of ``--until`` or a solo (18 centers), ``--time-limit`` seconds for each of its
phases.  Reported: dipsolve's solo-win rate, elimination rate and mean final center
count per game against the same figures per DumbBot seat, and their ratio.  The goal
set by the issue: more than twice DumbBot's mean centers, and solos in at least a
quarter of its games.

Two reference series put those numbers in scale: one DumbBot against six random bots
(does DumbBot beat random play?) and seven DumbBots (the per-seat figures of DumbBot
among its equals).

    python benchmarks/play.py                          # 70 games to 1910 at 2 s a move
    python benchmarks/play.py --jobs 2                 # the same, two games at once
    python benchmarks/play.py --games 7 --until 1903 --time-limit 0.5 --method cpsat
    python benchmarks/play.py --json

Speed and strength are measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time


def _series(label: str, seating, args, quiet: bool):
    from dipsolve.map import POWERS
    from dipsolve.play import play_series, results_table

    started = time.perf_counter()

    def on_game(record):
        if not quiet:
            winner = f"{record.winner} ({record.seats[record.winner]})" if record.winner else "no solo"
            seat = record.result(POWERS[(record.seed - args.seed) % len(POWERS)])   # the rotated first seat
            print(f"  {label}: game seed {record.seed}: {winner}; {seat.bot} as {seat.power}: "
                  f"{seat.centers} centers, {record.seconds:.1f} s", file=sys.stderr, flush=True)

    records = play_series(seating, args.games, seed=args.seed, until=args.until,
                          time_limit=args.time_limit, rotate=True, jobs=args.jobs, on_game=on_game,
                          clock=args.clock)
    rows = {row.bot: row for row in results_table(records)}
    return records, rows, time.perf_counter() - started


def _compare(label: str, one: str, rows, seconds: float) -> dict:
    lone, rest = rows[one], [r for b, r in rows.items() if b != one][0]
    ratio = lone.centers / rest.centers if rest.centers else float("inf")
    return {"series": label, "bot": one, "games": lone.games,
            "win_rate": lone.win_rate, "elimination_rate": lone.elimination_rate,
            "mean_centers": lone.centers, "max_seconds": lone.max_seconds,
            "others": rest.bot, "others_win_rate": rest.win_rate,
            "others_elimination_rate": rest.elimination_rate,
            "others_mean_centers": rest.centers, "center_ratio": ratio, "wall_seconds": seconds}


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of ``k`` successes in ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return (max(0.0, mid - half), min(1.0, mid + half))


def mean_interval(xs: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """The mean of ``xs`` and its normal 95% interval."""
    n = len(xs)
    if n == 0:
        return (0.0, 0.0, 0.0)
    m = sum(xs) / n
    sd = (sum((x - m) ** 2 for x in xs) / (n - 1)) ** 0.5 if n > 1 else 0.0
    return (m, m - z * sd / n ** 0.5, m + z * sd / n ** 0.5)


def _intervals(records, bot: str) -> dict:
    """A seat's solos and centers with their 95% intervals, and its phases' times."""
    mine = [r for rec in records for r in rec.results if r.bot == bot]
    solos = sum(r.win for r in mine)
    lo, hi = wilson(solos, len(mine))
    m, clo, chi = mean_interval([float(r.centers) for r in mine])
    times = [sec for rec in records for ph in rec.phases for p, sec in ph.seconds.items()
             if rec.seats[p] == bot]
    return {"solos": solos, "solo_interval": [lo, hi], "centers_interval": [clo, chi],
            "phases": len(times), "max_phase_seconds": max(times, default=0.0),
            "phases_over_10pct": sum(t > 1.1 * records[0].time_limit for t in times) if records else 0}


def _print_compare(c: dict) -> None:
    print(f"{c['series']} ({c['games']} games)")
    print(f"  {c['bot']:<20} solo {100 * c['win_rate']:5.1f}%   eliminated "
          f"{100 * c['elimination_rate']:5.1f}%   mean centers {c['mean_centers']:5.2f}"
          f"   longest phase {c['max_seconds']:.2f} s")
    print(f"  {c['others']:<20} solo {100 * c['others_win_rate']:5.1f}%   eliminated "
          f"{100 * c['others_elimination_rate']:5.1f}%   mean centers {c['others_mean_centers']:5.2f}"
          f"   (per seat)")
    print(f"  centers ratio {c['center_ratio']:.2f}x   wall {c['wall_seconds']:.0f} s")
    if "solo_interval" in c:
        lo, hi = c["solo_interval"]
        clo, chi = c["centers_interval"]
        print(f"  95% intervals: solos {100 * lo:.0f}-{100 * hi:.0f}%, mean centers {clo:.2f}-{chi:.2f};"
              f" {c['phases']} phases, longest {c['max_phase_seconds']:.2f} s, "
              f"{c['phases_over_10pct']} over the limit by more than 10%")


def main(argv=None) -> int:
    from dipsolve.bots import BotUnavailable, DipsolveBot, DumbBotPlayer, RandomBot

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=70, help="games per series (default 70)")
    p.add_argument("--until", type=int, default=1910, help="last year played (default 1910)")
    p.add_argument("--time-limit", type=float, default=2.0, help="seconds a dipsolve phase (default 2)")
    p.add_argument("--method", default="agenda", help="dipsolve's search method (default agenda)")
    p.add_argument("--opponents", default="equilibrium",
                   help="dipsolve's opponent model: equilibrium (default), sampled, worst, expected or "
                        "hold; several, comma-separated, run one series each")
    p.add_argument("--clock", choices=("wall", "cpu"), default="cpu",
                   help="what a dipsolve phase's time limit is measured on (default cpu: this "
                        "process's CPU time, so other work on the machine does not shorten it)")
    p.add_argument("--jobs", type=int, default=1,
                   help="games played at once, one process each (default 1; at most one a core)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--only", choices=("dipsolve", "references"),
                   help="run only the dipsolve series, or only the two reference series")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no per-game lines on stderr")
    args = p.parse_args(argv)

    dumb, rand = DumbBotPlayer(), RandomBot()
    out: dict = {"date": time.strftime("%Y-%m-%d"), "nproc": os.cpu_count(), "games": args.games,
                 "until": args.until, "time_limit": args.time_limit, "seed": args.seed,
                 "jobs": args.jobs, "opponents": args.opponents, "clock": args.clock,
                 "series": []}
    if args.only != "references":
        for model in args.opponents.split(","):
            bot = DipsolveBot(args.method, opponents=model.strip(), clock=args.clock)
            try:
                bot.check()
            except BotUnavailable as e:
                out["dipsolve_unavailable"] = str(e)
                continue
            records, rows, secs = _series(f"{bot.name} vs 6 DumbBots", [bot] + [dumb] * 6, args, args.quiet)
            row = _compare(f"1 {bot.name} vs 6 DumbBots", bot.name, rows, secs)
            row.update(_intervals(records, bot.name))
            out["series"].append(row)
    if args.only != "dipsolve":
        _, rows, secs = _series("DumbBot vs 6 random", [dumb] + [rand] * 6, args, args.quiet)
        out["series"].append(_compare("1 DumbBot vs 6 random bots", "dumbbot", rows, secs))
        _, rows, secs = _series("7 DumbBots", [dumb] * 7, args, args.quiet)
        row = rows["dumbbot"]
        out["series"].append({"series": "7 DumbBots", "bot": "dumbbot", "games": row.games,
                              "win_rate": row.win_rate, "elimination_rate": row.elimination_rate,
                              "mean_centers": row.centers, "wall_seconds": secs})
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"# {out['date']}, nproc={out['nproc']}: {args.games} games a series, to {args.until}, "
          f"{args.time_limit} s a dipsolve phase, seeds {args.seed}..{args.seed + args.games - 1}, "
          f"seats rotated")
    if "dipsolve_unavailable" in out:
        print(f"dipsolve seat unavailable: {out['dipsolve_unavailable']}")
    for c in out["series"]:
        if c["series"] == "7 DumbBots":
            print(f"7 DumbBots ({c['games']} games)\n  dumbbot per seat: solo "
                  f"{100 * c['win_rate']:5.1f}%   eliminated {100 * c['elimination_rate']:5.1f}%"
                  f"   mean centers {c['mean_centers']:5.2f}   wall {c['wall_seconds']:.0f} s")
        else:
            _print_compare(c)
    return 0


if __name__ == "__main__":
    sys.exit(main())
