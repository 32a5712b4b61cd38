"""Meta's C++ engine dipcc as a peer of the benchmarks: found, loaded, and given dipsolve's positions and orders.

dipcc is the Diplomacy engine of Meta's Cicero and SearchBot (the ``dipcc/`` folder of
the public repositories facebookresearch/diplomacy_cicero and
facebookresearch/diplomacy_searchbot; MIT licence, Copyright (c) Meta Platforms, Inc.
and affiliates).  It is not on PyPI and dipsolve does not ship it: nothing of its code and
no binary built from it is in this repository.  ``benchmarks/peers/build_dipcc.sh``
builds it on a machine with git, a C++ compiler and glog: it fetches the public source
at a pinned commit into a folder outside the repository and compiles the engine's game
with our own small binding (``benchmarks/peers/dipcc_bind.cc``).  A benchmark uses it
when a Python module ``pydipcc`` is found, and says plainly when it is not:

* the folder named by ``DIPSOLVE_DIPCC``, else ``~/.cache/dipsolve/peers/dipcc``, holding
  ``pydipcc*.so`` (outside the repository);
* what is used of it: ``Game()``, ``Game(other)`` (a copy), ``Game.from_json``,
  ``set_orders(POWER, [order, ...])``, ``process()``, ``get_units()``, the calls of
  its own ``pybind.cc``.  A module without its torch-dependent encoders will do.

Its log (glog, INFO level) is silenced before it is imported (``GLOG_minloglevel=2``).
Orders go to it in the ``diplomacy`` package's notation (dipsolve's short notation,
`dipsolve.testing.peer.peer_order`), powers in capitals.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path
from typing import Any, Iterable, Mapping

DEFAULT = Path.home() / ".cache" / "dipsolve" / "peers" / "dipcc"


def load() -> tuple[Any, str]:
    """``(pydipcc, where)`` when the module is found, else ``(None, why not)``."""
    folder = Path(os.environ.get("DIPSOLVE_DIPCC") or DEFAULT)
    if not any(folder.glob("pydipcc*.so")):
        return None, (f"dipcc not built: no pydipcc module in {folder} (build one with "
                      "bash benchmarks/peers/build_dipcc.sh, or set DIPSOLVE_DIPCC to the folder of one)")
    os.environ.setdefault("GLOG_minloglevel", "2")
    sys.path.insert(0, str(folder))
    try:
        module = importlib.import_module("pydipcc")
    except ImportError as e:
        return None, f"dipcc not loaded from {folder}: {e}"
    finally:
        sys.path.remove(str(folder))
    return module, str(folder)


def game_json(position) -> str:
    """A dipcc saved game (its ``to_json`` format) of one phase standing at ``position``
    (a movement phase: no dislodged units), its unowned home centers owned (below)."""
    m = position.map
    powers = [p.upper() for p in m.powers]
    units: dict[str, list[str]] = {p: [] for p in powers}
    for u in position.units:
        units[u.power.upper()].append(f"{u.kind} {u.location}")
    centers: dict[str, list[str]] = {p: [] for p in powers}
    for prov, owner in position.centers:
        centers[owner.upper()].append(prov)
    # dipcc needs every home center owned (an unowned one makes its adjustment count
    # throw std::out_of_range): a home center no one owns, which a game from the start
    # cannot have but a random position can, goes to its own power; who stands where
    # after a movement phase does not depend on it
    owned = {prov for prov, _ in position.centers}
    for p in m.powers:
        for home in sorted(m.homes[p] - owned):
            centers[p.upper()].append(home)
    phase = position.phase.short
    state = {"builds": {p: {"count": 0, "homes": []} for p in powers},
             "centers": centers,
             "homes": {p.upper(): sorted(m.homes[p]) for p in m.powers},
             "name": phase, "retreats": {p: {} for p in powers}, "units": units}
    return json.dumps({"id": "dipsolve", "is_full_press": True, "map": "standard",
                       "phases": [{"logs": [], "messages": [], "name": phase, "orders": {},
                                   "results": {}, "state": state}],
                       "scoring_system": "sum_of_squares", "version": "1.0"})


def order_strings(orders: Mapping[str, Iterable[Any]]) -> dict[str, list[str]]:
    """Power (in capitals) -> its orders in the notation dipcc reads."""
    from dipsolve.testing.peer import peer_order

    return {p.upper(): [peer_order(o) for o in os] for p, os in orders.items()}


def new_game(pydipcc, position, orders: Mapping[str, list[str]] | None = None):
    """A dipcc game at ``position`` with ``orders`` (from `order_strings`) filed."""
    game = pydipcc.Game.from_json(game_json(position))
    for power, os in (orders or {}).items():
        game.set_orders(power, os)
    return game


def units_of(game) -> list[tuple[str, str, str]]:
    """The units of a dipcc game as dipsolve's (power, kind, location), sorted."""
    return sorted((p.capitalize(), u[0], u[2:]) for p, us in game.get_units().items() for u in us
                  if not u.startswith("*"))
