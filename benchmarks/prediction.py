"""How well the learned order policy predicts a table: fitted on some DumbBot games, judged on others.

The `learned` seat (`dipsolve.algorithms.order_policy`) fits a conditional logit to the
orders the other powers give.  This measures what that fit is worth as a prediction,
on seeded games of seven DumbBots (`dipsolve.algorithms.dumbbot`, the field of the
strength benchmark): the policy is fitted to six powers' orders in ``--train`` games
(Austria's are left out, as a seat's own would be) and judged on the same six powers in
``--test`` other games, unit by unit, each unit's order given its power's other orders:

* the mean log-probability of the order played (0 is a certain prediction), beside a
  uniform guess over the unit's legal orders;
* how often the policy's most likely order is the one played.

    python benchmarks/prediction.py                       # 5 games to fit, 1 to judge, to 1908
    python benchmarks/prediction.py --train 1 --test 3 --json
    python benchmarks/prediction.py --early --test 8 --until 1906
    python benchmarks/prediction.py --speed --test 4
    python benchmarks/prediction.py --draws 32 --test 2 [--temperature 0.7] [--sweeps 4]

``--speed`` times the prior's first draw for every power in every movement phase of the
``--test`` games (CPU time; a position's features are computed at its first draw and kept,
so this is the cost a fresh position has: a look-ahead's, or a learner reading a phase).

``--early`` measures the policy as a seat has it during a game: fitted after each movement
phase to that game's phases so far (as `DipsolveBot` refits it), and judged on the next
one, phase by phase; started from no prior (every legal order alike, ``L2``) and from the
package's prior (`default_prior`, fitted to dipsolve's own self-play, ``PRIOR_L2``).

``--draws K`` judges what a seat's search is actually given: not each unit's order given its
power's real others (the pseudo-likelihood above), but ``K`` whole draws of each power's
orders, the policy refitted after every movement phase as in ``--early`` (from the prior),
beside ``K`` draws of DumbBot's own program in the same positions (what the ``sampled``
model draws: the most a model of this table could give). Per unit, the share of draws
holding the order played and its log (add-one-half over the unit's legal orders); per kind
of order; for the moves played, whether the unit moves at all and where, given that it
moves; and the Brier score of "the power moves a unit into this province" over every
province its units can move to. ``--temperature`` and ``--sweeps`` change the policy's
draws (its weights divided by the temperature; Gibbs sweeps after the first pass).

Apart from ``--speed``, no clock is read: the figures depend only on the seeds.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

POWERS_SEEN = ("England", "France", "Germany", "Italy", "Russia", "Turkey")


def dumbbot_game(seed: int, until: int) -> list:
    """The movement phases of one DumbBot self-play game: (position, orders) each."""
    from dipsolve.algorithms import dumbbot
    from dipsolve.core.adjudicator import adjudicate
    from dipsolve.core.position import Position

    pos = Position.initial()
    rngs = {p: random.Random(f"{seed}:{p}") for p in pos.map.powers}
    phases = []
    while pos.phase.year <= until:
        orders = {p: dumbbot.orders(pos, p, rngs[p]) for p in pos.map.powers}
        if pos.phase.kind == "movement":
            phases.append((pos, orders))
        pos = adjudicate(pos, orders).next
    return phases


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--train", type=int, default=5, help="games the policy is fitted on (default 5)")
    p.add_argument("--test", type=int, default=1, help="games it is judged on (default 1)")
    p.add_argument("--until", type=int, default=1908, help="last year of each game (default 1908)")
    p.add_argument("--iterations", type=int, default=300, help="Adam iterations of the fit (default 300)")
    p.add_argument("--early", action="store_true",
                   help="judge the policy fitted during each test game, phase by phase, "
                        "with and without the package's prior (no training games)")
    p.add_argument("--speed", action="store_true",
                   help="time the prior's draws in the --test games' fresh positions (CPU time)")
    p.add_argument("--draws", type=int, metavar="K",
                   help="judge K whole draws per power and phase of the policy refitted during each "
                        "--test game, beside K draws of DumbBot's own program")
    p.add_argument("--temperature", type=float, default=1.0,
                   help="with --draws: the policy's weights divided by this (default 1)")
    p.add_argument("--sweeps", type=int, help="with --draws: Gibbs sweeps after the first pass "
                                               "(default the package's)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = p.parse_args(argv)
    if args.train < 1 or args.test < 1:
        p.error("--train and --test take at least 1 game each")
    if args.draws is not None:
        if args.draws < 1 or not args.temperature > 0 or (args.sweeps is not None and args.sweeps < 0):
            p.error("--draws takes at least 1, --temperature more than 0, --sweeps at least 0")
        return draws(args.test, args.until, args.draws, args.temperature, args.sweeps, args.json)
    if args.speed:
        return speed(args.test, args.until, args.json)
    if args.early:
        return early(args.test, args.until, args.json)
    from dipsolve.algorithms.order_policy import FEATURES, OrderPolicy, PolicyLearner

    games = [dumbbot_game(s, args.until) for s in range(args.train + args.test)]
    fit = PolicyLearner()
    for g in games[:args.train]:
        for pos, orders in g:
            fit.observe(pos, orders, POWERS_SEEN)
    policy = fit.fit(args.iterations)
    judge = PolicyLearner()
    for g in games[args.train:]:
        for pos, orders in g:
            judge.observe(pos, orders, POWERS_SEEN)
    out = {"train_games": args.train, "test_games": args.test, "until": args.until,
           "features": len(FEATURES), "units_fitted": fit.observed, "units_judged": judge.observed,
           "log_probability": round(judge.log_likelihood(policy), 3),
           "top_one": round(judge.top_one(policy), 3),
           "uniform_log_probability": round(judge.log_likelihood(OrderPolicy()), 3),
           "fitted_log_probability": round(fit.log_likelihood(policy), 3)}
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"fitted on {out['units_fitted']} units ({args.train} games), judged on "
              f"{out['units_judged']} ({args.test} games), {out['features']} features")
        print(f"  mean log-probability of the order played  {out['log_probability']:7.3f} "
              f"(uniform {out['uniform_log_probability']:.3f}; on the games fitted {out['fitted_log_probability']:.3f})")
        print(f"  most likely order is the one played       {out['top_one']:7.1%}")
    return 0


def speed(tests: int, until: int, as_json: bool) -> int:
    """`--speed`: the CPU time of the prior's draws for all the powers with units in each
    movement phase of ``tests`` DumbBot games (seeds 0 on), each position fresh."""
    import time
    from dipsolve.algorithms.order_policy import default_prior

    policy = default_prior()
    positions = [pos for s in range(tests) for pos, _ in dumbbot_game(s, until)]
    rng = random.Random(0)
    start = time.process_time()
    for pos in positions:
        for power in pos.powers():
            if pos.units_of(power):
                policy.draw(pos, power, rng)
    seconds = time.process_time() - start
    out = {"test_games": tests, "until": until, "positions": len(positions),
           "cpu_seconds": round(seconds, 3), "ms_per_position": round(1000 * seconds / len(positions), 2)}
    if as_json:
        print(json.dumps(out, indent=2))
    else:
        print(f"{out['positions']} fresh positions ({tests} games to {until}): every power's draw "
              f"{out['ms_per_position']:.2f} ms a position (CPU, {out['cpu_seconds']:.2f} s in all)")
    return 0


def draws(tests: int, until: int, k: int, temperature: float, sweeps: int | None,
          as_json: bool) -> int:
    """`--draws`: ``k`` draws of every seen power's orders in each movement phase of
    ``tests`` DumbBot games (seeds 0 on, from the second movement phase), from the policy
    refitted as a seat refits it and from DumbBot's program, judged against the orders
    played."""
    import math
    from dipsolve.algorithms import dumbbot, order_policy
    from dipsolve.algorithms.order_policy import OrderPolicy, PolicyLearner, default_prior
    from dipsolve.core.legal import legal_orders
    from dipsolve.core.orders import Move

    if sweeps is not None:
        order_policy.SWEEPS = sweeps
    sources = ("policy", "program")
    score = {name: {"units": 0, "hit": 0.0, "log": 0.0, "kinds": {}, "moves": 0, "move_log": 0.0,
                    "where_log": 0.0, "brier": 0.0, "provinces": 0} for name in sources}
    for seed in range(tests):
        learner = PolicyLearner(prior=default_prior())
        for n, (pos, orders) in enumerate(dumbbot_game(seed, until)):
            if n:
                fitted = learner.policy
                policy = OrderPolicy(tuple(w / temperature for w in fitted.weights))
                for power in POWERS_SEEN:
                    units = {u.location: u for u in pos.units_of(power)}
                    if not units:
                        continue
                    legal = {loc: legal_orders(pos, u) for loc, u in units.items()}
                    reach = {pos.map.province_of[o.target] for os in legal.values()
                             for o in os if isinstance(o, Move)}
                    played_into = {pos.map.province_of[o.target] for o in orders[power] if isinstance(o, Move)}
                    for name in sources:
                        got = [policy.draw(pos, power, rng) if name == "policy" else dumbbot.orders(pos, power, rng)
                               for rng in (random.Random(f"{seed}:{n}:{power}:{i}") for i in range(k))]
                        by_unit = [{o.location: o for o in d} for d in got]
                        s = score[name]
                        for o in orders[power]:
                            if o.location not in legal:
                                continue
                            mine = [d.get(o.location) for d in by_unit]
                            c = sum(1 for x in mine if x == o)
                            lg = math.log((c + 0.5) / (k + 0.5 * len(legal[o.location])))
                            s["units"] += 1
                            s["hit"] += c / k
                            s["log"] += lg
                            kind = s["kinds"].setdefault(type(o).__name__, [0, 0.0])
                            kind[0] += 1
                            kind[1] += lg
                            if isinstance(o, Move):
                                moving = sum(1 for x in mine if isinstance(x, Move))
                                s["moves"] += 1
                                s["move_log"] += math.log((moving + 0.5) / (k + 1))
                                s["where_log"] += math.log((c + 0.5) / (moving + 0.5 * len(legal[o.location])))
                        into = [{pos.map.province_of[x.target] for x in d if isinstance(x, Move)} for d in got]
                        for q in reach:
                            share = sum(1 for t in into if q in t) / k
                            s["brier"] += (share - (q in played_into)) ** 2
                            s["provinces"] += 1
            learner.observe(pos, orders, POWERS_SEEN)
            learner.fit()
    out: dict = {"test_games": tests, "until": until, "draws": k, "temperature": temperature,
                 "sweeps": order_policy.SWEEPS}
    for name, s in score.items():
        out[name] = {"units": s["units"], "played_share": round(s["hit"] / s["units"], 3),
                     "log_probability": round(s["log"] / s["units"], 3),
                     "by_kind": {kind: {"units": c, "log_probability": round(t / c, 3)}
                                 for kind, (c, t) in sorted(s["kinds"].items())},
                     "moves": s["moves"],
                     "log_probability_moves_at_all": round(s["move_log"] / s["moves"], 3),
                     "log_probability_where_given_moves": round(s["where_log"] / s["moves"], 3),
                     "brier_moves_into": round(s["brier"] / s["provinces"], 4)}
    if as_json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{tests} DumbBot games to {until}: {k} draws per power and phase (the policy refitted after "
          f"each movement phase from the prior, temperature {temperature:g}, {order_policy.SWEEPS} "
          f"sweep(s); and DumbBot's own program)")
    rows = [("units judged", "units", "{}"), ("share of draws with the order played", "played_share", "{:.1%}"),
            ("mean log-probability (add-1/2)", "log_probability", "{:.3f}"),
            ("  moves: moves at all", "log_probability_moves_at_all", "{:.3f}"),
            ("  moves: where, given it moves", "log_probability_where_given_moves", "{:.3f}"),
            ("Brier, moves into a province", "brier_moves_into", "{:.4f}")]
    print(f"  {'':40} {'policy':>10} {'program':>10}")
    for label, key, fmt in rows:
        print(f"  {label:40} {fmt.format(out['policy'][key]):>10} {fmt.format(out['program'][key]):>10}")
    for kind in sorted(set(out["policy"]["by_kind"]) | set(out["program"]["by_kind"])):
        a, b = (out[n]["by_kind"].get(kind) for n in sources)
        print(f"  {'  log-probability, ' + kind + ' (' + str((a or b)['units']) + ')':40} "
              f"{a['log_probability'] if a else '-':>10} {b['log_probability'] if b else '-':>10}")
    return 0


def early(tests: int, until: int, as_json: bool) -> int:
    """`--early`: each of ``tests`` DumbBot games (seeds 0 on) watched as a seat watches
    it, the policy refitted after every movement phase and judged on the next."""
    from dipsolve.algorithms.order_policy import PolicyLearner, default_prior

    starts = {"no prior": lambda: PolicyLearner(), "prior": lambda: PolicyLearner(prior=default_prior())}
    scores: dict[str, dict[str, list[tuple[float, float, int]]]] = {name: {} for name in starts}
    for seed in range(tests):
        game = dumbbot_game(seed, until)
        learners = {name: make() for name, make in starts.items()}
        for k, (pos, orders) in enumerate(game):
            if k:
                judge = PolicyLearner()
                judge.observe(pos, orders, POWERS_SEEN)
                for name, learner in learners.items():
                    scores[name].setdefault(pos.phase.short, []).append(
                        (judge.log_likelihood(learner.policy), judge.top_one(learner.policy), judge.observed))
            for learner in learners.values():
                learner.observe(pos, orders, POWERS_SEEN)
                learner.fit()

    def mean(rows: list[tuple[float, float, int]], i: int) -> float:
        return sum(r[i] * r[2] for r in rows) / sum(r[2] for r in rows)

    phases = list(scores["no prior"])
    table = {name: {ph: {"log_probability": round(mean(rows, 0), 3), "top_one": round(mean(rows, 1), 3)}
                    for ph, rows in by_phase.items()} for name, by_phase in scores.items()}
    overall = {name: round(mean([r for rows in by_phase.values() for r in rows], 0), 3)
               for name, by_phase in scores.items()}
    if as_json:
        print(json.dumps({"test_games": tests, "until": until, "by_phase": table, "overall": overall}, indent=2))
        return 0
    print(f"{tests} DumbBot games to {until}, the policy refitted after each movement phase, judged "
          f"on the next (mean log-probability of the order played / most likely order played)")
    print(f"  {'phase':8} " + "  ".join(f"{name:>16}" for name in starts))
    for ph in phases:
        print(f"  {ph:8} " + "  ".join(f"{table[n][ph]['log_probability']:8.3f} {table[n][ph]['top_one']:6.1%}"
                                      for n in starts))
    print(f"  {'all':8} " + "  ".join(f"{overall[n]:8.3f}{'':8}" for n in starts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
