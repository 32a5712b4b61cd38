"""``dipsolve adjust``: the choices of a winter adjustment phase, its equilibria, and
Loeb's open problem.

    dipsolve adjust FILE [--count] [--power P] [--equilibrium pure|mixed|correlated|coarse]
                    [--evaluation influence|centers] [--no-waives] [--time-limit S]
                    [--json]
    dipsolve adjust --worst-case [--waives] [-o WITNESS.dip] [--time-limit S] [--json]

See `dipsolve.algorithms.adjustments` (counting and enumerating), `dipsolve.models.equilibria`
(equilibria and their certificates) and `dipsolve.models.worstcase` (the open problem).
"""

from __future__ import annotations

import argparse
import json
import math
from typing import TYPE_CHECKING, Any

from ..core.results import Deadline, Limits, TimeUp, interrupted

from .interrupt import cooperative
from .options import (UserError, add_evaluation, add_json, add_nodes, add_power, add_seed, add_time_limit,
                      add_variant, check_nodes, load)
from .output import Outputs
from .progress import Progress
from .show import position_json

if TYPE_CHECKING:
    from ..algorithms.adjustments import OrderSet
    from ..core.position import Position

_DESCRIPTION = """\
The winter adjustment phase as Loeb's "combinatorics of adjustments" sees it.

  dipsolve adjust FILE --count        each power's number of legal adjustment order
                                      sets (by formula) and the joint number of profiles
  dipsolve adjust FILE --power P      every legal order set of P, one a line
  dipsolve adjust FILE                an equilibrium of the seven powers' adjustments
                                      (default --equilibrium pure), with its certificate:
                                      each power's largest gain from deviating alone
  dipsolve adjust --worst-case        the largest joint number of choices any position
                                      that can occur allows (Loeb's open problem), and a
                                      witness position (-o WITNESS.dip)

Equilibria: 'pure' is Loeb's combined search (Possible improvements 1); a group of
powers whose search cycles goes on to mixed strategies (a small group) or, too large
for a table, to a correlated equilibrium by LP with column and row generation and then
the double oracle from its support (a mixed one when it finds it).  'mixed' solves each
group by LP (zero-sum), support enumeration or the Sandholm-Gilpin-Conitzer MILP (two
powers), small-support enumeration (three or more) or the double oracle (large), else
the best epsilon-Nash found.  'correlated' and 'coarse' are an LP per group (column
generation when large).  Every answer states its kind, its epsilon (the largest gain
from deviating, exact over every order set of every power) and its status: optimal
only when that epsilon is at most 1e-6.

Payoffs: each power's value of the position after all adjustments (--evaluation;
influence is Hall & Loeb's section 4.1).

Waives: the game and the counts of FILE take every legal order set, waives included
(--no-waives: build as many units as possible, the seed's convention); --worst-case
answers the seed's question without waives unless --waives is given."""


def register(subparsers: Any) -> None:
    """Add ``adjust`` to the ``dipsolve`` subcommands."""
    p = subparsers.add_parser(
        "adjust", help="adjustment choices, their equilibria, Loeb's worst case",
        description=_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", nargs="?", metavar="FILE", help="a Winter adjustment position (.dip or DAIDE)")
    p.add_argument("--count", action="store_true",
                   help="count each power's legal order sets (no enumeration) and their product")
    add_power(p, help="only this power: list its order sets (or, with --count, count them)")
    p.add_argument("--equilibrium", choices=("pure", "mixed", "correlated", "coarse"),
                   help="compute an equilibrium of this kind (the default when neither "
                        "--count nor --power is given: pure)")
    add_evaluation(p, help="payoff of each power after the adjustments (influence: Hall & "
                           "Loeb 4.1)")
    p.add_argument("--waives", dest="waives", action="store_true", default=None,
                   help="count voluntary waives (default for FILE; for --worst-case, the "
                        "seed's question is asked without them)")
    p.add_argument("--no-waives", dest="waives", action="store_false",
                   help="build as many units as possible: no voluntary waive")
    p.add_argument("--worst-case", action="store_true",
                   help="solve Loeb's open problem: the most joint adjustment choices of "
                        "any position that can occur")
    p.add_argument("-o", "--output", metavar="WITNESS.dip",
                   help="with --worst-case: write the witness position there")
    add_seed(p, help="--worst-case: CP-SAT's seed for the witness position (the equilibria's LPs "
                     "and searches make no random choice)")
    add_time_limit(p, None, help="seconds for the solver (default 60; 300 for --worst-case); the "
                                 "best answer so far is reported when it runs out")
    add_nodes(p, "the solver")
    add_variant(p)
    add_json(p, help="one JSON object (see --help of the README)")
    p.set_defaults(func=cmd_adjust, stops_by_itself=True)


def cmd_adjust(args: argparse.Namespace) -> int:
    if args.time_limit is None:
        args.time_limit = 300.0 if args.worst_case else 60.0
        check_nodes(args)               # a time limit to fit --nodes (its safety net)
    if args.worst_case:
        if args.file or args.count or args.power or args.equilibrium:
            raise UserError("--worst-case takes no FILE, --count, --power or --equilibrium")
        outputs = Outputs()
        if args.output:
            outputs.plan(args.output)       # a bad -o fails now, not after the search
        with cooperative():
            return _worst_case(args, outputs)
    if args.output:
        raise UserError("-o/--output is for --worst-case (the witness position)")
    if not args.file:
        raise UserError("adjust needs a FILE (a Winter adjustment position), or --worst-case")
    position, _ = load(args.file, args)
    if position.phase.kind != "adjustment":
        raise UserError(f"the position is {position.phase}, expected an adjustment "
                        f"phase (e.g. 'phase: Winter 1901 Adjustment')",
                        filename=args.file)
    waives = True if args.waives is None else args.waives
    power = args.power                  # a power's name or None (options.check)
    if args.count:
        return _count(args, position, power)
    if power and not args.equilibrium:
        return _list(args, position, power, waives)
    with cooperative():
        return _equilibrium(args, position, power, waives)


def _deadline(args: argparse.Namespace) -> Deadline:
    """The solver's one clock, from the moment the input is read (reading and parsing
    FILE is start-up, as is loading the libraries) to the answer and its certificate."""
    return _limits(args).deadline()


def _limits(args: argparse.Namespace) -> Limits:
    """The solver's settings: the time limit, --nodes, and --seed, CP-SAT's for the witness."""
    return Limits(time_limit=args.time_limit, seed=args.seed, nodes=args.nodes)


# -- counting and listing -----------------------------------------------------------------------

def _what(position: Position, power: str) -> str:
    from ..algorithms.adjustments import build_sites
    delta = position.adjustment(power)
    if delta > 0:
        sites = build_sites(position, power)
        where = ", ".join(s.province for s in sites) or "no free home center"
        return f"{delta} build{'s' if delta > 1 else ''} ({where})"
    if delta < 0:
        return f"{-delta} removal{'s' if delta < -1 else ''} of {len(position.units_of(power))}"
    return "none"


def _count(args: argparse.Namespace, position: Position, only: str | None) -> int:
    from ..algorithms.adjustments import build_sites, count_adjustments, joint_count, seed_waive_count
    powers = [only] if only else position.powers()
    rows: list[dict[str, Any]] = []
    for p in powers:
        with_w = count_adjustments(position, p, True)
        without = count_adjustments(position, p, False)
        delta = position.adjustment(p)
        seed = (seed_waive_count([s.options for s in build_sites(position, p)], delta)
                if delta > 0 else with_w)
        rows.append({"power": p, "units": len(position.units_of(p)), "centers": len(position.centers_of(p)),
                     "adjustment": delta, "what": _what(position, p), "choices": with_w,
                     "choices_without_waives": without, "seed_counting_waives": seed})
    total = {"choices": joint_count(position, True), "choices_without_waives": joint_count(position, False)}
    if only:
        total = {"choices": rows[0]["choices"], "choices_without_waives": rows[0]["choices_without_waives"]}
    if args.json:
        print(json.dumps({"file": args.file, "phase": position.phase.short, "powers": rows,
                          "joint" if not only else "power_total": total}))
        return 0
    print(f"# {args.file}: {position.phase}")
    print(f"{'power':8} {'units':>5} {'centers':>7}  {'adjustment':30} {'choices':>9} "
          f"{'no waives':>10} {'seed':>6}")
    for r in rows:
        print(f"{r['power']:8} {r['units']:5} {r['centers']:7}  {r['what']:30} {r['choices']:9,} "
              f"{r['choices_without_waives']:10,} {r['seed_counting_waives']:6,}")
    if not only:
        print(f"joint adjustment profiles: {total['choices']:,} (every legal order set, waives "
              f"included); {total['choices_without_waives']:,} without voluntary waives")
    print("# choices: every legal order set; no waives: as many builds as possible; seed: Loeb's "
          "'counting waives' (builds of 1, 2, ... units, not the set that waives them all)")
    return 0


def _orders_text(orders: OrderSet) -> str:
    return ", ".join(str(o) for o in orders) or "(no orders)"


def _list(args: argparse.Namespace, position: Position, power: str, waives: bool) -> int:
    from ..algorithms.adjustments import count_adjustments, iter_adjustments
    sets = iter_adjustments(position, power, waives)
    if args.json:
        print(json.dumps({"file": args.file, "phase": position.phase.short, "power": power,
                          "waives": waives, "order_sets": [[str(o) for o in s] for s in sets]}))
        return 0
    print(f"# {args.file}: {power}, {_what(position, power)}: "
          f"{count_adjustments(position, power, waives):,} legal order sets"
          f"{'' if waives else ' without voluntary waives'}")
    for n, s in enumerate(sets, 1):
        print(f"{n:6}  {_orders_text(s)}")
    return 0


# -- equilibria -----------------------------------------------------------------------------------

def _equilibrium(args: argparse.Namespace, position: Position, only: str | None, waives: bool) -> int:
    from ..algorithms.adjustments import joint_count
    from ..algorithms.evaluation import evaluator
    from ..models.equilibria import solve_equilibrium
    evaluate = evaluator(args.evaluation)
    kind = args.equilibrium or "pure"
    with Progress() as progress:
        def evaluated(evaluations: int, what: str) -> None:
            progress.show(f"  {evaluations:,} evaluations ({what})")

        eq = interrupted(solve_equilibrium(position, evaluate, kind, waives=waives,
                                           progress=evaluated, deadline=_deadline(args)))
    shown = [only] if only else [s.power for s in eq.strategies]
    if args.json:
        print(json.dumps(_equilibrium_json(args, position, eq, waives, shown)))
        return 0
    print(f"# {args.file}: {position.phase}; {joint_count(position, waives):,} joint adjustment "
          f"profiles ({'waives included' if waives else 'no voluntary waives'})")
    print(f"# payoffs: the {args.evaluation} evaluation of the position after the adjustments")
    for g in eq.groups:
        note = f"; {g.note}" if g.note else ""
        print(f"# group {' + '.join(g.powers)}: {g.profiles:,} profiles, {g.method}, {g.status}{note}")
    for n in eq.notes:
        print(f"# note: {n}")
    if eq.certified:
        proof = f"largest gain from deviating {eq.epsilon:.3g} (certified in the whole game)"
    else:
        proof = "largest gain from deviating not known (the certificate was cut short)"
    if eq.status == "optimal":
        what = f"{eq.kind} equilibrium"
    else:                  # never called an equilibrium unless its epsilon is at most 1e-6
        noun = "distribution" if eq.kind in ("correlated", "coarse") else (
            "profile" if eq.kind == "pure" else "strategies")
        what = f"{eq.kind} {noun}, not {'' if eq.certified else 'known to be '}an equilibrium"
    print(f"{what}: {eq.status}; {proof}; {eq.seconds:.2f} s, "
          f"{eq.evaluations:,} evaluations")
    width = max((len(p) for p in shown), default=8)
    by_power = {s.power: s for s in eq.strategies}
    for p in shown:
        s = by_power.get(p)
        if s is None:
            if p in eq.fixed:
                print(f"  {p:{width}}  {_orders_text(eq.fixed[p])}  (its only order set)")
            continue
        gain = f"{eq.gains[p]:.3g}" if p in eq.gains else "?"
        value = f"{eq.values[p]:9.2f}" if p in eq.values else f"{'?':>9}"
        head = f"  {p:{width}}  value {value}  gain {gain}"
        if s.pure:
            print(f"{head}  {_orders_text(s.support[0][0])}")
            continue
        print(head)
        for chosen, prob in s.support:
            print(f"  {'':{width}}    {prob:6.4f}  {_orders_text(chosen)}")
    if not only:
        for p, orders in eq.fixed.items():
            if orders:
                print(f"  {p:{width}}  {_orders_text(orders)}  (its only order set)")
    for powers, dist in eq.correlated:
        if len(dist) > 1:
            print(f"# correlated distribution of {' + '.join(powers)}:")
            for profile, prob in dist:
                print(f"#   {prob:6.4f}  " + "; ".join(f"{p}: {_orders_text(o)}"
                                                      for p, o in zip(powers, profile)))
    if eq.next_position is not None and not only:
        print("# replayed through the adjudicator: every order succeeds; the position that "
              f"follows has {len(eq.next_position.units)} units.  The orders, to append to FILE:")
        print("[orders]")
        for p, orders in eq.orders.items():
            for o in orders:
                print(f"{p}: {o}")
    return 0


def _equilibrium_json(args: argparse.Namespace, position: Position, eq: Any, waives: bool,
                      shown: list[str]) -> dict[str, Any]:
    from ..algorithms.adjustments import joint_count
    return {
        "file": args.file, "phase": position.phase.short, "evaluator": args.evaluation,
        "waives": waives, "joint_profiles": joint_count(position, waives),
        "kind": eq.kind, "status": eq.status,
        "epsilon": eq.epsilon if eq.certified else None, "bound": eq.bound,
        "certified": eq.certified, "seconds": eq.seconds, "evaluations": eq.evaluations,
        "groups": [{"powers": list(g.powers), "profiles": g.profiles, "method": g.method,
                    "status": g.status, "note": g.note} for g in eq.groups],
        "strategies": {s.power: [{"orders": [str(o) for o in orders], "probability": prob}
                                 for orders, prob in s.support]
                       for s in eq.strategies if s.power in shown},
        "values": {p: v for p, v in eq.values.items() if p in shown},
        "gains": {p: v for p, v in eq.gains.items() if p in shown},
        "fixed": {p: [str(o) for o in os] for p, os in eq.fixed.items()},
        "correlated": [{"powers": list(powers),
                        "distribution": [{"orders": {p: [str(o) for o in os] for p, os in zip(powers, orders)},
                                          "probability": prob} for orders, prob in dist]}
                       for powers, dist in eq.correlated],
        "next": position_json(eq.next_position) if eq.next_position is not None else None,
        "notes": list(eq.notes),
    }


# -- Loeb's open problem ------------------------------------------------------------------------------

def _worst_case(args: argparse.Namespace, outputs: Outputs) -> int:
    from ..algorithms.adjustments import joint_count
    from ..models.worstcase import solve_worst_case, witness, witness_text
    waives = bool(args.waives)
    deadline = _deadline(args)
    with Progress() as progress:
        progress.show("[worst case] the ILP of every power's configurations (CBC)")
        result = solve_worst_case(waives=waives, deadline=deadline.part(0.75))  # 1/4: the witness
        progress.show("[worst case] a witness position (CP-SAT)")
        try:
            w = witness(result.plans, limits=_limits(args), deadline=deadline)
        except TimeUp:
            w = None
    result = interrupted(result)
    text = witness_text(w, result)
    if args.output and w is not None:
        outputs.put(args.output, text)
    written = bool(outputs.commit())
    if args.json:
        print(json.dumps({
            "waives": waives, "status": result.status, "maximum": result.product,
            "bound_log": result.bound_log if math.isfinite(result.bound_log) else None,
            "confirmed_exactly": result.confirmed,
            "checked_vectors": result.checked_vectors, "seconds": result.seconds,
            "powers": [{"power": pl.power, "units": pl.config.units, "centers": pl.config.centers,
                        "free_homes": list(pl.config.free_homes), "choices": pl.choices,
                        "centers_last_winter": pl.centers_last_winter, "gained": pl.gained,
                        "lost": pl.lost} for pl in result.plans],
            "witness": args.output if written else None,
            "witness_joint_count": joint_count(w.position, waives) if w is not None else None}))
        return 0
    print(f"# {result.status}: {result.product:,} joint adjustment choices "
          f"({'counting' if waives else 'not counting'} waives) in {result.seconds:.1f} s")
    print(f"# exact check: {result.checked_vectors} vector(s) of per-power choices within 1e-6 of "
          f"the optimum's logarithm, compared as integers: "
          f"{'none is larger' if result.confirmed else 'not completed'}")
    if w is not None:
        print(f"# the witness counted again: {joint_count(w.position, waives):,}")
    if args.output:
        print(f"# witness written to {args.output}" if written
              else f"# no witness written to {args.output}: "
                   + ("interrupted" if result.status == "interrupted" else "the time limit came first"))
    print(text)
    return 0
