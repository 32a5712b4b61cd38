"""``dipsolve path``: the fastest path to N supply centers for a power nobody opposes.

    dipsolve path --power GER [--target 16|18] [--algorithm bfs|greedy|astar|exact]
                  [--rules full|paper] [--from FILE] [--time-limit S] [--nodes N]
                  [--seed K] [--json] [--render OUT] [--plan-out PLAN.json]

``bfs``, ``greedy`` and ``astar`` are the graph searches of Stormont & Allan (seed
``001_…``, §3.1–3.3; `dipsolve.algorithms.path`): they count the nodes they expand.  ``exact`` (the
default) is the CP-SAT model of `dipsolve.models.path`: the fewest game years with real
units, a plan replayed through the adjudicator, and the argument that no plan is shorter.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from ..core.results import Limits, Status, interrupted
from .interrupt import cooperative
from .options import (PATH_ALGORITHMS, PATH_GOAL_TESTS, PATH_OPPOSITIONS, PATH_ORDERS, UserError, add_json, add_nodes,
                      add_phase, add_power, add_render, add_seed, add_time_limit, add_variant, add_workers, integer, load,
                      plan_render, range_help, variant_of,
                      write_render)
from .output import Outputs
from .progress import Progress

if TYPE_CHECKING:
    from ..algorithms.path import SearchResult
    from ..core.position import Position

#: the paper's hand counts (Table 1: Germany from the 1901 start, 16 centers)
PAPER_COUNTS = {"bfs": 33, "greedy": 41, "astar": 36}
SECTIONS = {"bfs": "§3.1", "greedy": "§3.2", "astar": "§3.3"}

_DESCRIPTION = """\
How soon can a power reach N supply centers if nobody opposes it?  The question of
Stormont & Allan, "A comparison of Diplomacy gameboard graph search algorithms".

  --algorithm exact   (default) the fewest game years with real units, from CP-SAT:
                      --rules full: one unit per province, moves and holds, coasts,
                      convoys by the power's own fleets, centers owned only at the end
                      of a Fall, builds in owned empty home centers; --rules paper: the
                      seed's framing (a center counts when a starting unit passes
                      through it; no builds, no convoys).  The plan is replayed through
                      the adjudicator before it is printed, with the argument that no
                      plan is shorter (a counting bound, then each horizon CP-SAT
                      proved infeasible).  Status: optimal (proven), feasible (a plan,
                      not proven shortest: time ran out), timed out (no plan yet),
                      infeasible.
  --algorithm bfs|greedy|astar
                      the seed's graph searches (sections 3.1-3.3) over the map graph:
                      a flood fill from the power's units that counts a supply center
                      when it enters the queue and stops at N.  "nodes expanded" is what
                      the paper's Table 1 counts: the nodes put into the search tree.
                      The paper counted Germany by hand: BFS 33, greedy 41, A* 36
                      (--order armies-first reproduces all three; see README).

The other powers' units are taken off the board; their centers stay theirs."""


def register(subparsers: Any) -> None:
    """Add ``path`` to the ``dipsolve`` subcommands."""
    p = subparsers.add_parser(
        "path", help="fastest path to N supply centers for an unopposed power (searches, exact CP-SAT)",
        description=_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_power(p, help="the power: a name or DAIDE token (GER, Germany, …)", required=True)
    p.add_argument("--target", type=integer, default=16, metavar="N",
                   help="supply centers to reach (default 16, as in the paper; 18 wins)")
    p.add_argument("--algorithm", choices=("exact",) + PATH_ALGORITHMS, default="exact",
                   help="exact (CP-SAT, default) or one of the seed's searches")
    p.add_argument("--rules", choices=("full", "paper"), default=None,
                   help="exact only: the real rules (default) or the paper's framing")
    p.add_argument("--from", dest="from_file", metavar="FILE",
                   help="start from this position (.dip, DAIDE, or a game record with --phase) "
                        "instead of the 1901 start")
    add_phase(p)
    p.add_argument("--opposition", choices=PATH_OPPOSITIONS, default=None,
                   help="exact only: who stands in the way: none (default: the others' units "
                        "off the board), hold (their units stay and hold; a unit of ours "
                        "dislodges one with one support; dislodged, it is destroyed), supported "
                        "(as hold, and each of their units may support a neighbour's hold every "
                        "phase: the plan must succeed against every such choice)")
    p.add_argument("--defence", metavar="FILE",
                   help="exact only: the others' orders in some movement phases, a known "
                        "defence: holds and supports of a hold, under a phase heading each "
                        "([S1909M]); the other phases follow --opposition (default hold)")
    p.add_argument("--years", type=integer, default=None, metavar="K",
                   help="exact only: look no further than K game years (a plan within K years, "
                        "or the proof that there is none)")
    add_time_limit(p, 60.0, help="seconds for the whole solve or search, its set-up included "
                                 "(default 60); the best plan so far is returned when time runs out")
    add_nodes(p, "the solve or search")
    add_workers(p, 1, help="exact only: CP-SAT worker threads (1: the same seed prints the same "
                           "plan on every run; more race each other)")
    add_seed(p, help="exact only: CP-SAT's random seed")
    p.add_argument("--order", choices=PATH_ORDERS, default=None,
                   help="searches only: the order nodes enter the queue: alphabetical by "
                        "name (default, §3.1), armies-first (the first ply as §3 names the "
                        "units), abbreviation, reverse")
    p.add_argument("--goal-test", choices=PATH_GOAL_TESTS, default=None,
                   help="searches only: count a center when it enters the queue (insertion, "
                        "the paper) or when it leaves it (removal, Russell & Norvig)")
    p.add_argument("--trace", action="store_true",
                   help="searches only: print the expansion order step by step")
    add_variant(p)
    add_json(p, help="print one JSON object")
    p.add_argument("--plan-out", metavar="PLAN.json",
                   help="exact only: also write the plan as JSON (for `dipsolve render "
                        "--plan PLAN.json --alone`)")
    add_render(p)
    p.set_defaults(func=cmd_path, stops_by_itself=True)


# -- the command ---------------------------------------------------------------------------

def _check(args: argparse.Namespace) -> str:
    """Every mistake in the options, before any work.  Returns the power's name."""
    power: str = args.power             # a power's name (options.check)
    if not 1 <= args.target <= 34:
        raise UserError(f"--target: {args.target} is not a number of supply centers, "
                        f"expected 1 to 34 (16 as in the paper, 18 to win)")
    exact = args.algorithm == "exact"
    given = [name for name, used in (("--order", args.order), ("--goal-test", args.goal_test),
                                     ("--trace", args.trace)) if used]
    if exact and given:
        raise UserError(f"{given[0]} applies to the searches (--algorithm bfs, greedy or astar), "
                        f"not to --algorithm exact")
    given = [name for name, used in (("--rules", args.rules), ("--render", args.render),
                                     ("--plan-out", args.plan_out), ("--opposition", args.opposition),
                                     ("--defence", args.defence), ("--years", args.years)) if used]
    if not exact and given:
        raise UserError(f"{given[0]} applies to --algorithm exact only: the searches flood the "
                        f"map graph and make no plan a unit could follow")
    if args.opposition not in (None, "none") and args.rules == "paper":
        raise UserError(f"--opposition {args.opposition} plays by the full rules, not --rules paper")
    if args.defence and (args.opposition == "none" or args.rules == "paper"):
        raise UserError("--defence orders the others' units, which " +
                        ("--opposition none takes off the board: give --opposition hold or supported"
                         if args.opposition == "none" else "--rules paper takes off the board"))
    if args.years is not None and not 1 <= args.years <= 40:
        raise UserError(f"--years: {args.years} is not a number of game years, expected 1 to 40")
    if args.phase is not None and not args.from_file:
        raise UserError("--phase picks a phase of a game record given with --from")
    return power


def _start(args: argparse.Namespace, power: str) -> Position:
    from ..core.position import Position
    if not args.from_file:
        return Position.initial(variant_of(args))
    position, _ = load(args.from_file, args)
    if position.phase.kind == "retreat":
        raise UserError(f"{position.phase} is a retreat phase; a path starts from a movement "
                        f"or adjustment phase (adjudicate the retreats first)",
                        filename=args.from_file)
    if not position.units_of(power) and (args.algorithm != "exact" or not position.centers_of(power)):
        raise UserError(f"{power} has no units"
                        + ("" if args.algorithm != "exact" else " and no centers"),
                        filename=args.from_file)
    return position


def cmd_path(args: argparse.Namespace) -> int:
    from ..algorithms.path import search
    power = _check(args)
    outputs = Outputs()                 # every file, checked before any work
    if args.plan_out:
        outputs.plan(args.plan_out)
    plan_render(args, outputs, [args.from_file or "start"])
    position = _start(args, power)
    if args.algorithm == "exact":
        with cooperative():
            return _exact(args, power, position, outputs)
    with cooperative():
        result = search(position, power, args.algorithm, args.target,
                        order=args.order or "alphabetical", goal_test=args.goal_test or "insertion",
                        deadline=_limits(args).deadline())
    result = interrupted(result)
    if args.json:
        print(json.dumps(search_json(args, position, result)))
    else:
        print(search_text(args, position, result))
    return 0


def _limits(args: argparse.Namespace) -> Limits:
    return Limits(time_limit=args.time_limit, seed=args.seed, workers=args.workers, nodes=args.nodes)


def _workers(args: argparse.Namespace) -> int:
    """CP-SAT's workers: one under --nodes (one worker's search is the same on every run)."""
    return 1 if args.nodes is not None else args.workers


def _limit_words(args: argparse.Namespace) -> str:
    """The limits in words: ``time limit 60 s`` or ``node limit 20000, time limit 60 s``."""
    nodes = "" if args.nodes is None else f"node limit {args.nodes}, "
    return f"{nodes}time limit {args.time_limit:g} s"


# -- the searches --------------------------------------------------------------------------

def _paper_count(position: Position, result: SearchResult) -> int | None:
    """The paper's hand count when this search is the one it counted."""
    from ..core.position import Position
    if result.power == "Germany" and result.target == 16 and position == Position.initial():
        return PAPER_COUNTS[result.algorithm]
    return None


def search_json(args: argparse.Namespace, position: Position, r: SearchResult) -> dict[str, Any]:
    from ..algorithms.path import ALGORITHM_NAMES
    start = [c for c in sorted(set(position.centers_of(r.power))
                               | {position.map.province_of[u.location] for u in position.units_of(r.power)})
             if c in position.map.centers]
    return {
        "algorithm": r.algorithm, "algorithm_name": ALGORITHM_NAMES[r.algorithm],
        "power": r.power, "target": r.target, "from": args.from_file, "start": position.phase.short,
        "order": r.order, "goal_test": r.goal_test,
        "status": ("reached" if r.reached else r.status.value
                   if r.status in (Status.TIMED_OUT, Status.NODE_LIMIT, Status.INTERRUPTED)
                   else "not reached"),
        "nodes_expanded": r.nodes_expanded, "expansions": r.expansions,
        "paper_count": _paper_count(position, r),
        "moves": r.objective, "years": None, "bound": None, "plan": None,
        "centers": {"start": start,
                    "counted": [{"center": c, "depth": r.nodes[i].g - 1,
                                 "path": [str(n) for n in r.path_to(i)]} for c, i in r.counted]},
        "trace": r.trace() if args.trace else None,
        "seconds": round(r.seconds, 6),
    }


def search_text(args: argparse.Namespace, position: Position, r: SearchResult) -> str:
    from ..algorithms.path import ALGORITHM_NAMES
    source = args.from_file or "the 1901 start"
    lines = [f"{r.power}: {ALGORITHM_NAMES[r.algorithm]} search (Stormont & Allan {SECTIONS[r.algorithm]}) "
             f"to {r.target} centers from {source}, order {r.order}, goal test on {r.goal_test}"]
    if args.trace:
        lines += ["  " + t for t in r.trace()]
    lines.append(f"  nodes expanded: {r.nodes_expanded} (nodes put into the search tree); "
                 f"{r.expansions} taken from the queue and expanded")
    paper = _paper_count(position, r)
    if paper is not None:
        same = "the same" if paper == r.nodes_expanded else f"{r.nodes_expanded - paper:+d}"
        lines.append(f"  the paper's hand count (Table 1): {paper} ({same})")
    if r.reached:
        new = " ".join(c for c, _ in r.counted)
        lines.append(f"  moves: {r.objective} (the depth of the deepest center counted, every unit "
                     f"moving at once: a flood fill, not a plan)")
        lines.append(f"  centers: {r.start_count} held, then {len(r.counted)} counted: {new}")
    elif r.status in (Status.TIMED_OUT, Status.NODE_LIMIT, Status.INTERRUPTED):
        why = {Status.TIMED_OUT: "the time limit came", Status.NODE_LIMIT: "the node limit came",
               Status.INTERRUPTED: "interrupted"}[r.status]
        lines.append(f"  {why} after {r.expansions} expansions, at "
                     f"{r.start_count + len(r.counted)} centers")
    else:
        lines.append(f"  the search ran out of nodes at {r.start_count + len(r.counted)} centers: "
                     f"{r.target} are out of its reach")
    return "\n".join(lines)


# -- the exact answer ----------------------------------------------------------------------

def _opposition(args: argparse.Namespace) -> str:
    """--opposition, or its default: hold with a --defence, else none."""
    return args.opposition or ("hold" if args.defence else "none")


def _exact(args: argparse.Namespace, power: str, position: Position, outputs: Outputs) -> int:
    from ..models.path import solve_path
    from ..models.path_defence import load_defence
    from ..models.path_problem import moves_within

    defence = load_defence(args.defence, position, power) if args.defence else None

    with Progress() as progress:
        def attempt(a: Any) -> None:
            progress.show(f"[path] {a.phase}: {a.status.lower()} ({a.seconds:.1f} s)")

        limits = _limits(args)
        sol = solve_path(position, power, args.target, args.rules or "full",
                         moves_within(position.phase, args.years), progress=attempt,
                         opposition=_opposition(args), defence=defence, limits=limits)
    sol = interrupted(sol, (Status.TIMED_OUT, Status.FEASIBLE))   # feasible: cut short
    obj = exact_json(args, sol)
    if args.json:
        print(json.dumps(obj))
    else:
        print(exact_text(args, sol))
    if args.plan_out:
        if sol.plan:
            outputs.put(args.plan_out, json.dumps(obj, indent=1) + "\n")
        elif sol.objective == 0:
            print(f"dipsolve: nothing to plan ({power} already has {args.target} centers): "
                  f"{args.plan_out} not written", file=sys.stderr)
        else:
            print(f"dipsolve: no plan ({sol.status}): {args.plan_out} not written", file=sys.stderr)
    if args.render:
        write_render(args, list(sol.outcomes) if sol.outcomes else position.alone({power}),
                     source=args.from_file or "start", outputs=outputs)
    outputs.commit()
    return 0


def exact_json(args: argparse.Namespace, sol: Any) -> dict[str, Any]:
    return {
        "algorithm": "exact", "power": sol.power, "target": sol.target, "rules": sol.rules,
        "opposition": sol.opposition, "defence": args.defence, "defended": list(sol.defended),
        "years_limit": args.years,
        "from": args.from_file, "start": sol.start.short, "status": sol.status,
        "years": sol.years, "moves": sol.objective, "reached": sol.reached,
        "nodes_expanded": None,
        "bound": {"years": sol.bound_years, "moves": sol.bound, "phase": sol.bound_phase,
                  "explanation": sol.explanation()},
        "plan": [{"phase": p.phase.short, "orders": [str(o) for o in p.orders],
                  "others": [str(o) for o in p.others],
                  "centers": p.centers, "units": p.units} for p in sol.plan],
        "replayed": bool(sol.plan),
        "attempts": [{"phase": a.phase, "moves": a.moves, "status": a.status,
                      "seconds": round(a.seconds, 3), "variables": a.variables} for a in sol.attempts],
        "time_limit": args.time_limit, "nodes": args.nodes, "limit": _limits(args).limit,
        "workers": _workers(args), "seed": args.seed,
        "seconds": round(sol.seconds, 3),
    }


def _rows(items: list[str], width: int) -> list[str]:
    """Items joined by commas into rows of at most ``width`` characters, never split."""
    rows = [items[0]]
    for item in items[1:]:
        if len(rows[-1]) + 2 + len(item) > width:
            rows[-1] += ","
            rows.append(item)
        else:
            rows[-1] += ", " + item
    return rows


_RULES = {"full": "full rules: one unit per province, convoys, centers owned at the end of a Fall, "
                  "builds in Winter",
          "paper": "the paper's rules: a center counts when a starting unit passes through it; "
                   "no builds, no convoys"}


_OPPOSITION = {"hold": "the others' units hold, never move, never build; one dislodged is destroyed",
               "supported": "the others' units hold and may each support a neighbour's hold; "
                            "the plan succeeds against every such choice"}


def exact_text(args: argparse.Namespace, sol: Any) -> str:
    source = args.from_file or "the 1901 start"
    what = "owns" if sol.rules == "full" else "has passed through"
    if sol.plan or sol.objective == 0:
        head = (f"{sol.power} {what} {sol.target} supply centers after {sol.reached}: "
                f"{sol.years} game years, {sol.objective} movement phases from {source}")
    elif sol.status == "infeasible":
        head = f"{sol.power} cannot reach {sol.target} supply centers from {source}"
    else:
        head = f"{sol.power}: no plan to {sol.target} supply centers from {source} yet"
    lines = [head, f"  status: {sol.status} ({sol.seconds:.2f} s; {_limit_words(args)}, "
                   f"{_workers(args)} CP-SAT worker{'' if _workers(args) == 1 else 's'})",
             f"  rules: {_RULES[sol.rules]}"]
    if sol.opposition != "none":
        lines.append(f"  opposition: {_OPPOSITION[sol.opposition]}")
    if sol.defended:
        lines.append(f"  defence: as {args.defence} orders them in {', '.join(sol.defended)}")
    if sol.bound and sol.status != "infeasible":
        lines.append(f"  bound: no plan reaches {sol.target} before {sol.bound_phase} "
                     f"({sol.bound_years} game years, {sol.bound} movement phases), because")
    else:
        lines.append("  because")
    lines += [f"    {line}" for line in sol.explanation()]
    if sol.plan:
        against = (f"with {sol.power} alone on the board" if sol.opposition == "none" else
                   "against the others' units, as the opposition plays them")
        lines.append(f"  plan, replayed through the adjudicator {against}:")
        for p in sol.plan:
            rows = _rows([str(o) for o in p.orders] or ["(no orders)"], 64)
            rows[-1] += f"  -> {p.centers} centers, {p.units} units"
            lines.append(f"    {p.phase.short}  {rows[0]}")
            lines += [f"            {row}" for row in rows[1:]]
            given = [str(o) for o in p.others if " S " in str(o)]
            if given:
                rows = _rows(given, 56)
                lines.append(f"            their supports: {rows[0]}")
                lines += [f"                            {row}" for row in rows[1:]]
    return "\n".join(lines)
