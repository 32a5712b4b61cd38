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
                          time_limit=args.time_limit, rotate=True, jobs=args.jobs, on_game=on_game)
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


def _print_compare(c: dict) -> None:
    print(f"{c['series']} ({c['games']} games)")
    print(f"  {c['bot']:<20} solo {100 * c['win_rate']:5.1f}%   eliminated "
          f"{100 * c['elimination_rate']:5.1f}%   mean centers {c['mean_centers']:5.2f}"
          f"   longest phase {c['max_seconds']:.2f} s")
    print(f"  {c['others']:<20} solo {100 * c['others_win_rate']:5.1f}%   eliminated "
          f"{100 * c['others_elimination_rate']:5.1f}%   mean centers {c['others_mean_centers']:5.2f}"
          f"   (per seat)")
    print(f"  centers ratio {c['center_ratio']:.2f}x   wall {c['wall_seconds']:.0f} s")


def main(argv=None) -> int:
    from dipsolve.bots import BotUnavailable, DipsolveBot, DumbBotPlayer, RandomBot

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=70, help="games per series (default 70)")
    p.add_argument("--until", type=int, default=1910, help="last year played (default 1910)")
    p.add_argument("--time-limit", type=float, default=2.0, help="seconds a dipsolve phase (default 2)")
    p.add_argument("--method", default="agenda", help="dipsolve's search method (default agenda)")
    p.add_argument("--opponents", default="sampled",
                   help="dipsolve's opponent model: sampled (default), worst, expected or hold")
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
                 "jobs": args.jobs, "opponents": args.opponents,
                 "series": []}
    if args.only != "references":
        bot = DipsolveBot(args.method, opponents=args.opponents)
        try:
            bot.check()
        except BotUnavailable as e:
            out["dipsolve_unavailable"] = str(e)
        else:
            _, rows, secs = _series("dipsolve vs 6 DumbBots", [bot] + [dumb] * 6, args, args.quiet)
            out["series"].append(_compare("1 dipsolve vs 6 DumbBots", bot.name, rows, secs))
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
