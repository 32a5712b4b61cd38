"""The application layer: `solve` with every method, the CP-SAT one of `dipsolve.models`
included, for the bots, the command line and users.

The search (`dipsolve.search`) sits below the models and runs its own methods (agenda,
minimax, expectimax); the CP-SAT method lives with the order model
(`dipsolve.models.order_method`).  This module ties the two together: it starts the
call's deadline, imports the CP-SAT method when it is asked for (a light import:
OR-Tools itself is loaded by the method, within the deadline, only when there is time
for it) and hands it to the search.

    >>> from dipsolve.core.position import Position
    >>> from dipsolve.core.results import Limits
    >>> from dipsolve.search.strategy import Agenda, Hold
    >>> s = solve(Position.initial(), "Turkey", Strategy(Agenda(), Hold()), limits=Limits(time_limit=2))
    >>> sorted(str(o) for o in s.orders), s.status
    (['A CON - BUL', 'A SMY - ARM', 'F ANK - CON'], <Status.OPTIMAL: 'optimal'>)
"""

from __future__ import annotations

from typing import Sequence

from .core.orders import Order
from .core.position import Position
from .core.results import Deadline, Limits
from .search import methods as search
from .search.methods import DEFAULT_LIMITS, METHODS, OPPONENT_MODELS, Method, MethodUnavailable, Solution
from .search.phase_game import Oracle
from .search.strategy import Strategy, settings as settings_of

__all__ = ["DEFAULT_LIMITS", "METHODS", "OPPONENT_MODELS", "MethodUnavailable", "Solution",
           "Strategy", "check_method", "solve"]


def _method(name: str) -> Method | None:
    """The function that runs method ``name`` on a movement phase, when the search does
    not know it by itself (None: the search's own)."""
    if name == "cpsat":
        from .models import order_method
        return order_method.cpsat
    return None


def solve(position: Position, power: str, strategy: Strategy | None = None, *,
          limits: Limits | None = None, deadline: Deadline | None = None,
          seeds: Sequence[Sequence[Order]] = (), trace: bool = False) -> Solution:
    """The best orders for ``power`` in ``position`` by a `Strategy` (a search, a model of
    the opponents, an evaluation: `dipsolve.search.strategy`; the package's seat by
    default), within ``limits.time_limit`` seconds of this call (`Solution`: see
    `dipsolve.search.methods`).  ``limits`` (`Limits`: time limit, clock, seed, workers,
    nodes; `DEFAULT_LIMITS` by default) is taken as every solver takes it and reaches the
    search and CP-SAT as given.  ``deadline`` replaces the time limit when the clock
    started earlier or is a test's.  ``seeds``: complete order sets of the power's to
    start the search from (last turn's orders, suggestions); ``trace``: keep the search's
    trace in ``Solution.trace``."""
    settings = settings_of(strategy if strategy is not None else Strategy(), limits,
                           trace=trace, seeds=seeds)
    call = deadline if deadline is not None else settings.limits.deadline()
    return search.solve(position, power, settings, method=_method(settings.method), deadline=call,
                        oracle=_oracle(settings))


def _oracle(settings: search.SolveSettings) -> Oracle | None:
    """The phase game's CP-SAT best-response oracle, when the settings play the phase game."""
    if settings.equilibrium:
        from .models import order_method
        return order_method.best_response
    return None


def check_method(name: str) -> None:
    """Raise `MethodUnavailable` unless method ``name`` can run in this installation
    (for ``cpsat``: imports OR-Tools now, which takes about a second the first time)."""
    if name == "cpsat":
        from .models import order_method
        order_method.load()
    elif name not in METHODS:
        raise MethodUnavailable(f"unknown method {name!r} (expected one of {', '.join(METHODS)})")
