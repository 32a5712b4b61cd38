"""``dipsolve play``: whole games between bots, and the table of their results.

    dipsolve play [--bots BOT,BOT,... | --seat POWER=BOT ...] [--games N] [--until YEAR]
                  [--draw-after YEARS] [--time-limit S] [--nodes N] [--seed K] [--rotate]
                  [--json [--history]] [--save DIR]

Prints one line per game and then the results per bot, as the Victorybot seed's table
(`dipsolve.play.games.results_table`) and as DipNet's Table 4 (`standings`: win, most SC,
survived, defeated, with 95% intervals, the median solo year, the solos by the end of each
year); ``--json`` prints one JSON object with them all.  A bad
bot or power name, or a dipsolve seat when the search is not installed, is a one-line
error with exit status 2.  ``--save DIR`` writes each game to ``DIR/game-SEED.json`` in
the ``diplomacy`` package's saved-game format (`dipsolve.io.records`), which that package
loads, replays and shows, as each game ends.  Ctrl-C (or SIGTERM) drops the games being
played and prints the table of the games finished (exit status 130 or 143; the games
saved are those finished); with ``--jobs`` or ``--ray``, a game whose worker process dies
is played again (said in one line); one that dies twice is reported failed in one line,
the others played, and the exit status is 1.  ``--results FILE`` appends each game to a
JSON-lines file as it ends (`dipsolve.execution.journal`); the same command again plays
only the games not in it, and tabulates them all.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from ..core.results import Limits, Stopped
from .interrupt import cooperative
from ..play.registry import bots_help
from .options import (METHODS, SEAT_DEFAULT, SEAT_MODELS, UserError, add_evaluation, add_json, add_nodes,
                      add_ray, add_time_limit, add_variant, integer, load_kernel, power,
                      range_help, variant_of)
from .output import Outputs
from .play_results import executor_for, open_results, played_before
from .progress import Progress

if TYPE_CHECKING:
    from ..play.bots import Bot
    from ..play.games import GameRecord
    from ..core.position import Position

_DESCRIPTION = """\
Play full games of Diplomacy between bots from the 1901 start: every phase (movement,
retreats, adjustments) is adjudicated by dipsolve. A game ends as the published bots'
games end (DipNet's environment, FAIR's harness): when a power owns 18 supply centers (a
solo win), as a draw when no center has changed hands for --draw-after years (default 5),
or after the Fall turn of --until (default 1935).

Bots:
  dumbbot            David Norman's DumbBot (2003), from its published description
  greedy             a greedy center grabber: every unit heads for the nearest supply
                     center its power does not own
  random             a random legal order for each unit
  dipsolve           dipsolve's search (dipsolve solve); dipsolve:METHOD picks the
                     method: agenda, minimax, expectimax, cpsat; --evaluation picks
                     the evaluation it maximises (influence, centers);
                     --opponents its model of the others: by default learned, a
                     best response to 8 draws of a policy fitted to the orders the
                     others have given in this game, from a prior fitted to
                     dipsolve's own self-play (nobody's program assumed);
                     equilibrium: the phase
                     played as a game among the powers that interact; sampled: a
                     best response to 8 draws of DumbBot's policy for every other
                     power

A bot of your own sits at the table too: --bots FILE.py:CLASS or MODULE:CLASS, or the
name an installed package gives it under the entry-point group dipsolve.bots
(docs/bots.md; an example: examples/bots/greedy.py:GreedyBot).

Seats: --bots names the bots of Austria, England, France, Germany, Italy, Russia and
Turkey in that order; a shorter list is filled up with its last bot, so
'--bots dipsolve,dumbbot' is one dipsolve (Austria) against six DumbBots. --seat
POWER=BOT sets one seat (the others: --bots, or DumbBot). --rotate moves every bot one
seat on in each game, so that over 7 games each bot plays each power.

Game i has seed K+i (--seed K): the same seed replays the same game for dumbbot and
random; a dipsolve seat stopped by its clock may not answer the same twice, one with
--nodes N (a node limit a phase, the time limit its safety net) does.

The tables (per bot): games it sat in, seats (powers played), solo wins, eliminations
(no center left at the end), their rates per seat, the mean final center count, the
mean thinking time per seat and the longest single phase; then, as DipNet's Table 4
(Paquette et al. 2019), each seat's game a win, the most centers of a game without a
winner (shared when tied), survived or defeated, each with its 95% interval (Wilson),
the median solo year (the first year by whose end half of the seats had soloed) and the
solos by the end of each year."""


def register(subparsers: Any) -> None:
    """Add ``play`` to the ``dipsolve`` subcommands."""
    p = subparsers.add_parser(
        "play", help="play full games between bots (dipsolve, DumbBot, random) and tabulate",
        description=_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bots", metavar="BOT,BOT,...", default="dumbbot",
                   help=f"the bots in power order, the last one repeated (default: dumbbot): "
                        f"{bots_help()}")
    p.add_argument("--seat", metavar="POWER=BOT", action="append", default=[],
                   help="seat BOT at POWER (repeatable); overrides --bots for that power")
    p.add_argument("--games", type=integer, default=1, metavar="N",
                   help=f"games to play (default 1; {range_help('games')})")
    p.add_argument("--until", type=integer, default=None, metavar="YEAR",
                   help="the last year played (default 1935 in the standard game: the 35th year)")
    p.add_argument("--draw-after", type=integer, default=5, metavar="YEARS",
                   help="a draw when no supply center has changed hands for YEARS years (default 5, "
                        "as FAIR's harness; 0: never)")
    add_time_limit(p, 2.0, help="seconds a bot may think per phase (default 2; DumbBot and "
                                "random need none)")
    add_nodes(p, "a dipsolve seat's search of each phase")
    add_evaluation(p, help="the position evaluation of dipsolve seats")
    p.add_argument("--opponents", choices=SEAT_MODELS, default=SEAT_DEFAULT,
                   help="the opponent model of dipsolve seats: learned (default: a best response "
                        "to 8 draws of a policy fitted to the orders the others have given in this "
                        "game, from a prior fitted to dipsolve's own self-play), equilibrium (the phase as a "
                        "game, nobody's policy assumed), sampled (a best response to 8 draws of "
                        "DumbBot's policy for the others), worst, expected or hold (see dipsolve "
                        "solve --help)")
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="what a bot's time per phase is measured on: wall time (default) or this "
                        "process's CPU time (a fair measure on a busy machine; dipsolve seats then "
                        "run one CP-SAT worker)")
    p.add_argument("--seed", type=integer, default=0, metavar="K",
                   help=f"seed of the first game (default 0; {range_help('seed')})")
    p.add_argument("--rotate", action="store_true", help="move every bot one seat on in each game")
    add_variant(p, records=False)
    p.add_argument("--jobs", type=integer, default=1, metavar="N",
                   help=f"games played at once, one process each (default 1; {range_help('jobs')}; "
                        f"at most one a core, or the bots that think against the clock think less)")
    add_ray(p)
    p.add_argument("--results", metavar="FILE",
                   help="append each game to FILE (JSON lines) as it ends; the same command "
                        "again plays only the games not in FILE and tabulates them all")
    add_json(p, help="one JSON object: the games and the table")
    p.add_argument("--history", action="store_true", help="with --json: every phase's orders too")
    p.add_argument("--save", metavar="DIR",
                   help="write each game to DIR/game-SEED.json, the diplomacy package's saved-game "
                        "JSON (its load_saved_games_from_disk and web interface read it; "
                        "dipsolve show/analyze too: a game on a map or variant file names the "
                        "file, and is read with --variant FILE)")
    p.set_defaults(func=cmd_play, stops_by_itself=True)


def seating(bots: str, seats: list[str], evaluator: str = "influence",
            opponents: str = SEAT_DEFAULT, clock: str = "wall", variant: str = "standard",
            nodes: int | None = None) -> list[Bot]:
    """The bots in the variant's order of play from ``--bots`` and ``--seat``, or `UserError`
    (``nodes``: a dipsolve seat's node limit a phase, `dipsolve.Limits.nodes`)."""
    from ..play.bots import BotUnavailable, DipsolveBot
    from ..play.registry import make_bot
    from ..core.variant_files import find_variant
    game_map = find_variant(variant).map
    powers = game_map.powers
    names = [n.strip() for n in bots.split(",")]
    if not all(names):
        raise UserError(f"--bots {bots!r}: an empty bot name (expected e.g. 'dipsolve,dumbbot')")
    if len(names) > len(powers):
        raise UserError(f"--bots names {len(names)} bots; there are {len(powers)} powers")
    names += [names[-1]] * (len(powers) - len(names))
    for item in seats:
        power_text, eq, bot = item.partition("=")
        if not eq or not bot.strip():
            raise UserError(f"--seat {item!r}: expected POWER=BOT, e.g. France=dipsolve")
        names[powers.index(power(power_text, option=f"--seat {item!r}", game_map=game_map))] = bot.strip()
    chosen: list[Bot] = []
    made: dict[str, Bot] = {}
    for name in names:
        if name not in made:
            made[name] = make_bot(name, evaluator, opponents, clock, nodes)   # the registry's errors
        chosen.append(made[name])
    if any(isinstance(seated, DipsolveBot) for seated in made.values()):
        load_kernel()       # with a line on stderr if it compiles; each game's prepare() loads it too
    for seated in made.values():
        if isinstance(seated, DipsolveBot):
            try:
                seated.check()
            except BotUnavailable as e:
                raise BotUnavailable(f"the {seated.name} seat is unavailable: {e}") from None
    return chosen


def fault_lines(record: GameRecord) -> list[str]:
    """The game's faults (`dipsolve.play.contract`), one line for each power's first of a
    kind, with how many later phases repeated it."""
    first: dict[tuple[str, str], Any] = {}
    again: dict[tuple[str, str], int] = {}
    for f in record.faults:
        key = (f.power, f.what)
        if key in first:
            again[key] = again.get(key, 0) + 1
        else:
            first[key] = f
    return [f.line() + (f" (again in {again[k]} later phase{'s' if again[k] > 1 else ''})" if k in again else "")
            for k, f in first.items()]


def game_line(index: int, record: GameRecord) -> str:
    """One game in one line: who won (or that nobody did) and every power's centers."""
    if record.winner:
        head = f"{record.winner} ({record.seats[record.winner]}) wins, {record.final_phase}"
    elif record.ended == "draw":
        head = f"a draw, {record.final_phase} (no center changed hands for {record.draw_after} years)"
    else:
        head = f"no solo by {record.until}"
    tokens = record.final.map.power_tokens          # a power short, as its map names it
    seats = ", ".join(f"{tokens.get(r.power, r.power[:3].upper())} {r.centers}"
                      f"{' out' if r.eliminated else ''} ({r.bot})" for r in record.results)
    return f"game {index + 1} (seed {record.seed}): {head}; {seats}"


class _GamesProgress:
    """The games played so far as a bar (`Progress`), with the phase being played."""

    def __init__(self, games: int) -> None:
        self.games = games
        self.bar = Progress(games)

    def phase(self, game: int, position: Position) -> None:
        self.bar.show(f"game {game + 1}/{self.games} {position.phase.short:<7}", done=game)

    def played(self, done: int, jobs: int) -> None:
        """With games played at once (no phase reports): after each finished game."""
        running = min(jobs, self.games - done)
        self.bar.show(f"{done}/{self.games} games done"
                      + (f", {running} playing" if running else ""), done=done)

    def close(self) -> None:
        self.bar.close()


def saved_path(folder: str, seed: int) -> str:
    """The file ``--save`` writes the game of ``seed`` to."""
    import os
    return os.path.join(folder, f"game-{seed}.json")


def save_game(folder: str, record: GameRecord, outputs: Outputs) -> str:
    """Write one game to ``folder/game-SEED.json`` (saved-game JSON) now, whole: a game
    played to its end is written even after Ctrl-C.  The path written."""
    from ..io.game import Game
    path = saved_path(folder, record.seed)
    outputs.put(path, Game.from_play(record, id=f"dipsolve-{record.seed}").dumps())
    outputs.commit(finished=True)
    return path


def cmd_play(args: argparse.Namespace) -> int:
    # a Ctrl-C at any moment, from here on (loading the bots too), ends in the table
    with cooperative():
        return _play(args)


def _play(args: argparse.Namespace) -> int:
    from ..play.games import format_standings, format_table, play_series, results_table, standings
    from ..core.position import Position
    start = Position.initial(variant_of(args)).phase.year
    if args.until is None:
        args.until = start + 34
    if not start <= args.until <= 2100:
        raise UserError(f"--until {args.until}: expected a year from {start} to 2100")
    if not 0 <= args.draw_after <= 200:
        raise UserError(f"--draw-after {args.draw_after}: expected a number of years from 0 (never) to 200")
    draw_after = args.draw_after or None
    if args.history and not args.json:
        raise UserError("--history goes with --json")
    # the game's one Limits: each seat's time a phase, its clock, the first game's seed and
    # a dipsolve seat's node limit a phase (game i is played with seed K+i)
    limits = Limits(time_limit=args.time_limit, seed=args.seed, clock=args.clock, nodes=args.nodes)
    bots = seating(args.bots, args.seat, args.evaluation, args.opponents, limits.clock, args.variant,
                   limits.nodes)
    outputs = Outputs()                 # every game's file, checked before any game
    if args.save:
        for i in range(args.games):
            outputs.plan(saved_path(args.save, args.seed + i), folder=True)
    progress = _GamesProgress(args.games)
    records: list[GameRecord] = []
    lost: list[dict[str, Any]] = []
    journal = open_results(args) if args.results else None
    before = played_before(journal, args) if journal is not None else {}
    records += before.values()
    if before and not args.json:
        print(f"dipsolve: {len(before)} of {args.games} games already in {args.results}: "
              f"playing the others", file=sys.stderr, flush=True)
    parallel = args.jobs > 1 or args.ray is not None

    def on_game(record: GameRecord) -> None:
        records.append(record)
        if journal is not None:
            journal.append({"id": f"game-{record.seed}", "status": "ok",
                            "game": record.to_json(history=True)})
        if args.save:
            save_game(args.save, record, outputs)   # finished: saved even after Ctrl-C
        if not args.json:
            progress.close()
            for line in fault_lines(record):    # what a bot did against the contract, named
                print(f"dipsolve play: game {record.seed - args.seed + 1}: {line}", file=sys.stderr, flush=True)
            print(game_line(record.seed - args.seed, record), flush=True)
        if parallel:
            progress.played(len(records) + len(lost), args.jobs)

    def on_lost(index: int, reason: str) -> None:
        lost.append({"game": index + 1, "seed": args.seed + index, "reason": reason})
        if journal is not None:
            journal.append({"id": f"game-{args.seed + index}", "status": "failed",
                            "error": {"error": "failed", "message": reason}})
        progress.close()
        print(f"dipsolve: game {index + 1} (seed {args.seed + index}) lost: {reason}; the other "
              f"games go on", file=sys.stderr, flush=True)

    def on_retry(index: int, reason: str) -> None:
        progress.close()
        print(f"dipsolve: game {index + 1} (seed {args.seed + index}): its worker process died "
              f"({reason}); playing it again", file=sys.stderr, flush=True)

    if parallel:
        progress.played(len(records), args.jobs)

    interrupted = False
    try:
        with executor_for(args) as pool:
            play_series(bots, args.games, limits=limits, until=args.until, draw_after=draw_after,
                        rotate=args.rotate, jobs=args.jobs, executor=pool,
                        skip={r.seed - args.seed for r in before.values()},
                        on_phase=progress.phase, on_game=on_game, on_lost=on_lost,
                        on_retry=on_retry, variant=args.variant)
    except Stopped:
        interrupted = True
    finally:
        progress.close()
        if journal is not None:
            journal.close()
    records.sort(key=lambda r: r.seed)
    rows = results_table(records)
    table4 = standings(records)
    if interrupted:
        print(f"dipsolve: interrupted: {len(records)} of {args.games} games finished; the table "
              f"is theirs", file=sys.stderr)
    if args.json:
        print(json.dumps({"games": [r.to_json(history=args.history) for r in records],
                          "table": [row.to_json() for row in rows],
                          "standings": [row.to_json() for row in table4],
                          "status": "interrupted" if interrupted else "finished",
                          "lost": lost,
                          "limits": {"time_limit": args.time_limit, "nodes": args.nodes,
                                     "limit": "time" if args.nodes is None else "nodes",
                                     "clock": args.clock}}))
    else:
        print()
        print(format_table(rows))
        print()
        print(format_standings(table4))
    return 1 if lost else 0
