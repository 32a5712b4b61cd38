"""The movement resolution on integer arrays: the kernel `dipsolve.core.fast_resolver` compiles.

The same steps as the reference adjudicator (`dipsolve.core.adjudicator.settle`,
``_resolve`` and its decisions, `after_moves`), the same decisions in the same order,
over integer arrays instead of province strings, so that numba compiles them
(``numba.njit(cache=True)`` by `compiled`, on first use, so that importing dipsolve
never imports numba; without numba the functions stay plain Python, which
`dipsolve.core.fast_resolver` does not use: it falls back to the reference adjudicator,
faster than this kernel uncompiled).

Inputs: ``units``, an ``int64`` array ``[FIELDS, n]`` (one column a unit, in board
order; rows below), and ``nb``, the map's ``uint8`` adjacency matrix over province
indices (`dipsolve.core.map.Map.neighbours`).  A convoy route is searched over ``nb``
breadth-first through the seas whose fleets convoy the army (`dipsolve.core.graph.sea_route`).

Output: written at the start of the scratch memory ``ws`` (`workspace`), its length
returned (0: the kernel could not resolve the set, and the caller takes the reference
path), for the caller to read in one ``tolist()``: a 0, then the number of units that
moved and for each ``index << 12 | location moved to``;
the number dislodged and for each its index, the index of the unit that dislodged it
and whether that one came by convoy; the number of standoff provinces (a move to it
bounced, nobody stands there after the phase: DATC 4.A.5; only when a unit is
dislodged, as only retreats need them) and their indices; the number of units left on
the board and for each, in canonical order (after the moves: see ``RANK``),
``index << 12 | location``.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Callable

import numpy as np

#: the kernel's functions, compiled by `compiled` (numba resolves the names one calls
#: among the module's globals when it compiles, so each is replaced by its compiled self)
_KERNEL = ("resolve_movement", "patched", "_patch_into", "_ws_size", "_tail_of", "_push", "_run",
           "_sea_route", "_settle", "adjudicate_movement", "_on_route", "_match_size", "_hold")
#: the helpers inlined where they are called (`compiled`)
_INLINED = ("_hold",)
_compiled: list = []      # [the compiled resolve_movement] once compiled
#: why the kernel is not compiled ("" when it is, or has not been tried yet)
why_not = ""
#: whether `warm` has compiled or loaded the kernel in this process
_ready: list = []


def ready() -> bool:
    """Whether the kernel is compiled (or loaded from numba's cache) in this process, so
    that calling it costs no more than its run (`warm`)."""
    return bool(_ready)


def numba_installed() -> bool:
    """Whether numba can be imported, without importing it (it takes most of a second),
    unless ``DIPSOLVE_NO_NUMBA`` is set."""
    if os.environ.get("DIPSOLVE_NO_NUMBA"):
        return False
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):     # a broken or blocked installation
        return False


def compiled():
    """`resolve_movement` compiled by numba (``njit(cache=True)``: compiled once, cached
    on disk beside this module, loaded from there by later processes), or None when numba
    cannot be had (`why_not` says why)."""
    global why_not
    if _compiled:
        return _compiled[0]
    if why_not:
        return None
    try:
        if os.environ.get("DIPSOLVE_NO_NUMBA"):
            raise ImportError("DIPSOLVE_NO_NUMBA is set")
        from numba import njit
    except ImportError as e:          # numba is the optional extra dipsolve[fast]
        why_not = f"numba is not available ({e}); pip install 'dipsolve[fast]' adds it"
        return None
    names = globals()
    for name in _KERNEL:
        # the small helpers called once an order or a unit are inlined: a call passes
        # each array with its reference counts (3.7 us of 47 orders matched, measured)
        inline = "always" if name in _INLINED else "never"
        names[name] = njit(cache=True, inline=inline)(names[name])
    _compiled.append(names["resolve_movement"])
    return _compiled[0]


def matcher():
    """`adjudicate_movement` compiled (one fresh phase, its orders matched in the kernel:
    `dipsolve.core.fast_phase`), or None as `compiled`."""
    return None if compiled() is None else globals()["adjudicate_movement"]


def warm(note: Callable[[str], None] | None = None) -> float:
    """Compile the kernel now (or load it from numba's cache): a fresh installation
    compiles for 10 to 40 s (BENCHMARKS.md), once; a later process loads it in 0.3 to 1.6 s
    (numba's import included).  Returns the seconds it took, 0 without numba or when it
    is loaded already.  A `Resolver` uses the kernel only once this has run in the process
    (`ready`), so that no search pays for it inside its time limit: a long-running caller
    calls it first (the test suite does, ``tests/conftest.py``; so do the benchmarks, and
    ``dipsolve play``, ``batch`` and ``daide`` before their first game, job or phase).
    ``note``: told one line first when numba's cache has no kernel, so that it compiles
    (a command says so on stderr).  After installing: ``python -c "import
    dipsolve.core.fast_kernel as k; k.warm()"`` compiles it for every later process."""
    import time

    if _ready or not numba_installed():
        return 0.0
    t0 = time.perf_counter()
    if note is not None and not _cached():
        note("compiling the resolver's kernel with numba, once (10 to 40 s; later runs load "
             "it from numba's cache)")
    kernel = compiled()
    if kernel is None:
        return 0.0
    one = np.zeros((FIELDS, 1), np.int64)
    one[DEST:SDEST + 1] = -1
    one[VIA] = 0
    kernel(one, np.zeros(0, np.int64), np.zeros((1, 1), np.uint8), workspace(1, 1))
    lt = np.full(1 + 2 + 4096, -1, np.int64)
    lt[:3] = 0
    matcher()(np.array([1, -1, 0, 1 << 42], np.int64), np.zeros((2, 3), np.int64), lt,
              np.zeros((1, 1), np.uint8), workspace(1, 1))
    _ready.append(True)
    return time.perf_counter() - t0


def _cached() -> bool:
    """Whether numba's on-disk cache holds an index of the kernel for this Python, where
    numba itself looks (its first cache locator that takes this module: beside it, or
    under ``NUMBA_CACHE_DIR``, or the user's cache when this folder cannot be written);
    an index of older source is recompiled without a note."""
    import sys

    try:
        from numba.core.caching import CacheImpl
        locators: list = list(CacheImpl._locator_classes)
        for kernel in (resolve_movement, adjudicate_movement):
            fn = getattr(kernel, "py_func", kernel)     # numba's, once compiled
            name = (f"fast_kernel.{fn.__name__}-{fn.__code__.co_firstlineno}"
                    f".py{sys.version_info[0]}{sys.version_info[1]}.nbi")
            for cls in locators:
                locator = cls.from_function(fn, fn.__code__.co_filename)
                if locator is not None:
                    if not os.path.exists(os.path.join(locator.get_cache_path(), name)):
                        return False
                    break
            else:
                return False
        return True
    except (ImportError, AttributeError, OSError):     # numba absent, or its internals moved
        pass
    return False


# rows of the ``units`` array
PROV, POWER, OTYPE, DEST, DLOC, VIA, SPROV, SDEST, RANK, LOC = range(10)
FIELDS = 10
#: ``RANK``: a unit's place in the canonical order of units (`dipsolve.core.position.Position`:
#: by power, kind, location) is ``RANK * LOCATIONS + location``; ``LOC``: its location
LOCATIONS = 4096
# order types (`dipsolve.core.rules.T_HOLD` ...)
HOLD, MOVE, SUPH, SUPM, CONVOY = range(5)

_UNRESOLVED, _GUESSING, _RESOLVED = 0, 1, 2

# rows of the working array ``w`` ([_W_ROWS, n]): the unit a move meets head to head, the
# unit standing in its destination, the heads of each unit's lists of hold supports, move
# supports and convoying fleets, the next supporter in a list, the next mover to the
# same province; whether a move goes by convoy; the unit that dislodged it
_H2H, _OCC, _HS, _MS, _CV, _SNEXT, _MNEXT, _VIA, _BY = range(9)
_W_ROWS = 9


#: an order packed into one int (`pack`): the unit's index, then the rows ``OTYPE`` to
#: ``SDEST``, each 12 bits wide (3 for the type, 1 for ``VIA``), indices stored plus one
#: (so at most 4,095 units and 4,094 provinces and locations: `LOCATIONS`)


def pack(i: int, otype: int, dest: int, dloc: int, via: int, sprov: int, sdest: int) -> int:
    """One matched order as one int (unit ``i``; -1 for none in the index fields)."""
    return (i | otype << 12 | (dest + 1) << 15 | (dloc + 1) << 27 | via << 39
            | (sprov + 1) << 40 | (sdest + 1) << 52)


def patched(base: np.ndarray, patch: np.ndarray) -> np.ndarray:
    """``base`` with the packed orders of ``patch`` (`pack`) written over it, a copy; an
    array of no units when a unit is given two orders, which the caller leaves to the
    reference path (DATC 4.D.3: it holds, and the orders are reported)."""
    units = base.copy()
    if not _patch_into(units, patch, np.zeros(base.shape[1], np.int64)):
        return np.zeros((FIELDS, 0), np.int64)
    return units


def _patch_into(units: np.ndarray, patch: np.ndarray, seen: np.ndarray) -> bool:
    """Write the packed orders of ``patch`` over ``units`` (`patched`), ``seen`` a scratch
    row of the units' length; False when a unit is given two orders."""
    seen[:] = 0
    for r in range(patch.shape[0]):
        v = patch[r]
        i = v & 0xFFF
        if seen[i] != 0:
            return False
        seen[i] = 1
        units[OTYPE, i] = (v >> 12) & 0x7
        units[DEST, i] = ((v >> 15) & 0xFFF) - 1
        units[DLOC, i] = ((v >> 27) & 0xFFF) - 1
        units[VIA, i] = (v >> 39) & 0x1
        units[SPROV, i] = ((v >> 40) & 0xFFF) - 1
        units[SDEST, i] = ((v >> 52) & 0xFFF) - 1
    return True


def workspace(n: int, nprov: int) -> np.ndarray:
    """The scratch memory of `resolve_movement` for ``n`` units on a map of ``nprov``
    provinces: allocated once (a `dipsolve.core.resolver.Resolver` keeps one) and reused
    by every call, which writes each word before it reads it."""
    return np.empty(_ws_size(n, nprov) + _match_size(n, nprov), np.int64)


def _ws_size(n: int, nprov: int) -> int:
    # units, seen, w, pt, flags, deps/top/keys, frames, out, occupied, held, BFS (2)
    return (FIELDS * n + n + _W_ROWS * n + 4 * nprov + 8 * n + 9 * n + 10 + 5 * (16 * n + 16)
            + 5 + 6 * n + nprov + 3 * nprov + nprov)


def resolve_movement(base: np.ndarray, patch: np.ndarray, nb: np.ndarray, ws: np.ndarray) -> int:
    """Resolve one movement phase whose orders are matched (``base``, with the packed
    orders of ``patch`` written over it, `patched`): steps 2 to 4 of the adjudicator's
    pipeline, without the next position (see the module notes).  ``ws``: the scratch
    memory (`workspace`), carved into the arrays below, so that a call allocates nothing
    but the sort of step 4.  The answer is written at the start of ``ws``; returns its
    length (an int: returning a view of ``ws`` would cost the caller a new array object,
    about 1 us, as much as a fifth of the call), 0 when the kernel could not resolve the
    set (a unit given two orders, or its stacks overflowed: the reference path)."""
    n = base.shape[1]
    nprov = nb.shape[0]
    if ws.shape[0] < _ws_size(n, nprov):
        return 0                    # too little scratch memory: the reference path
    q = 5 + 6 * n + nprov
    units = ws[q:q + FIELDS * n].reshape((FIELDS, n))
    units[:, :] = base
    if not _patch_into(units, patch, ws[q + FIELDS * n:q + FIELDS * n + n]):
        return 0                    # a unit given two orders: the reference path
    return _settle(units, nb, ws)


def _settle(units: np.ndarray, nb: np.ndarray, ws: np.ndarray) -> int:
    """Steps 2 to 4 of `resolve_movement` on ``units`` (a view of ``ws``, its orders
    matched), the answer written at the start of ``ws``; its length, or 0 (see there)."""
    n = units.shape[1]
    nprov = nb.shape[0]
    out = ws[:5 + 6 * n + nprov]
    q = 5 + 6 * n + nprov + FIELDS * n + n
    # the working rows, viewed row by row out of ``ws``
    w = ws[q:q + _W_ROWS * n].reshape((_W_ROWS, n))
    q += _W_ROWS * n
    w[:, :] = -1
    via, by = w[_VIA], w[_BY]      # convoy intent (step 2), the unit that dislodged each
    via[:] = units[VIA]
    # province -> the unit standing there, the first mover to it, the last, how many
    pt = ws[q:q + 4 * nprov].reshape((4, nprov))
    q += 4 * nprov
    pt[:, :] = -1
    at, mhead, mtail, mcount = pt[0], pt[1], pt[2], pt[3]
    mcount[:] = 0
    for i in range(n):
        at[units[PROV, i]] = i
    otype, dest, power = units[OTYPE], units[DEST], units[POWER]
    sprov, sdest, dloc, prov = units[SPROV], units[SDEST], units[DLOC], units[PROV]
    # 2. convoy intent (DATC 3.0 4.A.3): a fleet of the army's power ordered to convoy it
    for i in range(n):
        if otype[i] == CONVOY:
            a = at[sprov[i]]
            if otype[a] == MOVE and dest[a] == sdest[i] and power[a] == power[i]:
                via[a] = 1
    for i in range(n):
        if otype[i] != MOVE:
            continue
        d = dest[i]
        if mhead[d] < 0:
            mhead[d] = i
        else:
            w[_MNEXT, mtail[d]] = i
        mtail[d] = i
        mcount[d] += 1
        j = at[d]
        if j >= 0:
            w[_OCC, i] = j
            if otype[j] == MOVE and dest[j] == prov[i] and via[i] == 0 and via[j] == 0:
                w[_H2H, i] = j
    # supports and convoys by the unit they are for, each list in board order
    for i in range(n):
        t = otype[i]
        if t != SUPH and t != SUPM and t != CONVOY:
            continue
        j = at[sprov[i]]
        row = -1
        if t == SUPH:
            if otype[j] != MOVE:
                row = _HS
        elif t == SUPM:
            if otype[j] == MOVE and dest[j] == sdest[i]:
                # a support that names a coast must name the coast moved to (DATC 4.B.4)
                if dloc[i] < 0 or dloc[i] == dloc[j]:
                    row = _MS
        elif otype[j] == MOVE and via[j] != 0 and dest[j] == sdest[i]:
            row = _CV
        if row >= 0:
            if w[row, j] < 0:
                w[row, j] = i
            else:
                w[_SNEXT, _tail_of(w, row, j)] = i
    # 3. resolve every move; one alone into an empty province, not by convoy, succeeds
    # the decisions' results and states; `_run`'s note of the fleets not dislodged; moved
    flags = ws[q:q + 8 * n].reshape((4, 2 * n))
    q += 8 * n
    flags[:, :] = 0
    res, state, fleet_ok, moved = flags[0], flags[1], flags[2, :n], flags[3, :n]
    # the guesses resolved decisions depend on (a stack, ``top[0]`` its height; ``top[1]``
    # set if it overflowed, when the caller must use the reference resolver); the units'
    # places in canonical order (step 4); each written before it is read
    deps, top, keys = ws[q:q + 8 * n + 8], ws[q + 8 * n + 8:q + 8 * n + 10], ws[q + 8 * n + 10:q + 9 * n + 10]
    q += 9 * n + 10
    top[:] = 0
    # `_run`'s stack of frames (each field written before it is read)
    fr = ws[q:q + 5 * (16 * n + 16)].reshape((16 * n + 16, 5))
    q += 5 * (16 * n + 16)
    occupied = ws[q:q + nprov]
    q += nprov
    bfs = ws[q:q + 3 * nprov]          # `_decide_path`'s seas held, `_sea_route`'s seen and queue
    for i in range(n):
        if otype[i] == MOVE and w[_OCC, i] < 0 and via[i] == 0 and mcount[dest[i]] == 1:
            res[i] = 1
            state[i] = _RESOLVED
    for i in range(n):
        if otype[i] == MOVE and state[i] != _RESOLVED:
            _run(i, units, via, w, at, mhead, mcount, res, state, deps, top, nb, fr, fleet_ok, bfs)
    # 4. what the moves do: moved, dislodged by whom, standoffs
    for i in range(n):
        if otype[i] == MOVE and res[i] != 0:
            moved[i] = 1
    n_dislodged = 0
    for i in range(n):
        if moved[i] != 0:
            j = at[dest[i]]
            if j >= 0 and moved[j] == 0:
                by[j] = i
                n_dislodged += 1
    out[0] = 0
    p = 2
    for i in range(n):
        if moved[i] != 0:
            out[p] = i << 12 | dloc[i]
            p += 1
    out[1] = p - 2
    out[p] = n_dislodged
    p += 1
    for i in range(n):
        if by[i] >= 0:
            out[p] = i
            out[p + 1] = by[i]
            out[p + 2] = via[by[i]]
            p += 3
    n_at = p
    out[n_at] = 0
    p += 1
    if n_dislodged > 0:
        # the standoffs, which matter only to the retreats of dislodged units
        occupied[:] = 0
        for i in range(n):
            if moved[i] != 0:
                occupied[dest[i]] = 1
            elif by[i] < 0:
                occupied[prov[i]] = 1
        for d in range(nprov):
            if mhead[d] < 0 or occupied[d] != 0:
                continue
            k = mhead[d]
            while k >= 0:
                h = w[_H2H, k]
                if (moved[k] == 0
                        and (via[k] == 0 or _run(n + k, units, via, w, at, mhead, mcount, res,
                                                 state, deps, top, nb, fr, fleet_ok, bfs))
                        and not (h >= 0 and moved[h] != 0)):
                    out[p] = d
                    p += 1
                    out[n_at] += 1
                    break
                k = w[_MNEXT, k]
    # the units left on the board, in canonical order: the board's order is canonical
    # and only the movers change places, so an insertion sort (into the row ``_OCC``,
    # free once the moves are resolved) moves few units and allocates nothing
    order = w[_OCC]
    for i in range(n):
        key = units[RANK, i] * LOCATIONS + (dloc[i] if moved[i] != 0 else units[LOC, i])
        keys[i] = key
        j = i
        while j > 0 and keys[order[j - 1]] > key:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    n_left = 0
    for r in range(n):
        i = order[r]
        if by[i] < 0:
            out[p + 1 + n_left] = i << 12 | (dloc[i] if moved[i] != 0 else units[LOC, i])
            n_left += 1
    out[p] = n_left
    p += 1 + n_left
    return 0 if top[1] != 0 else p


def _tail_of(w: np.ndarray, row: int, j: int) -> int:
    """The last supporter in unit ``j``'s list ``row`` (its head is set): walked, as the
    lists are short (a unit has a few supports at most)."""
    k = w[row, j]
    while w[_SNEXT, k] >= 0:
        k = w[_SNEXT, k]
    return k


# -- the resolver (Kruijswijk's guess algorithm), as `dipsolve.core.adjudicator._resolve` --
#
# The reference is a handful of mutually recursive functions (`_resolve`, `_decide_move`,
# `_decide_path`, `_given`, `_support_holds`, `_dislodged`).  numba compiles recursion but
# cannot cache it (loading a cached recursive function crashes the process: numba issue
# #6061, reproduced here with numba 0.68), so `_run` is the same functions on an explicit
# stack of frames: each frame is one call (its function, where it is in it, its argument
# and two locals), a call pushes a frame and says where the caller goes on, a return pops
# it and leaves the value in ``ret``.  The calls are made in the reference's order, so
# the guesses, the cycles and the backup rule come out the same.

# the functions, and the fields of a frame
_RESOLVE, _DECIDE_MOVE, _DECIDE_PATH, _GIVEN, _SUPPORT_HOLDS, _DISLODGED = range(6)
_FN, _PC, _ARG, _L1, _L2 = range(5)


def _push(deps, top, d):
    if top[0] < deps.shape[0]:
        deps[top[0]] = d
        top[0] += 1
    else:
        top[1] = 1


def _run(d0, units, via, w, at, mhead, mcount, res, state, deps, top, nb, fr, fleet_ok, bfs):
    """Resolve decision ``d0`` (0..n-1: the move of unit i; n..2n-1: the convoy path of
    unit i - n), with every decision it depends on; returns its result.  ``bfs``: scratch
    of three rows of provinces for the convoy routes."""
    n = units.shape[1]
    otype, power, prov, dest = units[OTYPE], units[POWER], units[PROV], units[DEST]
    cap = fr.shape[0]
    sp = 0
    fr[0, _FN] = _RESOLVE
    fr[0, _PC] = 0
    fr[0, _ARG] = d0
    ret = 0
    call_fn = -1      # set by a frame that calls: the function and its argument
    call_arg = 0
    while sp >= 0:
        if top[1] != 0:
            return False
        fn, pc, a = fr[sp, _FN], fr[sp, _PC], fr[sp, _ARG]
        done = False          # the frame returns ``ret``
        call_fn = -1
        if fn == _RESOLVE:
            d = a
            if pc == 0:
                s = state[d]
                if s == _RESOLVED:
                    ret = res[d]
                    done = True
                elif s == _GUESSING:
                    found = False
                    for q in range(top[0]):
                        if deps[q] == d:
                            found = True
                            break
                    if not found:
                        _push(deps, top, d)
                    ret = res[d]
                    done = True
                else:
                    fr[sp, _L1] = top[0]          # old
                    res[d] = 0
                    state[d] = _GUESSING
                    fr[sp, _PC] = 1
                    call_fn, call_arg = (_DECIDE_PATH, d - n) if d >= n else (_DECIDE_MOVE, d)
            elif pc == 1:
                old = fr[sp, _L1]
                first = ret
                fr[sp, _L2] = first
                if top[0] == old:
                    if state[d] != _RESOLVED:
                        res[d] = first
                        state[d] = _RESOLVED
                    done = True
                elif deps[old] != d:
                    _push(deps, top, d)
                    res[d] = first
                    done = True
                else:
                    # the result depends on our own guess: try the other one
                    for q in range(old, top[0]):
                        state[deps[q]] = _UNRESOLVED
                    top[0] = old
                    res[d] = 1
                    state[d] = _GUESSING
                    fr[sp, _PC] = 2
                    call_fn, call_arg = (_DECIDE_PATH, d - n) if d >= n else (_DECIDE_MOVE, d)
            else:
                old, first, second = fr[sp, _L1], fr[sp, _L2], ret
                if first == second:
                    for q in range(old, top[0]):
                        state[deps[q]] = _UNRESOLVED
                    top[0] = old
                    res[d] = first
                    state[d] = _RESOLVED
                    ret = first
                    done = True
                else:
                    # two solutions or none: the backup rule settles the cycle
                    in_cycle = False
                    for q in range(old, top[0]):
                        if deps[q] == d:
                            in_cycle = True
                    if not in_cycle:
                        _push(deps, top, d)
                    paths = False
                    for q in range(old, top[0]):
                        state[deps[q]] = _UNRESOLVED
                        if deps[q] >= n:
                            paths = True
                    for q in range(old, top[0]):
                        x = deps[q]
                        if paths:
                            # Szykman: the convoys in a paradox fail; their armies do not move
                            if x >= n:
                                res[x] = 0
                                state[x] = _RESOLVED
                        else:
                            # circular movement: every move in the cycle succeeds
                            res[x] = 1
                            state[x] = _RESOLVED
                    top[0] = old
                    fr[sp, _PC] = 0       # and resolve d again (the reference's tail call)
        elif fn == _DISLODGED:
            u = a
            if pc == 3:                     # a mover came in: dislodged unless u moved out
                ret, done = 1 - ret, True
            else:
                if pc == 0:
                    fr[sp, _L1] = mhead[prov[u]]
                elif ret == 0:              # that mover failed: the next one
                    fr[sp, _L1] = w[_MNEXT, fr[sp, _L1]]
                elif otype[u] == MOVE:
                    fr[sp, _PC] = 3
                    call_fn, call_arg = _RESOLVE, u
                else:
                    ret, done = 1, True
                if call_fn < 0 and not done:
                    if fr[sp, _L1] < 0:
                        ret, done = 0, True
                    else:
                        fr[sp, _PC] = 2
                        call_fn, call_arg = _RESOLVE, fr[sp, _L1]
        elif fn == _SUPPORT_HOLDS:
            sup = a
            if pc == 3:                     # not cut: given unless dislodged
                ret, done = 1 - ret, True
            elif pc == 2 and ret != 0:      # cut by a convoyed army that arrives
                ret, done = 0, True
            else:
                fr[sp, _L1] = mhead[prov[sup]] if pc == 0 else w[_MNEXT, fr[sp, _L1]]
            while not done and call_fn < 0:
                mv = fr[sp, _L1]
                if mv < 0:
                    fr[sp, _PC] = 3
                    call_fn, call_arg = _DISLODGED, sup
                elif power[mv] != power[sup] and prov[mv] != units[SDEST, sup]:
                    if via[mv] == 0:
                        ret, done = 0, True
                    else:
                        fr[sp, _PC] = 2
                        call_fn, call_arg = _RESOLVE, n + mv
                else:
                    fr[sp, _L1] = w[_MNEXT, mv]
        elif fn == _GIVEN:
            if pc == 0:
                fr[sp, _L1] = a        # the cursor
                fr[sp, _L2] = 0        # the count
            else:
                if ret != 0:
                    fr[sp, _L2] += 1
                fr[sp, _L1] = w[_SNEXT, fr[sp, _L1]]
            if fr[sp, _L1] < 0:
                ret = fr[sp, _L2]
                done = True
            else:
                fr[sp, _PC] = 1
                call_fn, call_arg = _SUPPORT_HOLDS, fr[sp, _L1]
        elif fn == _DECIDE_PATH:
            i = a
            if pc == 0:
                fr[sp, _L1] = w[_CV, i]
                fr[sp, _L2] = 0
            else:
                f = fr[sp, _L1]
                fleet_ok[f] = 1 if ret == 0 else 0
                if ret == 0:
                    fr[sp, _L2] = 1
                fr[sp, _L1] = w[_SNEXT, f]
            if fr[sp, _L1] >= 0:
                fr[sp, _PC] = 1
                call_fn, call_arg = _DISLODGED, fr[sp, _L1]
            elif fr[sp, _L2] == 0:
                ret = 0
                done = True
            else:
                held = bfs[:nb.shape[0]]
                held[:] = 0
                f = w[_CV, i]
                while f >= 0:
                    if fleet_ok[f] != 0:
                        held[prov[f]] = 1
                    f = w[_SNEXT, f]
                ret = 1 if _sea_route(nb, prov[i], dest[i], held, bfs[nb.shape[0]:]) else 0
                done = True
        else:   # _DECIDE_MOVE: whether move i succeeds (DATC section 5)
            i = a
            j = w[_OCC, i]
            goto = pc
            if goto == 0:
                if via[i] != 0:
                    fr[sp, _PC] = 1
                    call_fn, call_arg = _RESOLVE, n + i
                else:
                    ret = 1
                    goto = 1
            if goto == 1:
                if ret == 0:
                    done = True
                elif j < 0:
                    goto = 3
                elif otype[j] == MOVE and w[_H2H, i] != j:
                    fr[sp, _PC] = 2
                    call_fn, call_arg = _RESOLVE, j
                else:
                    goto = 4
            elif goto == 2:
                goto = 3 if ret != 0 else 4
            # attack strength
            if goto == 3:
                fr[sp, _PC] = 5
                call_fn, call_arg = _GIVEN, w[_MS, i]
            elif goto == 4:
                if power[j] == power[i]:
                    ret = 0      # no unit dislodges one of its own power
                    done = True
                else:
                    fr[sp, _L1] = 1
                    fr[sp, _L2] = w[_MS, i]
                    goto = 6
            elif goto == 5:
                fr[sp, _L1] = 1 + ret
                goto = 8
            elif goto == 7:
                if ret != 0:
                    fr[sp, _L1] += 1
                fr[sp, _L2] = w[_SNEXT, fr[sp, _L2]]
                goto = 6
            while goto == 6:
                sup = fr[sp, _L2]
                if sup < 0:
                    goto = 8
                elif power[sup] != power[j]:
                    fr[sp, _PC] = 7
                    call_fn, call_arg = _SUPPORT_HOLDS, sup
                    goto = -1
                else:
                    fr[sp, _L2] = w[_SNEXT, sup]
            att = fr[sp, _L1]
            # defend strength of the unit met head to head, or the hold strength
            if goto == 8:
                h = w[_H2H, i]
                if h >= 0:
                    fr[sp, _PC] = 9
                    call_fn, call_arg = _GIVEN, w[_MS, h]
                elif j >= 0:
                    if otype[j] == MOVE:
                        fr[sp, _PC] = 10
                        call_fn, call_arg = _RESOLVE, j
                    else:
                        fr[sp, _PC] = 11
                        call_fn, call_arg = _GIVEN, w[_HS, j]
                else:
                    goto = 12
            elif goto == 9 or goto == 10 or goto == 11:
                # 10: a unit that moved out holds with 0, one that stayed with 1
                against = (0 if ret != 0 else 1) if goto == 10 else 1 + ret
                if att <= against:
                    ret, done = 0, True
                else:
                    goto = 12
            # prevent strength of every other move to the same place
            if goto == 12:
                if mcount[dest[i]] > 1:
                    fr[sp, _L2] = mhead[dest[i]]
                    goto = 13
                else:
                    ret, done = 1, True
            elif goto == 14:
                goto = 15 if ret != 0 else 19
            elif goto == 16:
                goto = 19 if ret != 0 else 17      # beaten head to head: it prevents nothing
            elif goto == 18:
                if att <= 1 + ret:          # prevented
                    ret, done = 0, True
                else:
                    goto = 19
            if goto == 19:
                fr[sp, _L2] = w[_MNEXT, fr[sp, _L2]]
                goto = 13
            while goto == 13:
                k = fr[sp, _L2]
                if k < 0:
                    ret, done, goto = 1, True, -1
                elif k == i:
                    fr[sp, _L2] = w[_MNEXT, k]
                elif via[k] != 0:
                    fr[sp, _PC] = 14
                    call_fn, call_arg = _RESOLVE, n + k
                    goto = -1
                else:
                    goto = 15
            if goto == 15:
                k = fr[sp, _L2]
                h = w[_H2H, k]
                if h >= 0:
                    fr[sp, _PC] = 16
                    call_fn, call_arg = _RESOLVE, h
                else:
                    goto = 17
            if goto == 17:
                fr[sp, _PC] = 18
                call_fn, call_arg = _GIVEN, w[_MS, fr[sp, _L2]]
        if done:
            sp -= 1
        elif call_fn >= 0:
            sp += 1
            if sp >= cap:
                top[1] = 1
                return False
            fr[sp, _FN] = call_fn
            fr[sp, _PC] = 0
            fr[sp, _ARG] = call_arg
    return ret != 0


def _sea_route(nb, src, dst, held, scratch):
    """`dipsolve.core.graph.sea_route`: breadth-first from ``src`` through the seas
    ``held``, until a sea next to ``dst`` (``scratch``: two rows of provinces)."""
    nprov = nb.shape[0]
    seen = scratch[:nprov]
    seen[:] = 0
    queue = scratch[nprov:2 * nprov]
    tail = 0
    for s in range(nprov):
        if nb[src, s] != 0 and held[s] != 0:
            seen[s] = 1
            queue[tail] = s
            tail += 1
    head = 0
    while head < tail:
        s = queue[head]
        head += 1
        if nb[s, dst] != 0:
            return True
        for t in range(nprov):
            if nb[s, t] != 0 and held[t] != 0 and seen[t] == 0 and t != src:
                seen[t] = 1
                queue[tail] = t
                tail += 1
    return False


# -- a fresh phase: the matching of orders to units, in the kernel (`dipsolve.core.fast_phase`) --
#
# The same checks as `dipsolve.core.rules.match_movement` and its ``_classify``, in the
# same order, on a map's tables (`dipsolve.core.fast_phase.MapTables` builds them): an
# order is matched to the unit in the province its location names, of its kind and its
# power; a unit given two different orders holds (DATC 4.D.3); an illegal order is a hold
# (DATC 4.E.1); what a legal one asks for is written in the rows ``OTYPE`` to ``SDEST``.
# The reasons are not kept: `dipsolve.core.adjudicator.Outcome.results` asks the reference.

#: terrains in the map's table (`adjudicate_movement`'s ``lt``), plus `_COASTS` for a
#: province of several coasts
_LAND, _COAST, _SEA, _COASTS = 0, 1, 2, 4


def _match_size(n: int, nprov: int) -> int:
    # first order, twice ordered, the unit in each province, the seas held, BFS (2),
    # the chordless search's path and cursors; the counts by power (Fall)
    return 2 * n + 6 * nprov + 4 + 2 * _POWERS


#: at most this many powers (their numbers in a unit's ``RANK``)
_POWERS = 64
#: a province's entry in the map's table of terrains: the terrain (bits 0-1), `_COASTS`,
#: `_CENTER`, and its home power's number + 1 from bit `_HOME`
_CENTER, _HOME = 8, 8


def adjudicate_movement(data: np.ndarray, grid: np.ndarray, lt: np.ndarray, nb: np.ndarray,
                        ws: np.ndarray) -> int:
    """One fresh movement phase: ``data`` is the number of units ``n``, the number of
    owned centers ``nc`` (-1 in Spring, when they are not needed), each unit's code
    (``RANK << 12 | location``, in board order), each center's (``(power + 1) << 12 |
    province``), then each order's code (`dipsolve.core.orders.code` with ``(power + 1)
    << 42``).  ``grid`` (by kind and location, ``2 * nloc`` rows): the locations a unit
    moves to (``nloc`` columns), the provinces it reaches (``nprov``), the coast a fleet's
    move to each province fills in (``nprov``: the location, -1 for none or more than
    one).  ``lt``: each location's province (``nloc``), each province's terrain
    (``nprov``: see `_CENTER`), each province's own location (``nprov``), each numbered
    place name's location (`dipsolve.core.orders.NAMES`, -1: not on this map).

    Matches the orders to the units (above), then `_settle`; the answer is
    `resolve_movement`'s, except that the units left are ``RANK << 12 | location``,
    followed by either, when units are dislodged, for each (in board order) its index,
    its attacker's province (-1: by convoy), the number of places it may retreat to and
    those locations, sorted (DATC 4.A.5: not occupied, not left empty by a standoff, not
    the attacker's unless it came by convoy); or, in a Fall phase (``nc >= 0``) without
    one, whether a power must adjust (build or remove), the number of centers that change
    hands and each as ``province, power``.  Returns its length, 0 when the reference must
    take the phase (an order without a code, too little scratch memory, the stacks
    overflowed)."""
    n = data[0]
    nc = data[1]
    nprov = nb.shape[0]
    nloc = grid.shape[1] - 2 * nprov
    size = _ws_size(n, nprov)
    if ws.shape[0] < size + _match_size(n, nprov):
        return 0
    q = 5 + 6 * n + nprov
    units = ws[q:q + FIELDS * n].reshape((FIELDS, n))
    m = ws[size:size + _match_size(n, nprov)]
    first, twice = m[:n], m[n:2 * n]
    at, held = m[2 * n:2 * n + nprov], m[2 * n + nprov:2 * n + 2 * nprov]
    scratch = m[2 * n + 2 * nprov:2 * n + 6 * nprov + 4]
    by_power = m[2 * n + 6 * nprov + 4:2 * n + 6 * nprov + 4 + 2 * _POWERS]
    loc_prov, terrain = lt[:nloc], lt[nloc:nloc + nprov]
    prov_loc, names = lt[nloc + nprov:nloc + 2 * nprov], lt[nloc + 2 * nprov:]
    at[:] = -1
    held[:] = 0
    units[OTYPE:SDEST + 1, :] = -1        # every unit holds until its order is read
    units[OTYPE, :] = HOLD
    units[VIA, :] = 0
    for i in range(n):
        c = data[2 + i]
        loc = c & 0xFFF
        p = loc_prov[loc]
        if c >> 13 >= _POWERS:
            return 0
        units[PROV, i] = p
        units[POWER, i] = c >> 13
        units[RANK, i] = c >> 12
        units[LOC, i] = loc
        at[p] = i
        if (c >> 12) & 1 and terrain[p] & 3 == _SEA:
            held[p] = 1            # the seas fleets hold (the convoy routes' seas)
        first[i] = -1
        twice[i] = 0
    for r in range(2 + n + max(nc, 0), data.shape[0]):
        c = data[r]
        if c < 0:
            return 0               # an order without a code: the reference path
        loc = names[(c >> 6) & 0xFFF]
        if loc < 0:
            continue               # set aside: no unit there (DATC 4.C)
        i = at[loc_prov[loc]]
        if i < 0 or units[RANK, i] & 1 != (c >> 3) & 1 or units[POWER, i] != (c >> 42) - 1:
            continue               # set aside: no such unit, or not this power's
        if first[i] < 0:
            first[i] = c
            if not 1 <= c & 7 <= 4:
                continue           # a hold, or an order of another phase: it holds
            # the order checked (DATC 4.E.1) and written into ``units`` (left a hold
            # when it is illegal): `dipsolve.core.rules.match_movement`'s fast paths and
            # ``_classify``, check by check; written here, not called (a call costs a
            # reference count of each array passed, ~70 ns an order, measured)
            for _once in range(1):
                t = c & 7
                kind = (c >> 3) & 1
                prov = units[PROV, i]
                row = kind * nloc + units[LOC, i]
                tloc = names[(c >> 18) & 0xFFF]
                tprov = loc_prov[tloc] if tloc >= 0 else -1
                oloc = names[(c >> 30) & 0xFFF]
                oprov = loc_prov[oloc] if oloc >= 0 else -1
                if t == 1:                                   # a move
                    if tprov < 0 or tprov == prov:
                        break
                    if (c >> 4) & 1 == 0 and grid[row, tloc] != 0:
                        units[OTYPE, i] = MOVE
                        units[DEST, i] = tprov
                        units[DLOC, i] = tloc
                        break
                    if kind == 0:
                        if terrain[tprov] & 3 == _SEA:
                            break
                        adjacent = grid[row, nloc + tprov] != 0
                        if (c >> 4) & 1 != 0 or not adjacent:
                            if (terrain[prov] & 3 == _LAND or terrain[tprov] & 3 == _LAND
                                    or not _sea_route(nb, prov, tprov, held, scratch)):
                                break
                            units[VIA, i] = 1
                        units[OTYPE, i] = MOVE
                        units[DEST, i] = tprov
                        units[DLOC, i] = prov_loc[tprov]
                        break
                    if terrain[tprov] & 3 == _LAND:
                        break
                    if tloc == prov_loc[tprov] and terrain[tprov] & _COASTS != 0:
                        tloc = grid[row, nloc + nprov + tprov]    # the one coast in reach
                        if tloc < 0:
                            break
                    elif grid[row, tloc] == 0:
                        break
                    units[OTYPE, i] = MOVE
                    units[DEST, i] = tprov
                    units[DLOC, i] = tloc
                elif t == 2:                                 # a support of a hold
                    if (oprov < 0 or oprov == prov or grid[row, nloc + oprov] == 0
                            or at[oprov] < 0):
                        break
                    units[OTYPE, i] = SUPH
                    units[SPROV, i] = oprov
                elif t == 3:                                 # a support of a move
                    if oprov < 0 or oprov == prov or tprov < 0 or tprov == prov:
                        break
                    if grid[row, nloc + tprov] == 0:
                        break
                    j = at[oprov]
                    if j < 0:
                        break
                    jrow = (units[RANK, j] & 1) * nloc + units[LOC, j]
                    if grid[jrow, nloc + tprov] == 0 and not (
                            units[RANK, j] & 1 == 0 and terrain[oprov] & 3 != _LAND
                            and terrain[tprov] & 3 == _COAST
                            and _sea_route(nb, oprov, tprov, held, scratch)):
                        break      # the supported move could not be ordered (DATC 6.D.31)
                    units[OTYPE, i] = SUPM
                    units[SPROV, i] = oprov
                    units[SDEST, i] = tprov
                    coast = tloc != prov_loc[tprov] and units[RANK, j] & 1 == 1
                    units[DLOC, i] = tloc if coast else -1
                elif t == 4:                                 # a convoy
                    if kind != 1 or terrain[prov] & 3 != _SEA:
                        break
                    if oprov < 0 or tprov < 0:
                        break
                    a = at[oprov]
                    if a < 0 or units[RANK, a] & 1 != 0 or (c >> 5) & 1 != 0:
                        break
                    if terrain[oprov] & 3 == _LAND or terrain[tprov] & 3 != _COAST or oprov == tprov:
                        break
                    if not _on_route(nb, oprov, tprov, prov, held, scratch):
                        break
                    units[OTYPE, i] = CONVOY
                    units[SPROV, i] = oprov
                    units[SDEST, i] = tprov
        elif first[i] != c:
            twice[i] = 1           # two different orders: the unit holds (DATC 4.D.3)
    for i in range(n):
        if twice[i] != 0:
            _hold(units, i)
    p = _settle(units, nb, ws)
    if p == 0:
        return 0
    # the units left as RANK << 12 | location, which a map's table turns into units;
    # the provinces they stand in
    d = 2 + ws[1]
    s = d + 1 + 3 * ws[d]
    u = s + 1 + ws[s]
    occupied = held
    occupied[:] = 0
    for x in range(u + 1, p):
        c = ws[x]
        loc = c & 0xFFF
        ws[x] = units[RANK, c >> 12] << 12 | loc
        occupied[loc_prov[loc]] = 1
    if ws[d] > 0:
        # the retreats (`dipsolve.core.adjudicator.after_movement`)
        standoff = at
        standoff[:] = 0
        for x in range(s + 1, u):
            standoff[ws[x]] = 1
        for x in range(d + 1, s, 3):
            i = ws[x]
            origin = -1 if ws[x + 2] != 0 else units[PROV, ws[x + 1]]
            ws[p] = i
            ws[p + 1] = origin
            count = p + 2
            ws[count] = 0
            p += 3
            row = (units[RANK, i] & 1) * nloc + units[LOC, i]
            for loc in range(nloc):
                if grid[row, loc] != 0:
                    pr = loc_prov[loc]
                    if occupied[pr] == 0 and standoff[pr] == 0 and pr != origin:
                        ws[p] = loc
                        p += 1
                        ws[count] += 1
    elif nc >= 0:
        # the centers after a Fall phase (`dipsolve.core.adjudicator._after_fall`)
        owner = at
        owner[:] = -1
        for x in range(nc):
            c = data[2 + n + x]
            if c >> 12 > _POWERS:
                return 0
            owner[c & 0xFFF] = (c >> 12) - 1
        changes = p + 1
        ws[changes] = 0
        p += 2
        for x in range(u + 1, changes - 1):
            pr = loc_prov[ws[x] & 0xFFF]
            power = ws[x] >> 13
            if terrain[pr] & _CENTER != 0 and owner[pr] != power:
                ws[p] = pr
                ws[p + 1] = power
                p += 2
                ws[changes] += 1
        for x in range(changes + 1, p, 2):
            owner[ws[x]] = ws[x + 1]
        # a power with fewer centers than units removes; with more, builds if one of
        # its home centers is its own and empty
        centers, standing = by_power[:_POWERS], by_power[_POWERS:]
        centers[:] = 0
        standing[:] = 0
        for pr in range(nprov):
            if owner[pr] >= 0:
                centers[owner[pr]] += 1
        for x in range(u + 1, changes - 1):
            standing[ws[x] >> 13] += 1
        adjust = 0
        for power in range(_POWERS):
            if centers[power] < standing[power]:
                adjust = 1
            elif centers[power] > standing[power]:
                for pr in range(nprov):
                    if (terrain[pr] >> _HOME) - 1 == power and owner[pr] == power and occupied[pr] == 0:
                        adjust = 1
        ws[changes - 1] = adjust
    return p


def _hold(units, i):
    """Unit ``i`` ordered to hold (the rows ``OTYPE`` to ``SDEST``)."""
    units[OTYPE, i] = HOLD
    units[DEST, i] = -1
    units[DLOC, i] = -1
    units[VIA, i] = 0
    units[SPROV, i] = -1
    units[SDEST, i] = -1


def _on_route(nb, src, dst, sea, held, scratch):
    """`dipsolve.core.graph.on_route`: whether the fleet in ``sea`` is on some chain of the
    seas ``held`` from ``src`` to ``dst`` with no shortcut (depth first, each chain ending
    at the first sea next to ``dst``); ``scratch``: two rows of ``nprov + 1``."""
    nprov = nb.shape[0]
    path = scratch[:nprov + 1]
    cursor = scratch[nprov + 1:2 * nprov + 2]
    depth = 0
    path[0] = src
    cursor[0] = 0
    while depth >= 0:
        last = path[depth]
        if depth > 0 and nb[last, dst] != 0:
            for q in range(1, depth + 1):
                if path[q] == sea:
                    return True
            depth -= 1
            continue
        found = -1
        t = cursor[depth]
        while t < nprov and found < 0:
            if nb[last, t] != 0 and held[t] != 0:
                ok = True
                for q in range(depth + 1):
                    if path[q] == t or (q < depth and nb[t, path[q]] != 0):
                        ok = False
                        break
                if ok:
                    found = t
            t += 1
        if found < 0:
            depth -= 1
        else:
            cursor[depth] = found + 1
            depth += 1
            path[depth] = found
            cursor[depth] = 0
    return False
