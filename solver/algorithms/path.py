"""The three graph searches of Stormont & Allan, *A comparison of Diplomacy gameboard
graph search algorithms* (seed ``001_…``, sections 3.1–3.3), done as the paper says.

The question: how many moves does a power need to pass through or occupy 16 supply
centers if nobody opposes it?  The paper answers it with a search over the map graph,
not over game positions:

* the root is the power; the first ply is the power's units in alphabetical order
  (Berlin, Kiel, Munich for Germany), each a node carrying its unit type (§3, fig. 4);
* the goal count starts at the supply centers the power already holds (§3.1);
* a node's children are the places its unit type may move to (armies on land and
  coasts, fleets on seas and coasts, coasts respected), in alphabetical order; a child
  already on the visited list is left out, and a node goes on the visited list when it
  enters the queue, so a province is reached once, by one unit type (§3.1);
* a supply center counts when its node enters the queue, and the search stops as soon
  as the count reaches the target ("the goal count is also set to three" as the first
  ply is inserted; §3.1);
* breadth-first search takes nodes from a FIFO queue (§3.1); greedy best-first search
  from a priority queue on ``f = h`` (§3.2), A* on ``f = h + g`` (§3.3), ties first in,
  first out, where ``h`` starts at ⌊16 / units⌋ (5, or 4 for Russia), is one less on a
  first-ply node standing on a supply center and one less again on every child that
  is a new supply center, and ``g`` is the depth (1 on the first ply: "f = 4 + 1").

``nodes_expanded`` is what the paper's Table 1 counts: the nodes the search put into
its tree (the first ply and every child added; red and grey nodes of figure 4, which
never enter the queue, are not counted).  Read so, the search gives the paper's hand
counts for Germany for breadth-first search (33) and A* (36); greedy search gives 37
where the paper has 41.  The four nodes are Munich's children: with the first ply in the
order §3 names the units ("armies in Berlin and Munich and a fleet in Kiel",
``order="armies-first"``) Munich is expanded before the Kiel fleet's centers jump the
queue, and all three counts are the paper's (33, 41, 36).  ``expansions`` counts the
nodes taken from the queue and expanded, the textbook measure.

The search is a flood fill: a node's children inherit its unit, so one unit may "be" in
many places at once.  Its answer, ``objective`` (the depth of the deepest supply center
counted), is the number of moves the search needed with every unit moving at once, not
the length of any plan a power could follow; `dipsolve.models.path` computes the real
answer exactly.

A `SearchResult` is a `dipsolve.core.results.Result`.  Its ``bound`` is what no flood can
beat: the fewest moves after which the centers within reach of the power's units (each
center at its distance from the nearest unit that can get there, `flood_bound`) number
the target.  A search's moves are never fewer, and its status is **optimal** when they
are equal, **feasible** when the search counted the target deeper (the visited list is
shared, so a province one unit type claims first is closed to the other: to 16 centers
from the 1901 start, breadth-first search meets the bound for five powers of seven,
England and Turkey not, and A* and greedy search for none), **infeasible** when it ran out of nodes first
(the target is out of this search's reach), and **timed out** when its deadline passed.

Two points the paper leaves open are options:

``order``
    the order nodes enter the queue: by English name (``alphabetical``, the default,
    §3.1), the same with the first ply's armies before its fleets (``armies-first``), by
    abbreviation (``abbreviation``), or by name backwards (``reverse``, to show how much
    the tie-break matters).
``goal_test``
    ``insertion`` (the paper, default) or ``removal``: a center counts when its node is
    taken from the queue, as Russell & Norvig's graph search tests for the goal; the
    node that completes the count is then not expanded.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

from ..core.errors import DipsolveRuleError, DipsolveSyntaxError
from ..core.graph import distances, moves_from
from ..core.map import Map
from ..core.position import Position
from ..core.results import Deadline, Result, Status, limited

ALGORITHMS = ("bfs", "greedy", "astar")
ORDERS = ("alphabetical", "armies-first", "abbreviation", "reverse")
GOAL_TESTS = ("insertion", "removal")

ALGORITHM_NAMES = {"bfs": "breadth-first", "greedy": "greedy best-first", "astar": "A*"}


@dataclass(frozen=True)
class Node:
    """A node of the search tree: a place reached by one of the power's unit types."""

    kind: str            # "A" or "F": the unit type it inherits from its first-ply ancestor
    location: str        # "KIE", "STP/SC"
    g: int               # depth: 1 on the first ply
    h: int               # the paper's heuristic
    parent: int | None   # index of the parent in `SearchResult.nodes`; None on the first ply
    center: bool         # a supply center that raised the count

    def f(self, algorithm: str) -> int:
        """The priority: ``h`` (greedy), ``h + g`` (A*), the depth (breadth-first)."""
        if algorithm == "greedy":
            return self.h
        if algorithm == "astar":
            return self.h + self.g
        return self.g

    def __str__(self) -> str:
        return f"{self.kind} {self.location}"


@dataclass(frozen=True)
class Step:
    """One expansion: the node taken from the queue and the children it added."""

    number: int                  # 0 is the root (its expansion makes the first ply)
    node: int | None             # index into `SearchResult.nodes`; None for the root
    added: tuple[int, ...]       # the nodes put into the queue, in order
    count: int                   # the goal count after this step
    tree: int                    # nodes in the tree after this step


@dataclass(frozen=True, kw_only=True)
class SearchResult(Result):
    """One search: the `Result` fields (``objective``: the moves the search needed, None
    when it did not reach the target; ``bound``: `flood_bound`; ``seconds``: its wall
    time), then the search's own."""

    algorithm: str
    power: str
    target: int
    order: str
    goal_test: str
    reached: bool                # the count reached the target
    #: the paper's measure: nodes put into the search tree (first ply and children)
    nodes_expanded: int
    #: nodes taken from the queue and expanded (the root not counted)
    expansions: int
    start_count: int             # supply centers held at the start
    #: supply centers counted by the search, in the order counted, each with its node
    counted: tuple[tuple[str, int], ...]
    nodes: tuple[Node, ...] = field(repr=False)
    steps: tuple[Step, ...] = field(repr=False)

    def path_to(self, index: int) -> list[Node]:
        """The nodes from the first ply down to node ``index``."""
        out: list[Node] = []
        i: int | None = index
        while i is not None:
            out.append(self.nodes[i])
            i = self.nodes[i].parent
        return out[::-1]

    def trace(self) -> list[str]:
        """The expansion order, one line a step; new supply centers starred::

            3. F KIE  h=4 f=4  + BAL DEN* HEL HOL*  count 5, tree 9
        """
        lines = []
        for s in self.steps:
            added = " ".join(self.nodes[i].location + ("*" if self.nodes[i].center else "")
                             for i in s.added)
            if s.node is None:
                head = f"{s.number}. {self.power} (root)"
            else:
                n = self.nodes[s.node]
                head = f"{s.number}. {n}  h={n.h} f={n.f(self.algorithm)}"
            lines.append(f"{head}  + {added or '(nothing new)'}  count {s.count}, tree {s.tree}")
        if self.reached and self.counted and self.goal_test == "removal":
            lines.append(f"   {self.nodes[self.counted[-1][1]]} taken from the queue: "
                         f"count {self.start_count + len(self.counted)}, stop")
        return lines


def initial_h(units: int, target: int) -> int:
    """The paper's starting heuristic, ⌊target / units⌋: 5 for three units and 4 for
    Russia's four when the target is 16 ("a theoretical minimum value for the distance
    to the number of nodes that unit needs to contribute", §3.2)."""
    return target // max(units, 1)


def _sort_key(game_map: Map, order: str) -> tuple[Callable[[str], tuple[str, str]], bool]:
    """The key that puts locations in the queue's order, and whether to reverse it."""
    prov = game_map.province_of
    if order == "abbreviation":
        return (lambda loc: (prov[loc], loc)), False
    name = game_map.provinces
    return (lambda loc: (name[prov[loc]].name, loc)), order == "reverse"


def flood_bound(position: Position, power: str, target: int) -> int | None:
    """The fewest moves after which the power's units, every one flooding the map at once
    (each along the moves of its own type; coasts respected, no convoys), have had
    ``target`` supply centers within reach, counting those held at the start; None when
    they never do.  No search counts the target in fewer moves: every center it counts
    at depth d is d - 1 moves of one unit's type from that unit."""
    m = position.map
    prov, centers = m.province_of, m.centers
    units = position.units_of(power)
    held = set(position.centers_of(power)) | {prov[u.location] for u in units if prov[u.location] in centers}
    nearest: dict[str, int] = {}
    for u in units:
        for p, depth in distances(m, u.kind, u.location).items():   # coasts respected
            if p in centers and depth < nearest.get(p, depth + 1):
                nearest[p] = depth
    if len(held) >= target:
        return 0
    new = sorted(d for c, d in nearest.items() if c not in held)
    need = target - len(held)
    return new[need - 1] if len(new) >= need else None


def search(position: Position, power: str, algorithm: str = "bfs", target: int = 16,
           order: str = "alphabetical", goal_test: str = "insertion", *,
           deadline: Deadline | None = None) -> SearchResult:
    """Run one of the paper's searches for ``power`` from ``position`` (the other powers'
    units are ignored, as in the paper) and count the nodes it expands.  ``deadline``
    (none by default: the searches take a millisecond) is looked at before each
    expansion."""
    if algorithm not in ALGORITHMS:
        raise DipsolveSyntaxError(f"unknown algorithm {algorithm!r} (expected one of {', '.join(ALGORITHMS)})")
    if order not in ORDERS:
        raise DipsolveSyntaxError(f"unknown order {order!r} (expected one of {', '.join(ORDERS)})")
    if goal_test not in GOAL_TESTS:
        raise DipsolveSyntaxError(f"unknown goal test {goal_test!r} (expected one of {', '.join(GOAL_TESTS)})")
    if deadline is None:
        deadline = Deadline(math.inf)
    m = position.map
    prov, centers = m.province_of, m.centers
    key, backwards = _sort_key(m, order)
    units = sorted(position.units_of(power), key=lambda u: key(u.location), reverse=backwards)
    if order == "armies-first":
        units.sort(key=lambda u: u.kind)       # a stable sort: alphabetical within each type
    if not units:
        raise DipsolveRuleError(f"{power} has no units to search from")

    held = set(position.centers_of(power)) | {prov[u.location] for u in units if prov[u.location] in centers}
    start_count = len(held)
    counted_set = set(held)
    counted: list[tuple[str, int]] = []
    nodes: list[Node] = []
    steps: list[Step] = []
    visited: set[str] = set()
    h0 = initial_h(len(units), target)

    # the queue: FIFO for breadth-first search, a priority queue with FIFO ties otherwise
    fifo: deque[int] = deque()
    heap: list[tuple[int, int, int]] = []
    tick = itertools.count()

    def push(i: int) -> None:
        if algorithm == "bfs":
            fifo.append(i)
        else:
            heapq.heappush(heap, (nodes[i].f(algorithm), next(tick), i))

    def pop() -> int | None:
        if algorithm == "bfs":
            return fifo.popleft() if fifo else None
        return heapq.heappop(heap)[2] if heap else None

    def add(kind: str, loc: str, g: int, h: int, parent: int | None) -> bool:
        """Put a node into the tree and the queue; True when its center completes the count."""
        p = prov[loc]
        visited.add(p)
        new = p in centers and p not in counted_set
        nodes.append(Node(kind, loc, g, h - (1 if new or (parent is None and p in centers) else 0),
                          parent, new))
        push(len(nodes) - 1)
        if new and goal_test == "insertion":
            counted_set.add(p)
            counted.append((p, len(nodes) - 1))
        return len(counted_set) >= target

    def result(reached: bool, timed_out: bool = False) -> SearchResult:
        moves = max((nodes[i].g - 1 for _, i in counted), default=0) if reached else None
        bound = flood_bound(position, power, target)
        if timed_out:
            status = Status.TIMED_OUT
        elif not reached:
            status = Status.INFEASIBLE
        else:
            status = Status.OPTIMAL if moves == bound else Status.FEASIBLE
        return limited(SearchResult(
            status=status, objective=moves, bound=bound, seconds=deadline.seconds(),
            algorithm=algorithm, power=power, target=target, order=order, goal_test=goal_test,
            reached=reached, nodes_expanded=len(nodes), expansions=len(steps) - 1 if steps else 0,
            start_count=start_count, counted=tuple(counted), nodes=tuple(nodes), steps=tuple(steps)),
            deadline)

    if start_count >= target:
        return result(True)

    # the root: its expansion puts the power's units into the queue (the first ply)
    for u in units:
        add(u.kind, u.location, 1, h0, None)
    steps.append(Step(0, None, tuple(range(len(nodes))), len(counted_set), len(nodes)))

    while True:
        if deadline.expired():
            return result(False, timed_out=True)
        i = pop()
        if i is None:
            return result(False)
        node = nodes[i]
        if goal_test == "removal" and node.center:
            counted_set.add(prov[node.location])
            counted.append((prov[node.location], i))
            if len(counted_set) >= target:
                return result(True)
        first = len(nodes)
        done = False
        for loc in sorted(moves_from(m, node.kind, node.location), key=key, reverse=backwards):
            if prov[loc] in visited:
                continue
            if add(node.kind, loc, node.g + 1, node.h, i):
                done = True
                break
        steps.append(Step(len(steps), i, tuple(range(first, len(nodes))), len(counted_set), len(nodes)))
        if done:
            return result(True)
