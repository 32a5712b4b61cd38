"""Searching for the best orders: ``dipsolve.search.solve(position, power, ...)``.

- `agenda`: the best-first agenda search of Hall & Loeb (seed ``002_…``, 3.2–3.4, 4.3.1);
- `opponents`: relevance, opponents' candidate order sets, paranoid and expected tests,
  Victorybot's factorized pruning (seed ``004_…``);
- `methods`: `solve`, which picks the search by ``method`` and returns a `Solution`.
"""

from .methods import METHODS, MethodUnavailable, Solution, solve

__all__ = ["METHODS", "MethodUnavailable", "Solution", "solve"]
