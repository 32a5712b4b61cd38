"""Tools for tests and benchmarks: random positions and orders, and the bridge to a peer engine.

``dipsolve.testing`` is never imported by the library itself (a layering contract in
``pyproject.toml`` checks it); tests, benchmarks and the tools under ``tests/`` use it.

- `dipsolve.testing.random_positions` (its names are here too): deterministic random
  legal positions and order sets (`random_position`, `opening_position`,
  `random_orders`, `benchmark_phases`, `play_forward`, `shrink_case`; `as_read`, an
  order as the reader gives it back, for round-trip tests);
- `dipsolve.testing.random_adjustments`: `random_adjustment_position`, seeded adjustment
  positions with large interacting groups (removers next to builders, 1e12–1e15 joint
  profiles) for the stress tests of the adjustment equilibria;
- `dipsolve.testing.peer`: the bridge to the ``diplomacy`` package (PyPI 1.1.2), the
  engine the adjudicator is cross-checked against (imported lazily: the peer is needed
  only when a function of the bridge is called).
"""

from .random_adjustments import random_adjustment_position
from .random_positions import (FLEET_BIAS, Orders, as_read, as_rng, benchmark_phases, opening_position,
                               play_forward, random_orders, random_position, shrink_case)

__all__ = ["FLEET_BIAS", "Orders", "as_read", "as_rng", "benchmark_phases", "opening_position", "play_forward",
           "random_adjustment_position", "random_orders", "random_position", "shrink_case"]
