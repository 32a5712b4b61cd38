"""Searching for the best orders: ``dipsolve.search.solve(position, power, settings)``.

- `agenda`: the best-first agenda search of Hall & Loeb (seed ``002_…``, 3.2–3.4, 4.3.1);
- `opponents`: relevance, opponents' candidate order sets, paranoid and expected tests,
  Victorybot's factorized pruning (seed ``004_…``);
- `methods`: `solve`, which picks the search by ``settings.method`` (its internal
  record of one call, built from a `strategy.Strategy` and the call's `dipsolve.Limits`
  by `strategy.settings`), or runs a method handed in from above (``dipsolve.solve``
  hands in the CP-SAT one), and returns a `Solution`.

The search sits below `dipsolve.models`: nothing here imports it.
"""

from .methods import METHODS, SEARCH_METHODS, Method, MethodUnavailable, Solution, Task, solve

__all__ = ["METHODS", "SEARCH_METHODS", "Method", "MethodUnavailable", "Solution", "Task", "solve"]
