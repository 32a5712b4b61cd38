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

Issue 24 adds the models that know nobody's program: the phase game (``--opponents
equilibrium``, what ``solve`` plays) and a best response to a policy fitted to the orders
the table has given (``learned``, the default seat of ``dipsolve play`` and ``daide``), beside
the model that knows DumbBot's (``sampled``); ``--opponents learned,sampled`` (the default)
runs one series each, the issue's comparison in one run.  Then other fields for the six
other seats (``--field random``, ``greedy``, ``mixed``, ``dipsolve`` at
``--field-opponents``, and ``self``: seven copies, figures per power), the CPU clock for
the time per move (``--clock cpu``, the default here), and 95% intervals (Wilson for
solos, normal for mean centers) with every phase's time checked against the limit, and
where the seat's centers came from and went (gains; losses by how the center stood when the
Fall began; free centers left; builds short of a site: ``benchmarks/center_flow.py``).
``--json`` lists the seat's result in every game (``per_game``: seed, power, centers, solo,
and its centers at the end of each year played), which ``benchmarks/paired.py`` compares
between two runs on the same seeds; and ``by_year``: the seat's solos and mean centers by the
end of each year, so that one run to 1915 also says where the seat stood in 1910.
``--opponents clairvoyant`` is a bound, not a player: the seat is shown the others' orders
before it gives its own (`ClairvoyantSeat`).

    python benchmarks/play.py                          # 70 games to 1910 at 2 s a move, each model
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

from dipsolve.play.games import wilson      # the package's Wilson interval (its standings use it)


def _series(label: str, seating, args, quiet: bool):
    from dipsolve.core.map import POWERS
    from dipsolve.play.games import play_series, results_table

    started = time.perf_counter()

    def on_game(record):
        if not quiet:
            winner = f"{record.winner} ({record.seats[record.winner]})" if record.winner else "no solo"
            seat = record.result(POWERS[(record.seed - args.seed) % len(POWERS)])   # the rotated first seat
            print(f"  {label}: game seed {record.seed}: {winner}; {seat.bot} as {seat.power}: "
                  f"{seat.centers} centers, {record.seconds:.1f} s", file=sys.stderr, flush=True)

    from dipsolve.core.results import Limits
    limits = Limits(time_limit=args.time_limit, seed=args.seed, clock=args.clock)
    records = play_series(seating, args.games, limits=limits, until=args.until, rotate=True,
                          jobs=args.jobs, on_game=on_game, draw_after=args.draw_after or None)
    rows = {row.bot: row for row in results_table(records)}
    return records, rows, time.perf_counter() - started


def _compare(label: str, one: str, rows, seconds: float) -> dict:
    lone = rows[one]
    others = [r for b, r in rows.items() if b != one]
    seats = sum(r.seats for r in others)
    rest_centers = sum(r.centers * r.seats for r in others) / seats
    rest_win = sum(r.win_rate * r.seats for r in others) / seats
    rest_elim = sum(r.elimination_rate * r.seats for r in others) / seats
    ratio = lone.centers / rest_centers if rest_centers else float("inf")
    return {"series": label, "bot": one, "games": lone.games,
            "win_rate": lone.win_rate, "elimination_rate": lone.elimination_rate,
            "mean_centers": lone.centers, "max_seconds": lone.max_seconds,
            "others": "+".join(r.bot for r in others), "others_win_rate": rest_win,
            "others_elimination_rate": rest_elim,
            "others_mean_centers": rest_centers, "center_ratio": ratio, "wall_seconds": seconds,
            "by_bot": {r.bot: {"seats": r.seats, "win_rate": r.win_rate, "mean_centers": r.centers}
                       for r in others}}


class ClairvoyantSeat:
    """``--opponents clairvoyant``: not a player but a bound.  The seat orders after the
    six others and is shown their orders of the phase first (the harness's foresight,
    `dipsolve.play.games.play_game`); in a movement phase it plays the agenda search's best
    answer to exactly those orders (``solve``'s ``opponents="hold"`` with them as the
    ``background``); retreats and adjustments as the ``sampled`` seat.  What it gains over
    the seat that knows DumbBot's program (a best response to draws of it) is what
    DumbBot's chance is worth; over the default seat, what any opponent model could buy
    this search and evaluation at most."""

    foresees = True

    def __init__(self, method: str = "agenda", clock: str = "cpu") -> None:
        from dipsolve.play.bots import DipsolveBot
        from dipsolve.search.strategy import named
        self.inner = DipsolveBot(named(method, "sampled"), clock=clock)
        self._foreseen: tuple = (None, {})

    @property
    def name(self) -> str:
        return f"dipsolve:{self.inner.method}[clairvoyant]"

    def check(self) -> None:
        self.inner.check()

    def prepare(self) -> None:
        self.inner.prepare()

    def foresee(self, position, orders) -> None:
        self._foreseen = (position, dict(orders))

    def orders(self, position, power, deadline_s, rng):
        import dataclasses
        from dipsolve import api
        seen_at, seen = self._foreseen
        if position.phase.kind != "movement" or seen_at is not position:
            return self.inner.orders(position, power, deadline_s, rng)
        seed = rng.randrange(1 << 30)      # as every dipsolve seat draws its search's seed
        from dipsolve.search.strategy import Hold
        strategy = dataclasses.replace(self.inner.strategy, opponents=Hold(
            background={p: list(os) for p, os in seen.items() if p != power}))
        return list(api.solve(position, power, strategy, limits=self.inner.limits(deadline_s, seed)).orders)


#: the fields the dipsolve seat plays in (``--field``)
FIELDS = ("dumbbot", "random", "greedy", "mixed", "dipsolve", "self")


def field_seating(field: str, bot, args):
    """The seven bots of a series: the dipsolve seat first, then its field."""
    from dipsolve.play.bots import DipsolveBot, DumbBotPlayer, GreedyBot, RandomBot
    from dipsolve.search.strategy import named
    dumb, rand, greedy = DumbBotPlayer(), RandomBot(), GreedyBot()
    if field == "dumbbot":
        return [bot] + [dumb] * 6
    if field == "random":
        return [bot] + [rand] * 6
    if field == "greedy":
        return [bot] + [greedy] * 6
    if field == "mixed":
        return [bot, dumb, greedy, rand, dumb, greedy, rand]
    if field == "dipsolve":
        other = DipsolveBot(named(args.method, args.field_opponents), clock=args.clock)
        other.check()
        return [bot] + [other] * 6
    return [bot] * 7


def _per_power(records) -> dict:
    """Self-play: each power's mean final centers, solos and the 95% interval of its mean."""
    from dipsolve.core.map import POWERS
    out = {}
    for p in POWERS:
        xs = [float(rec.result(p).centers) for rec in records]
        m, lo, hi = mean_interval(xs)
        out[p] = {"mean_centers": m, "interval": [lo, hi],
                  "solos": sum(rec.winner == p for rec in records)}
    return out


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


def _seat_games(records, bot: str) -> list[tuple]:
    """(record, the seat's power, the game replayed as a `dipsolve.io.game.Game`) for each
    seat of ``bot``: what the center flow and the years are read from."""
    from dipsolve.io.game import Game
    out = []
    for rec in records:
        game = None
        for p, b in rec.seats.items():
            if b == bot:
                game = game or Game.from_play(rec)
                out.append((rec, p, game))
    return out


def _per_game(seats) -> list[dict]:
    """The seat's result in each game, by seed: what `benchmarks/paired.py` compares; and
    its centers at the end of each year played."""
    from center_flow import centers_by_year
    return [{"seed": rec.seed, "power": p, "centers": rec.result(p).centers,
             "solo": bool(rec.result(p).win),
             "centers_by_year": {str(y): c for y, c in centers_by_year(game, p).items()}}
            for rec, p, game in seats]


def _center_flow(seats) -> dict:
    """The seat's centers gained and lost a game, by kind (`center_flow.flow`)."""
    from center_flow import flow, summary
    return summary(flow(game, p) for _, p, game in seats)


def by_year(per_game: list[dict], until: int) -> list[dict]:
    """For each year from the first played to ``until``: the seat's solos by that year's end,
    with their 95% interval, and its mean centers then (a game stopped earlier by a solo,
    its own or another's, counts as it ended).  A game to 1915 gives the curve to 1910 too."""
    years = sorted({int(y) for g in per_game for y in g["centers_by_year"]})
    if not years:
        return []
    out = []
    for year in range(years[0], until + 1):
        solos, centers = 0, []
        for g in per_game:
            played = {int(y): c for y, c in g["centers_by_year"].items()}
            known = [y for y in played if y <= year]
            if not known:
                continue
            solos += g["solo"] and max(played) <= year
            centers.append(float(played[max(known)]))
        lo, hi = wilson(solos, len(centers))
        m, clo, chi = mean_interval(centers)
        out.append({"year": year, "games": len(centers), "solos": solos, "solo_interval": [lo, hi],
                    "mean_centers": m, "centers_interval": [clo, chi]})
    return out


def _last_year(records) -> int:
    """The last year any game of the series reached (its curve by year ends there)."""
    return max((rec.final.phase.year for rec in records), default=1901)


def _table4(records, bot: str) -> dict:
    """The seat's games counted as DipNet's Table 4 counts them (`dipsolve.play.games.standings`):
    win, most centers, survived, defeated, each with its 95% interval; its median solo year;
    how the games ended (solo, draw, the last year)."""
    from dipsolve.play.games import standings
    row = next(r for r in standings(records) if r.bot == bot)
    out = {"seats": row.seats, "median_solo_year": row.median_solo_year,
           "solo_years": list(row.solo_years),
           "ended": {k: sum(rec.ended == k for rec in records) for k in ("solo", "draw", "year")}}
    for name, k in (("win", row.wins), ("most", row.most), ("survived", row.survived),
                    ("defeated", row.defeated)):
        lo, hi = row.interval(k)
        out[name] = {"count": k, "rate": k / row.seats if row.seats else 0.0, "interval": [lo, hi]}
    return out


def _print_table4(t: dict) -> None:
    cells = [f"{name} {100 * t[name]['rate']:.1f}% ({100 * t[name]['interval'][0]:.0f}-"
             f"{100 * t[name]['interval'][1]:.0f})" for name in ("win", "most", "survived", "defeated")]
    median = t["median_solo_year"] if t["median_solo_year"] is not None else "-"
    e = t["ended"]
    print(f"  Table 4: {', '.join(cells)}; median solo year {median}; games ended by a solo "
          f"{e['solo']}, a draw {e['draw']}, the last year {e['year']}")


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
    if "center_flow" in c:
        f = c["center_flow"]
        print(f"  a game: centers gained {f['gained']:.1f}, lost {f['lost']:.1f} (held {f['lost_held']:.1f}, "
              f"empty {f['lost_empty']:.1f}, occupied {f['lost_occupied']:.1f}); free centers taken "
              f"{f['free_taken']:.1f} of {f['free_chances']:.1f}; builds short of a site "
              f"{f['builds_short']:.1f} of {f['builds_owed']:.1f} (benchmarks/center_flow.py)")
    if "standings" in c:
        _print_table4(c["standings"])
    if c.get("by_year"):
        print("  by the end of " + ", ".join(
            f"{y['year']}: {y['solos']} solos, {y['mean_centers']:.2f} centers" for y in c["by_year"][-6:]))


def main(argv=None) -> int:
    from dipsolve.play.bots import BotUnavailable, DipsolveBot, DumbBotPlayer, RandomBot
    from dipsolve.search.strategy import named

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=70, help="games per series (default 70)")
    p.add_argument("--until", type=int, default=1935,
                   help="last year played (default 1935, as DipNet's games: Paquette et al. 2019; "
                        "the solos by the end of 1910 are reported too, a measure of speed)")
    p.add_argument("--draw-after", type=int, default=5, metavar="YEARS",
                   help="a game is a draw after YEARS years without a center changing hands "
                        "(default 5, as FAIR's harness and dipsolve play; 0: never, as the runs "
                        "to 1910 and 1915 recorded before 2026-11-29)")
    p.add_argument("--time-limit", type=float, default=2.0, help="seconds a dipsolve phase (default 2)")
    p.add_argument("--method", default="agenda", help="dipsolve's search method (default agenda)")
    p.add_argument("--opponents", default="learned,sampled",
                   help="dipsolve's opponent model: learned, equilibrium, sampled, worst, expected or "
                        "hold, or clairvoyant (not a player: shown the others' orders before it "
                        "orders, the bound of every model); several, comma-separated, run one "
                        "series each (default learned,sampled: the default seat, and the seat "
                        "that knows DumbBot's program)")
    p.add_argument("--field", default="dumbbot",
                   help=f"the six other seats: {', '.join(FIELDS)} (mixed: two DumbBots, two "
                        f"greedy, two random; dipsolve: six dipsolve seats with --field-opponents; "
                        f"self: seven copies of the dipsolve seat, per power); several, "
                        f"comma-separated, run one series each (default dumbbot)")
    p.add_argument("--field-opponents", default="expected",
                   help="the opponent model of the six dipsolve seats of --field dipsolve "
                        "(default expected)")
    p.add_argument("--pick", choices=("best", "sample"), default="best",
                   help="with --opponents equilibrium, our orders from the phase game: the best "
                        "against the others' mixture (default) or a draw from our own mixture")
    p.add_argument("--clock", choices=("wall", "cpu"), default="cpu",
                   help="what a dipsolve phase's time limit is measured on (default cpu: this "
                        "process's CPU time, so other work on the machine does not shorten it)")
    p.add_argument("--jobs", type=int, default=1,
                   help="games played at once, one process each (default 1; at most one a core)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--only", choices=("dipsolve", "references"),
                   help="run only the dipsolve series, or only the two reference series")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--json-out", metavar="FILE",
                   help="also write the JSON object to FILE (the text is printed as usual)")
    p.add_argument("--quiet", action="store_true", help="no per-game lines on stderr")
    args = p.parse_args(argv)

    dumb, rand = DumbBotPlayer(), RandomBot()
    out: dict = {"date": time.strftime("%Y-%m-%d"), "nproc": os.cpu_count(), "games": args.games,
                 "until": args.until, "time_limit": args.time_limit, "seed": args.seed,
                 "jobs": args.jobs, "opponents": args.opponents, "clock": args.clock,
                 "series": []}
    if args.only != "references":
        for model in args.opponents.split(","):
            if model.strip() == "clairvoyant":
                bot = ClairvoyantSeat(args.method, clock=args.clock)
            else:
                pick = args.pick if model.strip() == "equilibrium" else None
                bot = DipsolveBot(named(args.method, model.strip(), pick=pick), clock=args.clock)
            try:
                bot.check()
            except BotUnavailable as e:
                out["dipsolve_unavailable"] = str(e)
                continue
            for field in args.field.split(","):
                field = field.strip()
                if field not in FIELDS:
                    p.error(f"--field {field!r}: expected one of {', '.join(FIELDS)}")
                seating = field_seating(field, bot, args)
                label = f"{bot.name} vs {field}" if field != "self" else f"7 x {bot.name}"
                records, rows, secs = _series(label, seating, args, args.quiet)
                if field == "self":
                    r = rows[bot.name]
                    out["series"].append({"series": label, "bot": bot.name, "field": field,
                                          "games": r.games, "win_rate": r.win_rate,
                                          "mean_centers": r.centers, "wall_seconds": secs,
                                          "per_power": _per_power(records)})
                    continue
                row = _compare(f"1 {bot.name} vs {field}", bot.name, rows, secs)
                row["field"] = field
                row.update(_intervals(records, bot.name))
                seats = _seat_games(records, bot.name)
                row["center_flow"] = _center_flow(seats)
                row["per_game"] = _per_game(seats)
                row["by_year"] = by_year(row["per_game"], _last_year(records))
                row["standings"] = _table4(records, bot.name)
                out["series"].append(row)
    if args.only != "dipsolve":
        _, rows, secs = _series("DumbBot vs 6 random", [dumb] + [rand] * 6, args, args.quiet)
        out["series"].append(_compare("1 DumbBot vs 6 random bots", "dumbbot", rows, secs))
        _, rows, secs = _series("7 DumbBots", [dumb] * 7, args, args.quiet)
        row = rows["dumbbot"]
        out["series"].append({"series": "7 DumbBots", "bot": "dumbbot", "games": row.games,
                              "win_rate": row.win_rate, "elimination_rate": row.elimination_rate,
                              "mean_centers": row.centers, "wall_seconds": secs})
    if args.json_out:
        tmp = args.json_out + ".tmp"
        with open(tmp, "w") as f:
            json.dump(out, f)
        os.replace(tmp, args.json_out)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"# {out['date']}, nproc={out['nproc']}: {args.games} games a series, to {args.until}, "
          f"{args.time_limit} s a dipsolve phase, seeds {args.seed}..{args.seed + args.games - 1}, "
          f"seats rotated")
    if "dipsolve_unavailable" in out:
        print(f"dipsolve seat unavailable: {out['dipsolve_unavailable']}")
    for c in out["series"]:
        if "per_power" in c:
            print(f"{c['series']} ({c['games']} games): solo per seat {100 * c['win_rate']:.1f}%")
            for pw, v in c["per_power"].items():
                print(f"  {pw:<8} mean centers {v['mean_centers']:5.2f} "
                      f"({v['interval'][0]:.2f}-{v['interval'][1]:.2f}), solos {v['solos']}")
        elif c["series"] == "7 DumbBots":
            print(f"7 DumbBots ({c['games']} games)\n  dumbbot per seat: solo "
                  f"{100 * c['win_rate']:5.1f}%   eliminated {100 * c['elimination_rate']:5.1f}%"
                  f"   mean centers {c['mean_centers']:5.2f}   wall {c['wall_seconds']:.0f} s")
        else:
            _print_compare(c)
    return 0


if __name__ == "__main__":
    sys.exit(main())
