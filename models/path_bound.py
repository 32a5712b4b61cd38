"""The lower bound on the fastest path that explains itself: a counting argument, phase by phase.

`lower_bound` gives the earliest phase no simple counting argument rules out, with the
argument as lines a person can check (`LowerBound.lines`); `dipsolve.models.path` starts
its search over horizons there.
"""

from __future__ import annotations

from dataclasses import dataclass

from dipsolve.core.position import Position

from .path_problem import Place, phases_from, problem, years_between


@dataclass(frozen=True)
class LowerBound:
    """No plan reaches the target before ``phase``; ``lines`` say why."""

    moves: int | None            # movement phases; None when no horizon ever reaches it
    phase: str | None            # "F1903M": the earliest phase the argument allows
    years: int | None
    lines: tuple[str, ...]


def lower_bound(position: Position, power: str, target: int, rules: str = "full") -> LowerBound:
    """The earliest phase no simple counting argument rules out, with the argument.

    Two caps on the centers a power can count after each phase that can count: every
    center it does not yet count must be within reach of one of its units (or, under
    the full rules, of a unit it could have built by then), and each unit adds at most
    one new center per counting phase (each Fall under the full rules: a unit stands on
    one center at the end of it; each movement phase under the paper's).  Under the
    full rules a Winter adds at most one unit per home center and no more than the
    centers exceed the units.  When neither cap grows any more and the target is still
    out of reach, no horizon reaches it.

    It takes a few milliseconds (the caps stop growing within a few years on any map),
    so a solve always finishes it, and even an answer that timed out carries its bound.
    """
    pb = problem(position, power, target, rules)
    m = pb.m
    po = m.province_of
    held = set(pb.counted_at_start())
    count, units = len(held), len(pb.units)
    start = pb.start
    if count >= target:
        return LowerBound(0, start.short, 0, (f"{power} already has {count} centers at {start.short}",))
    what = "owns" if pb.full else "owns or occupies"
    lines = [f"{start.short}: {power} {what} {count} centers and has {units} units"]
    if pb.full:
        lines.append("centers change hands only at the end of a Fall: no Spring can complete the count")
    n_moves = 0
    reach = pb.reach([])[0]
    last: tuple[frozenset[Place], int, int] | None = None
    for ph in phases_from(start):
        if ph.kind == "adjustment":
            if pb.full:
                homes = len(pb.buildable(reach))
                builds = max(0, min(homes, count - units))
                if builds:
                    lines.append(f"{ph.short}: at most {units + builds} units ({units} + at most {builds} "
                                 f"builds: one per home center it can own, no more than centers exceed units)")
                units += builds
            reach = pb.after(reach, ph)
            continue
        reach = pb.after(reach, ph)
        n_moves += 1
        if not pb.can_reach_goal(ph):
            continue
        within = held | {po[loc] for _, loc in reach if po[loc] in m.centers}
        by_reach, by_units = len(within), count + units
        cap = min(by_reach, by_units)
        why = (f"only {by_reach} centers are within reach by then" if by_reach <= by_units
               else f"{count} + at most one new center for each of its {units} units")
        lines.append(f"{ph.short}: at most {cap} centers ({why})")
        if cap >= target:
            lines.append(f"{ph.short} is the first phase this argument allows for {target} centers")
            return LowerBound(n_moves, ph.short, years_between(start, ph), tuple(lines))
        state = (reach, cap, units)
        if state == last:
            break
        last, count = state, cap
    lines.append(f"neither cap grows any more: {target} centers are out of reach")
    return LowerBound(None, None, None, tuple(lines))
