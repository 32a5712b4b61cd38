"""``play --results FILE`` and ``play --ray``/``--jobs``: where the games are played, and
the games of an earlier run read back from the results file (`dipsolve.execution`)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from .options import UserError

if TYPE_CHECKING:
    from ..play.games import GameRecord


def executor_for(args: argparse.Namespace) -> Any:
    """Where the games are played: ``--ray``, or ``--jobs`` local processes (None: here,
    one after the other, with a progress bar of phases)."""
    import contextlib
    if args.ray is None and args.jobs <= 1:
        return contextlib.nullcontext(None)
    from ..execution import LocalPool, executor
    if args.ray is None:
        return LocalPool(min(args.jobs, args.games))
    return executor(args.jobs, args.ray)


def open_results(args: argparse.Namespace) -> Any:
    """The ``--results`` file, opened (its games of an earlier run read)."""
    from .output import check_destination, open_journal
    check_destination(args.results)
    run = {"command": "play", "bots": args.bots, "seat": args.seat, "until": args.until,
           "draw_after": args.draw_after, "time_limit": args.time_limit, "evaluation": args.evaluation,
           "opponents": args.opponents, "seed": args.seed, "rotate": args.rotate,
           "clock": args.clock, **({"nodes": args.nodes} if args.nodes is not None else {})}
    return open_journal(args.results, run)


def played_before(journal: Any, args: argparse.Namespace) -> dict[int, GameRecord]:
    """The games of this run that the results file holds, by seed, rebuilt (their
    orders replayed from the start: the final board is the adjudicator's)."""
    out: dict[int, GameRecord] = {}
    for key, line in journal.done.items():
        game = line.get("game")
        seed = game.get("seed") if isinstance(game, dict) else None
        if not isinstance(seed, int) or not args.seed <= seed < args.seed + args.games:
            continue
        try:
            out[seed] = game_from_json(game)
        except (KeyError, TypeError, ValueError) as e:
            raise UserError(f"the line of {key} is not a game dipsolve play wrote ({type(e).__name__}: "
                            f"{e})", filename=args.results) from None
    return out


def game_from_json(obj: dict[str, Any]) -> GameRecord:
    """A game back from its JSON (`GameRecord.to_json` with ``history``): its phases
    replayed through the adjudicator to its final board."""
    from ..grammar import parse_order
    from ..play.games import GameRecord, PhaseRecord, PowerResult
    from ..core.position import Position
    from ..io.records import replay
    phases = tuple(PhaseRecord(p["phase"], {k: tuple(v) for k, v in p["orders"].items()},
                               {k: float(v) for k, v in p.get("seconds", {}).items()})
                   for p in obj["phases"])
    results = tuple(PowerResult(r["power"], r["bot"], r["centers"], r["units"], r["win"],
                                r["eliminated"], r["refused"], r["seconds"], r["max_seconds"])
                    for r in obj["powers"])
    final = replay(Position.initial(), [{k: [parse_order(t) for t in ts] for k, ts in ph.orders.items()}
                                        for ph in phases]).final
    if final.phase.short != obj["final_phase"]:
        raise ValueError(f"its orders replayed end in {final.phase.short}, not {obj['final_phase']}")
    return GameRecord(obj["seed"], obj["until"], obj["time_limit"], dict(obj["seats"]), results,
                      obj["winner"], final, phases, obj["seconds"], None, obj.get("draw_after"),
                      obj.get("ended", "solo" if obj["winner"] else "year"))
