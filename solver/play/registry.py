"""The bot registry: every bot a seat may name, found by `make_bot`.

A name of the registry (`REGISTRY`: ``dumbbot``, ``greedy``, ``random``, ``dipsolve``,
``dipsolve:METHOD``, and what `register_bot` adds), a bot an installed package declares
under the entry-point group ``dipsolve.bots``, or a class of the user's own,
``FILE.py:CLASS`` or ``MODULE:CLASS`` (docs/bots.md).  `bots_help`, the help of
``dipsolve play --bots`` and ``dipsolve daide --bot``, is made from the registry.

This module is light (the command line builds its help from it at every start): a bot's
module is imported when the bot is made.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..core.errors import DipsolveSyntaxError, DipsolveUnavailable
from . import SEAT_DEFAULT

if TYPE_CHECKING:
    from .bots import Bot

__all__ = ["ENTRY_POINT_GROUP", "BotOptions", "BotEntry", "REGISTRY", "BOT_NAMES", "DIPSOLVE_METHODS",
           "OPPONENT_MODELS", "SEAT_MODELS", "SEAT_DEFAULT", "register_bot", "bots_help", "installed_bots", "make_bot"]

#: the search methods of a dipsolve bot (`dipsolve.api.solve`'s; a test holds them equal)
DIPSOLVE_METHODS = ("agenda", "minimax", "expectimax", "cpsat")
#: the opponent models a dipsolve bot can play with (``solve``'s ``opponents``; "learned"
#: fits its policy to the orders the others give at the table, `DipsolveBot.observe`)
OPPONENT_MODELS = ("learned", "equilibrium", "worst", "expected", "sampled", "hold")
#: the models of a seat at a table: every one of them
SEAT_MODELS = OPPONENT_MODELS

#: the entry-point group an installed package names its bots in (its ``pyproject.toml``:
#: ``[project.entry-points."dipsolve.bots"]``, then ``mybot = "mypkg.mybot:MyBot"``)
ENTRY_POINT_GROUP = "dipsolve.bots"


@dataclass(frozen=True)
class BotOptions:
    """What a seat's bot may be made with: the command line's ``--evaluation``,
    ``--opponents``, ``--clock`` and ``--nodes`` (a bot with no use for them ignores them)."""

    evaluator: str = "influence"
    opponents: str = SEAT_DEFAULT
    clock: str = "wall"
    nodes: int | None = None


@dataclass(frozen=True)
class BotEntry:
    """One bot of the registry: its name, a line of help, how it is made (from the
    options and the variant after a ``:``, ``None`` when none was given) and the variants
    it takes."""

    name: str
    help: str
    make: Callable[[BotOptions, str | None], Bot]
    variants: tuple[str, ...] = ()


#: the bots a name seats, in the order the help lists them (`register_bot` adds more)
REGISTRY: dict[str, BotEntry] = {}


def register_bot(name: str, make: Callable[[BotOptions, str | None], Bot], help: str,
                 variants: Sequence[str] = ()) -> None:
    """Seat the bot ``make`` makes under ``name`` (lower case, without ``:``, ``,``,
    ``=`` or spaces: a name ``--bots`` can list) in `make_bot`, ``dipsolve play --bots``
    and ``dipsolve daide --bot``, with ``help`` in their help text; ``variants``: what may
    follow ``name:`` (as ``dipsolve:cpsat``)."""
    if not isinstance(name, str) or not name or name != name.lower() or any(c in name for c in ":,= "):
        raise DipsolveSyntaxError(f"a bot's name is lower case, without ':', ',', '=' or spaces, "
                                  f"not {name!r}")
    REGISTRY[name] = BotEntry(name, help, make, tuple(variants))


def _dumbbot(options: BotOptions, variant: str | None) -> Bot:
    from .bots import DumbBotPlayer
    return DumbBotPlayer()


def _greedy(options: BotOptions, variant: str | None) -> Bot:
    from .bots import GreedyBot
    return GreedyBot()


def _random(options: BotOptions, variant: str | None) -> Bot:
    from .bots import RandomBot
    return RandomBot()


def _dipsolve(options: BotOptions, method: str | None) -> Bot:
    from ..search.strategy import named
    from .bots import DipsolveBot
    return DipsolveBot(named(method or "agenda", options.opponents, options.evaluator), options.clock,
                       nodes=options.nodes)


register_bot("dumbbot", _dumbbot, "David Norman's DumbBot")
register_bot("greedy", _greedy, "every unit to the nearest supply center not yet owned")
register_bot("random", _random, "a random legal order for each unit")
register_bot("dipsolve", _dipsolve, "dipsolve's search, by METHOD (default agenda), against the "
             "--opponents model (default learned)",
             DIPSOLVE_METHODS)

#: every name the registry knows, as the command line spells them (the bots dipsolve brings)
BOT_NAMES = tuple(n for e in REGISTRY.values() for n in (e.name, *(f"{e.name}:{v}" for v in e.variants)))


def bots_help() -> str:
    """The bots a seat may name, generated from the registry (the help of ``--bots`` and
    ``--bot``)."""
    listed = "; ".join(f"{e.name}{'[:METHOD]' if e.variants else ''} ({e.help}"
                       + (f"; METHOD: {', '.join(e.variants)})" if e.variants else ")")
                       for e in REGISTRY.values())
    return (f"{listed}; a bot installed under the entry-point group {ENTRY_POINT_GROUP}; or your own "
            f"class, FILE.py:CLASS or MODULE:CLASS (docs/bots.md)")


def installed_bots() -> dict[str, Any]:
    """The bots installed packages declare (entry points of `ENTRY_POINT_GROUP`), by name."""
    from importlib.metadata import entry_points
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def make_bot(name: str, evaluator: str = "influence", opponents: str = SEAT_DEFAULT,
             clock: str = "wall", nodes: int | None = None) -> Bot:
    """The bot ``name`` seats: a name of the registry (``dumbbot``, ``greedy``,
    ``random``, ``dipsolve``, ``dipsolve:METHOD``, any `register_bot` added), the name
    of an installed bot (`ENTRY_POINT_GROUP`), or a class of your own,
    ``FILE.py:CLASS`` or ``MODULE:CLASS`` (made with no arguments).  A dipsolve bot
    searches with ``evaluator`` against the ``opponents`` model on the ``clock``, within
    ``nodes`` of work a phase when given (`dipsolve.Limits.nodes`).

    Anything else is a `DipsolveSyntaxError` naming the bots there are; a bot that cannot
    be loaded, a `DipsolveUnavailable`; what is loaded must follow the `Bot` protocol."""
    if opponents not in SEAT_MODELS:
        raise DipsolveSyntaxError(f"unknown opponent model {opponents!r} (expected one of "
                                  f"{', '.join(SEAT_MODELS)})")
    text = name.strip()
    head, colon, tail = text.partition(":")
    entry = REGISTRY.get(head.lower())
    options = BotOptions(evaluator, opponents, clock, nodes)
    if entry is not None:
        if colon and tail.lower() not in entry.variants:
            raise DipsolveSyntaxError(
                f"unknown {entry.name} method {tail!r} (expected one of {', '.join(entry.variants)})"
                if entry.variants else f"the bot {entry.name} takes nothing after ':' (not {tail!r})")
        return entry.make(options, tail.lower() if colon else None)
    if colon and head and tail:
        return _checked(_load(head, tail), text)
    installed = installed_bots()
    if text in installed:
        try:
            made = installed[text].load()
        except Exception as e:  # noqa: BLE001 - an installed package's import, whatever it raises
            raise DipsolveUnavailable(f"the installed bot {text!r} ({installed[text].value}) does "
                                      f"not load: {type(e).__name__}: {e}") from None
        return _checked(made, text)
    known = list(BOT_NAMES) + sorted(installed)
    raise DipsolveSyntaxError(f"unknown bot {name!r} (expected one of {', '.join(known)}, or "
                              f"FILE.py:CLASS or MODULE:CLASS)")


def _load(where: str, attribute: str) -> Any:
    """``attribute`` of the Python file or module ``where``."""
    import importlib
    import importlib.util
    import os
    import sys
    if where.endswith(".py") or os.sep in where or "/" in where:
        if not os.path.isfile(where):
            from ..core.errors import DipsolveFileError
            raise DipsolveFileError(f"no such Python file for a bot: {where}", filename=where)
        module_name = "dipsolve_user_bot_" + "".join(c if c.isalnum() else "_"
                                                    for c in os.path.abspath(where))
        module = sys.modules.get(module_name)
        if module is None:
            spec = importlib.util.spec_from_file_location(module_name, where)
            if spec is None or spec.loader is None:
                raise DipsolveUnavailable(f"{where}: not a Python file a bot can be loaded from")
            module = importlib.util.module_from_spec(spec)
            sys.modules[module_name] = module      # for pickling the bot to worker processes
            try:
                spec.loader.exec_module(module)
            except Exception as e:  # noqa: BLE001 - the user's code, whatever it raises
                del sys.modules[module_name]
                raise DipsolveUnavailable(f"{where}: the bot's file does not load: "
                                          f"{type(e).__name__}: {e}") from None
    else:
        try:
            module = importlib.import_module(where)
        except Exception as e:  # noqa: BLE001 - the user's module, whatever it raises
            raise DipsolveUnavailable(f"the bot's module {where!r} does not load: "
                                      f"{type(e).__name__}: {e}") from None
    if not hasattr(module, attribute):
        found = sorted(n for n, v in vars(module).items() if isinstance(v, type) and not n.startswith("_"))
        raise DipsolveSyntaxError(f"{where} has no {attribute!r} (its classes: {', '.join(found) or 'none'})")
    return getattr(module, attribute)


def _checked(made: Any, spec: str) -> Bot:
    """An instance of what a spec named (a class is made with no arguments), if it
    follows the `Bot` protocol."""
    if isinstance(made, type):
        try:
            made = made()
        except Exception as e:  # noqa: BLE001 - the user's constructor, whatever it raises
            raise DipsolveUnavailable(f"{spec}: the bot could not be made: {type(e).__name__}: {e}") from None
    if not callable(getattr(made, "orders", None)) or not isinstance(getattr(made, "name", None), str):
        raise DipsolveSyntaxError(f"{spec} is not a bot: a bot has a 'name' (text) and "
                                  f"'orders(position, power, deadline_s, rng)' (the Bot protocol, "
                                  f"docs/bots.md)")
    return made
