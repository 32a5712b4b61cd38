"""dipsolve: a declarative solver for the board game Diplomacy (standard map, Avalon Hill rules).

``import dipsolve`` is the whole public API; every name below is importable from it.

The board
    `Map` (`standard_map`, `POWERS`), `Position` (immutable; `Position.from_text`,
    `Position.to_text`, `Position.from_file`), `Phase`, `Unit`, `Dislodged`.
Orders
    `Hold`, `Move`, `SupportHold`, `SupportMove`, `Convoy`, `Retreat`, `Disband`
    (`Remove`), `Build`, `Waive`; `Order` is any of them, `UnitOrder` the ones a unit
    gives.  `parse_order`, `parse_order_line` (with its power), `parse_orders`,
    `format_order` (short, long English, DAIDE); `legal_orders`, `order_problem` and
    `order_problems` (legality by named rules).
Adjudication
    `adjudicate(position, orders) -> Outcome` (`OrderResult`, `Reason`); `Resolver`,
    many order sets over one position (a `Resolution` each: who is where, the full
    `Outcome` on request).
Questions
    `solve` (best orders for a power by a `Strategy`, its parts in `dipsolve.strategy`;
    `Solution`; `evaluator`,
    `influence` and `load_values` for the evaluation; `select_orders` and `predict`, the CP-SAT model of
    the movement rules), `solve_path`
    (fastest path to 16 or 18 centers; `PathSolution`), `solve_equilibrium`
    (adjustment equilibria with certificates; `Equilibrium`), `solve_worst_case`
    (Loeb's open problem), `count_adjustments`.  Every answer is a `Result`: a `Status`
    (optimal, feasible, infeasible, timed out), ``objective``, ``bound``, ``seconds``.
    `Limits` holds the time limit, seed and workers every solver takes.
Play
    `play_game`, `play_series`, `results_table`, `format_table`; bots `DipsolveBot`,
    `DumbBotPlayer`, `RandomBot`, `make_bot`; `dumbbot_orders` (DumbBot's orders).
Text and pictures
    `parse_position` (a ``.dip`` or DAIDE ``NOW``/``SCO`` text and its orders),
    `parse_press` (DAIDE press levels 0-130, DPP), `render` (a position, an outcome or
    a plan as SVG text), `render_to` (into an ``.svg`` or ``.png`` file), `game_html` (a
    whole game as one self-contained HTML page, with an `Analysis`'s suggestions).
Game records
    `load_record`, `load_records`, `read_records` (the ``diplomacy`` package's saved-game
    JSON: a `Record` of phases, `RecordPhase`, each a `Position` with its orders and results;
    ``Record.phase("S1903M")``; ``Record.players``, who played each power, and
    ``Record.result``, how the game ended: a `GameResult`), `dumps_records` (write them); `analyze` (a whole game
    re-adjudicated and each power's orders weighed against dipsolve's: an `Analysis`).
Agreements
    `track_agreements` (the agreements a record's DAIDE press made, each checked against
    every phase's orders: `Agreements` of `Agreement`\\ s), `AgreementTracker` (the same,
    message by message and phase by phase), `Trust` (each power's, from the agreements
    it kept and broke).
DAIDE
    `play_daide` (one seat at a DAIDE server with a bot, until the game ends: a
    `GameEnd`), `Press` (how its seat negotiates); `DaideError`, `DaideConnectionError` (`DaideRefused`), `DaideProtocolError`.
Errors
    `DipsolveError`, the root of `DipsolveSyntaxError` (not understood; its
    `DipsolveLimitError`: past one of the bounds in `LIMITS`, and `DipsolveArgumentError`:
    a value of the wrong kind), `DipsolveRuleError` (not allowed), `DipsolveUnsupported`
    (outside what a solver covers), `DipsolveUnavailable` (a part not installed),
    `DipsolveFileError` (a file not read or written), `DipsolveLostError` (work lost in a
    worker or a bot), `DipsolveInternalError` (a bug); `quote` (input as an error repeats
    it: escaped, shortened).  Every public function checks the names it is given (powers
    in any spelling, provinces, orders: `dipsolve.public`) and raises only these.

    >>> import dipsolve
    >>> start = dipsolve.Position.from_text(open(dipsolve.example("start.dip")).read())
    >>> outcome = dipsolve.adjudicate(start, {"France": [dipsolve.Move("A", "PAR", "BUR")]})
    >>> outcome.next.phase.short
    'F1901M'

Every name loads its module on first use (the heavy parts, Lark, OR-Tools and numpy, only
when a name needs them), so ``import dipsolve`` and ``dipsolve --help`` stay fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# -- the errors and the result types: a few small classes, imported at once -------------
from .core.errors import (DipsolveArgumentError, DipsolveError, DipsolveFileError, DipsolveInternalError,
                          DipsolveLimitError, DipsolveLostError, DipsolveRuleError, DipsolveSyntaxError,
                          DipsolveUnavailable, DipsolveUnsupported, quote)
from .core.results import Deadline, Limits, Result, Status

# -- everything else, loaded on first use: name -> (module, attribute) ----------------
# (even the core: `dipsolve --help` must not pay for the map and the adjudicator)
_CORE = {
    "dipsolve.core.adjudicator": ("OrderResult", "Outcome", "Reason", "Rules", "adjudicate"),
    "dipsolve.core.map": ("POWERS", "Map", "standard_map"),
    "dipsolve.core.orders": ("Build", "Convoy", "Disband", "Hold", "Move", "Order", "Remove", "Retreat",
                        "SupportHold", "SupportMove", "UnitOrder", "Waive", "unit_key"),
    "dipsolve.core.position": ("Dislodged", "Phase", "Position", "Unit"),
    "dipsolve.core.resolver": ("Resolution", "Resolver"),
}
_LAZY: dict[str, tuple[str, str | None]] = {
    **{name: (module, name) for module, names in _CORE.items() for name in names},
    # text
    "parse_order": ("dipsolve.grammar", "parse_order"),
    "parse_order_line": ("dipsolve.grammar", "parse_order_line"),
    "parse_orders": ("dipsolve.grammar", "parse_orders"),
    "format_order": ("dipsolve.grammar", "format_order"),
    "parse_position": ("dipsolve.grammar", "parse_position_text"),
    "parse_press": ("dipsolve.grammar.press", "parse_press"),
    # rules
    "legal_orders": ("dipsolve.core.legal", "legal_orders"),
    "order_problems": ("dipsolve.core.rules", "order_problems"),
    "order_problem": ("dipsolve.core.rules", "order_problem"),
    # questions
    "solve": ("dipsolve.api", "solve"),
    "Strategy": ("dipsolve.search.strategy", "Strategy"),
    "strategy": ("dipsolve.strategy", None),
    "Solution": ("dipsolve.api", "Solution"),
    "select_orders": ("dipsolve.models.order_model", "select_orders"),
    "predict": ("dipsolve.models.order_model", "predict"),
    "influence": ("dipsolve.algorithms.evaluation", "influence"),
    "evaluator": ("dipsolve.algorithms.evaluation", "evaluator"),
    "load_values": ("dipsolve.algorithms.evaluation", "load_values"),
    "solve_path": ("dipsolve.models.path", "solve_path"),
    "PathSolution": ("dipsolve.models.path", "PathSolution"),
    "solve_equilibrium": ("dipsolve.models.equilibria", "solve_equilibrium"),
    "Equilibrium": ("dipsolve.models.equilibria", "Equilibrium"),
    "solve_worst_case": ("dipsolve.models.worstcase", "solve_worst_case"),
    "count_adjustments": ("dipsolve.algorithms.adjustments", "count_adjustments"),
    # pictures, play
    "render": ("dipsolve.io.pictures", "render"),
    "render_to": ("dipsolve.io.pictures", "render_to"),
    "game_html": ("dipsolve.io.pictures_html", "game_html"),
    "play_game": ("dipsolve.play.games", "play_game"),
    "play_series": ("dipsolve.play.games", "play_series"),
    "results_table": ("dipsolve.play.games", "results_table"),
    "format_table": ("dipsolve.play.games", "format_table"),
    "make_bot": ("dipsolve.play.registry", "make_bot"),
    "DipsolveBot": ("dipsolve.play.bots", "DipsolveBot"),
    "DumbBotPlayer": ("dipsolve.play.bots", "DumbBotPlayer"),
    "RandomBot": ("dipsolve.play.bots", "RandomBot"),
    "dumbbot_orders": ("dipsolve.algorithms.dumbbot", "orders"),
    # many jobs at once: here, local processes or Ray (docs/cluster.md)
    "executor": ("dipsolve.execution", "executor"),
    "ExecutionUnavailable": ("dipsolve.execution", "ExecutionUnavailable"),
    # a seat at a DAIDE server
    "play_daide": ("dipsolve.play.daide.seat", "play_daide"),
    "Press": ("dipsolve.play.daide.press", "Press"),
    "GameEnd": ("dipsolve.play.daide.history", "GameEnd"),
    "DaideError": ("dipsolve.play.daide.wire", "DaideError"),
    "DaideConnectionError": ("dipsolve.play.daide.wire", "DaideConnectionError"),
    "DaideProtocolError": ("dipsolve.play.daide.wire", "DaideProtocolError"),
    "DaideRefused": ("dipsolve.play.daide.wire", "DaideRefused"),
    # game records (the diplomacy package's saved-game JSON)
    "Record": ("dipsolve.io.records", "Record"),
    "RecordPhase": ("dipsolve.io.records", "RecordPhase"),
    "GameResult": ("dipsolve.io.records", "GameResult"),
    "read_records": ("dipsolve.io.records", "read_records"),
    "load_records": ("dipsolve.io.records", "load_records"),
    "load_record": ("dipsolve.io.game", "load_record"),
    "Game": ("dipsolve.io.game", "Game"),
    "GamePhase": ("dipsolve.io.game", "GamePhase"),
    "dumps_records": ("dipsolve.io.records", "dumps_records"),
    "analyze": ("dipsolve.analysis", "analyze"),
    "Analysis": ("dipsolve.analysis", "Analysis"),
    # agreements made in the press, checked against the orders played
    "track_agreements": ("dipsolve.agreements", "track_agreements"),
    "AgreementTracker": ("dipsolve.agreements", "AgreementTracker"),
    "Agreement": ("dipsolve.agreements", "Agreement"),
    "Agreements": ("dipsolve.agreements", "Agreements"),
    "Trust": ("dipsolve.agreements", "Trust"),
    # the bounds on what dipsolve reads and draws
    "LIMITS": ("dipsolve.core.bounds", "LIMITS"),
}

__all__ = sorted([
    "Map", "standard_map", "POWERS", "Position", "Phase", "Unit", "Dislodged",
    "Order", "Hold", "Move", "SupportHold", "SupportMove", "Convoy", "Retreat", "Disband",
    "Remove", "Build", "Waive", "UnitOrder", "unit_key", "adjudicate", "Rules", "Outcome", "OrderResult", "Reason",
    "Resolver", "Resolution", "DipsolveError", "DipsolveSyntaxError", "DipsolveLimitError", "DipsolveRuleError",
    "DipsolveUnavailable", "DipsolveInternalError", "DipsolveArgumentError", "DipsolveUnsupported",
    "DipsolveFileError", "DipsolveLostError", "quote", "Status", "Result", "Limits", "Deadline", "example", "__version__",
    *_LAZY])


def example(name: str) -> str:
    """The path of a file in dipsolve's ``examples/`` folder (in a source checkout)."""
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "examples" / name
    if not path.exists():
        raise DipsolveUnavailable(f"example {name!r} is not here: examples/ ships with the "
                                  f"source checkout, not with an installed package")
    return str(path)


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version
        try:
            return version("dipsolve")
        except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
            return "unknown"
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'dipsolve' has no attribute {name!r}") from None
    value = importlib.import_module(module) if attr is None else getattr(importlib.import_module(module), attr)
    if callable(value) and not isinstance(value, type):
        from .public import wrap      # the names it is given checked at the door
        value = wrap(name, value)
    globals()[name] = value           # once loaded, a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # for type checkers and IDEs: the lazy names, typed
    from .core.adjudicator import OrderResult, Outcome, Reason, Rules, adjudicate
    from .core.map import POWERS, Map, standard_map
    from .core.orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold,
                         SupportMove, UnitOrder, Waive, unit_key)
    from .core.position import Dislodged, Phase, Position, Unit
    from .core.resolver import Resolution, Resolver
    from .algorithms.adjustments import count_adjustments
    from .core.bounds import LIMITS
    from .api import Solution, solve
    from . import strategy
    from .search.strategy import Strategy
    from .play.bots import DipsolveBot, DumbBotPlayer, RandomBot
    from .play.registry import make_bot
    from .algorithms.dumbbot import orders as dumbbot_orders
    from .algorithms.evaluation import evaluator, influence, load_values
    from .grammar import format_order, parse_order, parse_order_line, parse_orders
    from .grammar import parse_position_text as parse_position
    from .grammar.press import parse_press
    from .core.rules import order_problem, order_problems
    from .models.equilibria import Equilibrium, solve_equilibrium
    from .models.path import PathSolution, solve_path
    from .models.worstcase import solve_worst_case
    from .models.order_model import predict, select_orders
    from .play.games import format_table, play_game, play_series, results_table
    from .execution import ExecutionUnavailable, executor
    from .io.pictures import render_to as render
    from .io.pictures_html import game_html
    from .public import legal_orders
    from .io.records import GameResult, Record, RecordPhase, dumps_records, load_records, read_records
    from .io.game import Game, GamePhase, load_record
    from .analysis import Analysis, analyze
    from .agreements import Agreement, AgreementTracker, Agreements, Trust, track_agreements

    __version__: str
