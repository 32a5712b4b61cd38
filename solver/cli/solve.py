"""``dipsolve solve``: the best orders for a power (or for every power) in a position file.

    dipsolve solve FILE... [--power TUR] [--method agenda|minimax|expectimax|cpsat]
                   [--time-limit S] [--trace] [--json] [--render OUT] [--values FILE]
                   [--evaluation influence|centers]
                   [--opponents learned|equilibrium|worst|expected|sampled|hold] [--samples K]
                   [--pick best|sample] [--seed K] [--workers N]
                   [--predictor dumbbot] [--beam N] [--nodes N]

The human output is an orders file (``Power: order`` lines) with the value, status and
wall time as ``#`` comments, so it can be handed to ``dipsolve adjudicate --orders``.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..core.results import WALL_WORKERS, Limits, interrupted, stop_requested
from .interrupt import cooperative
from .options import (METHODS, OPPONENT_MODELS, PICKS, UserError, add_evaluation, add_json,
                      add_nodes, add_phase, add_power, add_render, add_seed, add_time_limit, add_variant, add_workers,
                      integer, load_with_history, plan_render, range_help, read_text, write_render)
from .output import Outputs
from .progress import Progress

if TYPE_CHECKING:
    from ..algorithms.evaluation import ProvinceValues
    from ..core.position import Position
    from ..search import Solution
    from ..search.strategy import Strategy

_DESCRIPTION = """\
Find the best orders for --power (or for every power that has something to order) in
each FILE's phase, within --time-limit seconds, and print them as an orders file.

Movement phases, by default (--opponents learned, as a seat of 'dipsolve play' and
'dipsolve daide' plays), get a best response to draws of a policy of the others' orders:
the package's prior policy (fitted to dipsolve's own self-play) for a position file; for
a game record's --phase, the prior fitted to every power's orders in the record's earlier
movement phases, as a seat at a table learns. The answer says which model it assumed.
The seat with this model played better than the phase game in every field measured
(docs/strength.md).

--opponents equilibrium plays the phase as a game: every power whose units can reach
ours is a player with a working set of order sets (the agenda search's best under its
own evaluation, DumbBot's heuristic, holding), solved to an approximate equilibrium by
smooth fictitious play, the working sets grown by best responses to the others' mixture
(the agenda search's, and for our power the CP-SAT order model's over every legal order
set). Nobody's policy is assumed. Printed: our orders (--pick best: the best of our set
against the others' mixture; sample: a draw from our own mixture), our mixture, the
others' likely orders, and the exploitability estimate: how much each player could gain
by deviating, within the working sets and with the best responses found.

With another --opponents, movement phases by --method:
  agenda      Hall & Loeb's best-first agenda search: order sets grow one unit at a time
              (a move with all its possible supports, a convoy with its fleets, as one
              step); each complete set is tested against the orders the neighbouring
              powers are likely to give or that would hurt most, and judged by its worst
              outcome (--opponents worst; expected: by the mean; sampled: by the mean over
              draws of DumbBot's policy for every other power, a best response to
              it, the best set then polished one unit's order at a time against every
              draw; hold: nobody else moves)
  minimax     Victorybot's paranoid search: candidates scored against each opponent
              alone (factorized pruning), the best five against every combination
  expectimax  the same, with equally likely opponent order sets and the mean
  cpsat       the rules as a CP-SAT model (dipsolve.models.order_model); OR-Tools
              loads in about a second, within --time-limit: with less than 2.5 s
              the agenda answer is printed, 'timed out'
Retreat and adjustment phases: every choice of retreats, builds or removals is judged.

Positions are judged by --evaluation: 'influence' (Hall & Loeb 4.1: the province
values a power controls, +100 a supply center owned; --values FILE gives a power's
province values, one 'PROVINCE VALUE' a line, with an optional 'power: NAME' line)
or 'centers' (supply centers owned).

The status is 'optimal' when every order set the search considers was judged (never
for the phase game, whose equilibrium is approximate: its gains are printed),
'feasible' when some were left out by pruning, 'timed out' when the clock stopped it;
the best set found so far is always printed. Without --power, --time-limit is shared
among the powers (and --nodes).

With --nodes N the search stops after N nodes of work instead of at a time: the same
command with the same --seed prints the same orders on every run (status 'node limit'
when the nodes ran out first; 'timed out' when --time-limit, then a safety net, came
first)."""


def register(subparsers: Any) -> None:
    """Add ``solve`` to the ``dipsolve`` subcommands."""
    p = subparsers.add_parser(
        "solve", help="the best orders for a power in a position",
        description=_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="+", metavar="FILE", help="a .dip or DAIDE NOW/SCO position file, or a game "
                   "record (saved-game JSON) with --phase")
    add_phase(p)
    add_variant(p)
    add_power(p, help="the power to order for (TUR, Turkey, ...); default: every power")
    p.add_argument("--method", choices=METHODS, default="agenda", help="the search (default: agenda)")
    add_time_limit(p, 5.0, help="seconds for the whole search of each file (default: 5)")
    add_nodes(p)
    add_evaluation(p, help="how positions are judged")
    p.add_argument("--values", action="append", default=[], metavar="FILE",
                   help="province values for the influence evaluation (one file per power; "
                        "may be given again for other powers)")
    p.add_argument("--opponents", choices=OPPONENT_MODELS,
                   help="learned (default for agenda and cpsat): a best response to the prior "
                        "policy, fitted to a record's earlier orders with --phase; equilibrium: "
                        "play the phase as a game, nobody's policy assumed; or judge a set by its "
                        "worst outcome against "
                        "the opponents' likely and hostile orders (worst: the default of minimax), "
                        "its mean (expected), its mean over draws of DumbBot's policy for every "
                        "other power (sampled), or with everybody else holding (hold)")
    p.add_argument("--pick", choices=PICKS,
                   help="with --opponents equilibrium, our orders from the phase game: the best of "
                        "our working set against the others' mixture (default), or a draw from "
                        "our own mixture (seeded)")
    add_seed(p, help="seed of every random choice of the search")
    add_workers(p, WALL_WORKERS, help="CP-SAT's threads: two prove an optimum 10-30 times sooner "
                                      "than one; one gives the same answer for the same seed")
    p.add_argument("--samples", type=integer, metavar="K",
                   help=f"with --opponents learned or sampled: how many joint draws (default 8; "
                        f"{range_help('samples')})")
    p.add_argument("--predictor", choices=("dumbbot",),
                   help="with --opponents worst or expected: also expect each opponent to give "
                        "the orders DumbBot would give")
    p.add_argument("--beam", type=integer, metavar="N",
                   help=f"keep at most N entries on the agenda ({range_help('beam')})")
    p.add_argument("--trace", action="store_true",
                   help="print the search: the opponents' order sets and the agenda at every step")
    add_json(p)
    add_render(p)
    p.set_defaults(func=cmd_solve, stops_by_itself=True)


def _values(args: argparse.Namespace) -> dict[str, ProvinceValues]:
    from ..algorithms.evaluation import parse_values
    out: dict[str, ProvinceValues] = {}
    for path in args.values:
        pv = parse_values(read_text(path), path)
        power = pv.power or args.power
        if power is None:
            raise UserError("whose values are these? add a 'power: NAME' line or give --power",
                            filename=path)
        if power in out:
            raise UserError(f"a second values file for {power}", filename=path)
        out[power] = pv
    return out


def _powers(position: Position, only: str | None) -> list[str]:
    if only:
        return [only]
    kind = position.phase.kind
    if kind == "retreat":
        return [p for p in position.map.powers if any(d.unit.power == p for d in position.dislodged)]
    if kind == "adjustment":
        return [p for p in position.map.powers if position.adjustment(p) != 0]
    return [p for p in position.map.powers if position.units_of(p)]


def cmd_solve(args: argparse.Namespace) -> int:
    if args.render and len(args.files) > 1 and "{stem}" not in args.render:
        raise UserError("--render takes one FILE; put '{stem}' in OUT to draw several")
    outputs = Outputs()
    plan_render(args, outputs, args.files)     # a bad --render fails now, not after the search
    values = _values(args)
    if args.samples is not None and args.samples < 1:
        raise UserError(f"--samples {args.samples}: expected a count of 1 or more")
    strategy = _strategy(args, values)     # a combination that means nothing fails now
    jobs = [(path, *_position_and_history(path, args)) for path in args.files]
    with cooperative():
        _solve_all(args, jobs, strategy, outputs)
    outputs.commit()
    return 0


def _position_and_history(path: str, args: argparse.Namespace) -> tuple[Position, tuple]:
    """The file's position, and for a record's phase its earlier movement phases with
    their orders (what the learned model fits)."""
    position, _, history = load_with_history(path, args)
    return position, history


def _strategy(args: argparse.Namespace, values: dict[str, ProvinceValues]) -> Strategy:
    """The options' strategy (`dipsolve.search.strategy.named`: the one place names
    become parts); an option that belongs to no part chosen is a user's mistake."""
    from ..core.errors import DipsolveRuleError
    from ..search.strategy import named
    try:
        return named(args.method, args.opponents, args.evaluation, values=values or None, pick=args.pick,
                     samples=args.samples, predictor=args.predictor, beam=args.beam)
    except DipsolveRuleError as e:
        raise UserError(f"{e.message}: check --method, --opponents and their options") from None


def _solve_all(args: argparse.Namespace, jobs: list[tuple[str, Position, tuple]],
               strategy: Strategy, outputs: Outputs) -> None:
    """Solve and print each file in turn; on Ctrl-C, print the answers so far of the file
    being solved (status interrupted) and stop."""
    from ..api import solve
    from ..search.strategy import Learned
    power = args.power                  # a power's name or None (options.check)
    for path, position, history in jobs:
        if stop_requested():
            break
        powers = _powers(position, power)
        share = args.time_limit / max(1, len(powers))
        nodes = None if args.nodes is None else max(1, args.nodes // max(1, len(powers)))
        solutions: list[Solution] = []
        chosen = strategy
        if isinstance(strategy.opponents, Learned):       # fitted to the record's earlier orders
            chosen = replace(strategy, opponents=replace(strategy.opponents, history=history))
        limits = Limits(time_limit=share, seed=args.seed, workers=args.workers, nodes=nodes)
        with Progress(enabled=args.time_limit >= 2) as progress:
            for i, p in enumerate(powers, 1):
                progress.show(f"{path}: solving {p} ({i}/{len(powers)}, {share:.1f} s)")
                solutions.append(interrupted(solve(position, p, chosen, limits=limits, trace=args.trace)))
                if stop_requested():
                    break
        if args.json:
            print(json.dumps(_as_json(path, position, solutions, args.trace)))
        else:
            print(_as_text(path, position, solutions, args))
        write_render(args, position, {s.power: list(s.orders) for s in solutions}, source=path,
                     outputs=outputs)


def _as_json(path: str, position: Position, solutions: list[Solution], trace: bool) -> dict[str, Any]:
    out = []
    for s in solutions:
        obj = s.to_json()
        if not trace:
            del obj["trace"]
        out.append(obj)
    return {"file": path, "phase": position.phase.short, "solutions": out}


def _as_text(path: str, position: Position, solutions: list[Solution], args: argparse.Namespace) -> str:
    limit = f"{args.time_limit:g} s" if args.nodes is None else f"{args.nodes} nodes"
    lines = [f"# {path}: {position.phase}, {args.method} search, {limit}"]
    models = {s.model for s in solutions}
    if len(models) == 1:            # one model for every power: said once
        lines.append(f"# opponents {models.pop()}")
    for s in solutions:
        if args.trace and s.trace:
            lines.append(f"# {s.power}: the search")
            lines += [f"#   {t}" for t in s.trace]
        lines += [f"{s.power}: {o}" for o in s.orders] or [f"# {s.power}: no orders"]
        lines.append(f"# {s.power}: {s.summary()}")
        if len(solutions) > 1 and len({x.model for x in solutions}) > 1:
            lines.append(f"# {s.power}: opponents {s.model}")
        if s.equilibrium is not None:
            lines += _equilibrium_lines(s)
    return "\n".join(lines)


def _equilibrium_lines(s: Solution) -> list[str]:
    """The phase game's answer as comment lines: our mixture, the others' likely orders,
    the exploitability estimate."""
    eq = s.equilibrium
    assert eq is not None
    me = eq.player(s.power)
    how = ("the best of our set against the others' mixture" if eq.pick == "best"
           else "a draw from our mixture")
    out = [f"# {s.power}: the phase game, {len(eq.players)} players, {eq.iterations} iterations, "
           f"{eq.profiles} profiles; our orders: {how}"]
    out.append(f"# {s.power}: our mixture ({me.actions} order sets, {me.added} added by best responses):")
    out += [f"#   {w:6.1%}  {', '.join(map(str, a))}" for a, w in me.strategy[:6]]
    for p in eq.players:
        if p.power == s.power or not p.strategy:
            continue
        a, w = p.strategy[0]
        out.append(f"# {p.power} likely ({w:.0%} of {len(p.strategy)}): {', '.join(map(str, a))}")
    out.append(f"# exploitability: {eq.exploitability:.1f} within the working sets, "
               f"{eq.exploitability_found:.1f} with the best responses found (the sum of every "
               f"player's gain from deviating; ours {me.gain_in_sets:.1f} / {max(me.gain_in_sets, me.gain_found):.1f})")
    return out
