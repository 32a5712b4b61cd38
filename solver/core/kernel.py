"""The rules of a movement phase over integer arrays: the one rules engine of dipsolve.

Everything here works on flat integer arrays, never on names: a map's tables
(`dipsolve.core.board.Board` builds them, ``bt`` below), the units of a position and the
orders given, each a row of ints (`dipsolve.core.board` converts them, the one boundary
between the named values of the API and these arrays).  The same functions run two ways:
compiled by numba where it is installed (`load` compiles them once and caches them on
disk), as plain Python elsewhere, on Python lists; no switch picks another engine, only
the speed differs.  So the code keeps to what both understand: integers, flat arrays
indexed by integers (``a[i * stride + field]``), arrays made by `_ints`, no recursion,
no dictionaries, no exceptions.

`movement` is the whole phase, in the order of the rules:

1. *match* each order to its unit by province, kind and power, and check it (DATC 4.C,
   4.D.3, 4.E.1): an order for a missing unit or another power's is set aside, a unit
   given two different orders holds, an illegal order becomes a hold with the code of
   the rule it breaks (`_classify`, the one check of an order's legality);
2. *convoy intent* (DATC 3.0, 4.A.3): an army's move goes by convoy when it says so,
   when it is not adjacent, or when a fleet of its own power is ordered to convoy it;
3. *resolve* every decision (a move succeeds, a unit is dislodged, a convoy path holds, a
   support is given) by an iterative fixpoint over the bounds of the strengths of DATC
   section 5 (attack, hold, defend, prevent), as Meta's dipcc resolves to a fixpoint of
   min/max strengths; when the fixpoint stalls the decisions left form cycles, and the
   first cycle that depends on no other (`_stalled`) is settled as Kruijswijk's guess
   algorithm settles it: one of its moves is guessed both ways; a single consistent
   answer is taken, two or none call for the backup rule: a convoy paradox fails its
   convoys (Szykman), circular movement succeeds;
4. *execute*: which units moved, which were dislodged and by whom, the provinces left
   empty by a standoff (DATC 4.A.5).

The answer (`movement`'s ``out``) says, for every unit, the order it was matched to and
how it read it, why it was refused, what became of it; for every order given, whether it
was matched; and the standoff provinces.  `dipsolve.core.board` turns it into an
`Outcome`.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from typing import Any, Callable

# -- the map's tables (`bt`): a header of sizes and offsets, then the tables -----------------

#: header fields of ``bt``
H_P, H_L = 0, 1
(O_LPROV, O_TERR, O_NCOAST, O_AMOVE, O_FMOVE, O_AREACH, O_FREACH, O_FILL, O_NB, O_FSTAND) = range(2, 12)
HEADER = 12
#: terrains (``bt[O_TERR + p]``)
LAND, COAST, SEA = 0, 1, 2

# -- the rows of units and orders --------------------------------------------------------------

#: a unit: its power, kind (0 army, 1 fleet) and location
U_POWER, U_KIND, U_LOC = range(3)
UF = 3
#: an order: the power giving it, its type, its unit's kind and location, its target, the
#: other unit's kind and location (supported, convoyed), flags (`F_VIA`, `F_BAD_ROUTE`)
#: and an id telling apart orders whose other fields are equal (names not on the map)
R_POWER, R_TYPE, R_KIND, R_LOC, R_TARGET, R_OKIND, R_OLOC, R_FLAGS, R_ID = range(9)
OF = 9
F_VIA, F_BAD_ROUTE = 1, 2
#: order types
HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, CONVOY, RETREAT, DISBAND, BUILD, OTHER = range(9)

# -- the answer (`movement`'s ``out``) -------------------------------------------------------

#: per unit: the order read (type, destination province and location, by convoy, the
#: other unit's province, the supported or convoyed destination), why it was refused
#: (`W_*`), the index of the order given (-1: none), the result (`X_*`), the unit that
#: dislodged it (-1: none)
A_TYPE, A_DEST, A_DLOC, A_VIA, A_SPROV, A_SDEST, A_WHY, A_GIVEN, A_RESULT, A_BY = range(10)
AF = 10
#: per order: how it was matched (`S_*`)
S_MATCHED, S_NO_UNIT, S_WRONG_KIND, S_NOT_YOURS, S_PHASE, S_REPEATED, S_TWICE = range(7)
#: results
(X_HELD, X_MOVED, X_NO_CONVOY, X_BOUNCED, X_VOID, X_SUPPORTED, X_CUT, X_CONVOYED,
 X_DISRUPTED) = range(1, 10)
#: why an order was refused (each names a rule of `dipsolve.core.rules.RULES`)
(W_NONE, W_PHASE, W_SUPPORTED_LOC, W_SELF_SUPPORT, W_SUPPORT_HOLD_REACH, W_NOTHING_TO_SUPPORT,
 W_DEST_LOC, W_SUPPORT_OWN_PROVINCE, W_SUPPORT_MOVE_REACH, W_SUPPORTED_CANNOT, W_MOVE_OWN_PROVINCE,
 W_ROUTE, W_ARMY_SEA, W_ARMY_ADJACENT, W_NO_ROUTE, W_FLEET_LAND, W_FLEET_ADJACENT,
 W_COAST_NEEDED, W_WRONG_COAST, W_FLEET_ADJACENT_LOC, W_CONVOY_FLEET, W_CONVOY_LOC,
 W_NOTHING_TO_CONVOY, W_CONVOY_ARMY, W_CONVOY_IMPOSSIBLE, W_CONVOY_OFF_ROUTE, W_TWICE) = range(27)

# decision states
_UNKNOWN, _YES, _NO = 0, 1, 2


def _ints(n, value):
    """``n`` ints set to ``value``: a list as plain Python, an array when compiled (`load`)."""
    return [value] * n


# -- convoy routes: one chain search ----------------------------------------------------------

def sea_route(bt, src, dst, held):
    """Whether an army in province ``src`` can be carried to ``dst`` through seas whose
    ``held[p]`` is set, each next to the one before (breadth first over the map's
    adjacency of provinces)."""
    P = bt[H_P]
    nb = bt[O_NB]
    seen = _ints(P, 0)
    queue = _ints(P, 0)
    tail = 0
    for s in range(P):
        if held[s] != 0 and bt[nb + src * P + s] != 0:
            seen[s] = 1
            queue[tail] = s
            tail += 1
    head = 0
    while head < tail:
        s = queue[head]
        head += 1
        if bt[nb + s * P + dst] != 0:
            return True
        for t in range(P):
            if held[t] != 0 and seen[t] == 0 and t != src and bt[nb + s * P + t] != 0:
                seen[t] = 1
                queue[tail] = t
                tail += 1
    return False


def on_route(bt, src, dst, sea, held):
    """Whether the fleet in ``sea`` is necessary for some convoy route from ``src`` to
    ``dst`` through the seas ``held``: on a chain with no shortcut (no two places on it
    adjacent but consecutive ones), each chain ending at the first sea next to ``dst``
    (DATC 4.E.1, case 6.G.19).  Depth first, on an explicit path."""
    P = bt[H_P]
    nb = bt[O_NB]
    path = _ints(P + 1, 0)
    cursor = _ints(P + 1, 0)
    depth = 0
    path[0] = src
    while depth >= 0:
        last = path[depth]
        if depth > 0 and bt[nb + last * P + dst] != 0:
            for q in range(1, depth + 1):
                if path[q] == sea:
                    return True
            depth -= 1
            continue
        found = -1
        t = cursor[depth]
        while t < P and found < 0:
            if held[t] != 0 and bt[nb + last * P + t] != 0:
                ok = True
                for q in range(depth + 1):
                    if path[q] == t or (q < depth and bt[nb + t * P + path[q]] != 0):
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


# -- 1. the matching: one order's legality ----------------------------------------------------

def _classify(bt, units, orders, r, i, at, held):
    """What order ``r``, matched to unit ``i``, asks for: ``(type, destination province,
    destination location, by convoy, other province, other destination, why refused)``;
    a refused order is a hold (DATC 4.E.1) and ``why`` the rule it breaks (`W_*`)."""
    P = bt[H_P]
    L = bt[H_L]
    o = r * OF
    t = orders[o + R_TYPE]
    kind = units[i * UF + U_KIND]
    loc = units[i * UF + U_LOC]
    prov = bt[bt[O_LPROV] + loc]
    terr = bt[O_TERR]
    target = orders[o + R_TARGET]
    tprov = bt[bt[O_LPROV] + target] if target >= 0 else -1
    oloc = orders[o + R_OLOC]
    oprov = bt[bt[O_LPROV] + oloc] if oloc >= 0 else -1
    reach = bt[O_AREACH] if kind == 0 else bt[O_FREACH]
    if t == HOLD:
        return HOLD, -1, -1, 0, -1, -1, W_NONE
    if t == SUPPORT_HOLD or t == SUPPORT_MOVE:
        if oprov < 0:
            return HOLD, -1, -1, 0, -1, -1, W_SUPPORTED_LOC
        if oprov == prov:
            return HOLD, -1, -1, 0, -1, -1, W_SELF_SUPPORT
        j = at[oprov]
        if t == SUPPORT_HOLD:
            if bt[reach + loc * P + oprov] == 0:
                return HOLD, -1, -1, 0, -1, -1, W_SUPPORT_HOLD_REACH
            if j < 0:
                return HOLD, -1, -1, 0, -1, -1, W_NOTHING_TO_SUPPORT
            return SUPPORT_HOLD, -1, -1, 0, oprov, -1, W_NONE
        if tprov < 0:
            return HOLD, -1, -1, 0, -1, -1, W_DEST_LOC
        if tprov == prov:
            return HOLD, -1, -1, 0, -1, -1, W_SUPPORT_OWN_PROVINCE
        if bt[reach + loc * P + tprov] == 0:
            return HOLD, -1, -1, 0, -1, -1, W_SUPPORT_MOVE_REACH
        if j < 0:
            return HOLD, -1, -1, 0, -1, -1, W_NOTHING_TO_SUPPORT
        # the supported move must be one that could be ordered (DATC 6.D.31 and 4.E.1)
        jkind = units[j * UF + U_KIND]
        jloc = units[j * UF + U_LOC]
        jreach = bt[O_AREACH] if jkind == 0 else bt[O_FREACH]
        if bt[jreach + jloc * P + tprov] == 0 and not (
                jkind == 0 and bt[terr + oprov] != LAND and bt[terr + tprov] == COAST
                and sea_route(bt, oprov, tprov, held)):
            return HOLD, -1, -1, 0, -1, -1, W_SUPPORTED_CANNOT
        coast = target if target != tprov and jkind == 1 else -1
        return SUPPORT_MOVE, -1, coast, 0, oprov, tprov, W_NONE
    if t == MOVE:
        if tprov < 0:
            return HOLD, -1, -1, 0, -1, -1, W_DEST_LOC
        if tprov == prov:
            return HOLD, -1, -1, 0, -1, -1, W_MOVE_OWN_PROVINCE
        if orders[o + R_FLAGS] & F_BAD_ROUTE:
            return HOLD, -1, -1, 0, -1, -1, W_ROUTE
        via = orders[o + R_FLAGS] & F_VIA
        if kind == 0:
            if bt[terr + tprov] == SEA:
                return HOLD, -1, -1, 0, -1, -1, W_ARMY_SEA
            adjacent = bt[reach + loc * P + tprov] != 0
            if via != 0 or not adjacent:
                if not (bt[terr + prov] != LAND and bt[terr + tprov] != LAND
                        and sea_route(bt, prov, tprov, held)):
                    if not adjacent:
                        return HOLD, -1, -1, 0, -1, -1, W_ARMY_ADJACENT
                    return HOLD, -1, -1, 0, -1, -1, W_NO_ROUTE
                return MOVE, tprov, tprov, 1, -1, -1, W_NONE
            return MOVE, tprov, tprov, 0, -1, -1, W_NONE
        # a fleet
        if bt[terr + tprov] == LAND:
            return HOLD, -1, -1, 0, -1, -1, W_FLEET_LAND
        if target == tprov and bt[bt[O_NCOAST] + tprov] != 0:
            coast = bt[bt[O_FILL] + loc * P + tprov]
            if coast < 0:
                if coast == -1:
                    return HOLD, -1, -1, 0, -1, -1, W_FLEET_ADJACENT
                return HOLD, -1, -1, 0, -1, -1, W_COAST_NEEDED
            return MOVE, tprov, coast, 0, -1, -1, W_NONE
        if bt[bt[O_FMOVE] + loc * L + target] == 0:
            if bt[reach + loc * P + tprov] != 0:
                return HOLD, -1, -1, 0, -1, -1, W_WRONG_COAST
            return HOLD, -1, -1, 0, -1, -1, W_FLEET_ADJACENT_LOC
        return MOVE, tprov, target, 0, -1, -1, W_NONE
    if t == CONVOY:
        if kind != 1 or bt[terr + prov] != SEA:
            return HOLD, -1, -1, 0, -1, -1, W_CONVOY_FLEET
        if oprov < 0 or tprov < 0:
            return HOLD, -1, -1, 0, -1, -1, W_CONVOY_LOC
        a = at[oprov]
        if a < 0:
            return HOLD, -1, -1, 0, -1, -1, W_NOTHING_TO_CONVOY
        if units[a * UF + U_KIND] != 0 or orders[o + R_OKIND] != 0:
            return HOLD, -1, -1, 0, -1, -1, W_CONVOY_ARMY
        if bt[terr + oprov] == LAND or bt[terr + tprov] != COAST or oprov == tprov:
            return HOLD, -1, -1, 0, -1, -1, W_CONVOY_IMPOSSIBLE
        if not on_route(bt, oprov, tprov, prov, held):
            return HOLD, -1, -1, 0, -1, -1, W_CONVOY_OFF_ROUTE
        return CONVOY, -1, -1, 0, oprov, tprov, W_NONE
    return HOLD, -1, -1, 0, -1, -1, W_PHASE


def _same_order(orders, r, g):
    """Whether orders ``r`` and ``g`` are the same order (every field but the power)."""
    for f in range(R_TYPE, OF):
        if orders[r * OF + f] != orders[g * OF + f]:
            return False
    return True


# -- 3. the resolution: decisions and their bounds --------------------------------------------
#
# The decisions, numbered so that one sweep takes the supports first, then the convoy
# paths, the moves and the dislodgements: node ``s`` the support of unit ``s`` is given,
# ``n + i`` the convoy path of unit ``i``'s move holds, ``2n + i`` unit ``i``'s move
# succeeds, ``3n + u`` unit ``u`` is dislodged.  Each is _UNKNOWN, _YES or _NO in ``state``.

def _count(state, head, nxt, skip_power, power):
    """The given and the possible supports of the list starting at ``head`` (linked by
    ``nxt``), leaving out those of ``skip_power`` (-1: none): ``(given, not cut)``."""
    given = 0
    possible = 0
    s = head
    while s >= 0:
        if power[s] != skip_power:
            v = state[s]
            if v == _YES:
                given += 1
                possible += 1
            elif v == _UNKNOWN:
                possible += 1
        s = nxt[s]
    return given, possible


def _move_verdict(i, jstays, n, state, g):
    """Move ``i``'s verdict (_YES, _NO or _UNKNOWN) with the unit in its destination
    staying (``jstays``) or leaving, from the bounds of the strengths (DATC section 5)."""
    (otype, dest, sdest, prov, power, occ, h2h, mhead, mnext, hs, ms, snext) = g
    path = state[n + i]
    if path == _NO:
        return _NO
    j = occ[i]
    # attack strength
    if j >= 0 and jstays:
        if power[j] == power[i]:
            return _NO                    # no unit dislodges one of its own power
        a_lo, a_hi = _count(state, ms[i], snext, power[j], power)
    else:
        a_lo, a_hi = _count(state, ms[i], snext, -1, power)
    a_lo += 1
    a_hi += 1
    if path == _UNKNOWN:
        a_lo = 0
    win = path == _YES
    h = h2h[i]
    if h >= 0:                            # the defend strength of the unit met head to head
        d_lo, d_hi = _count(state, ms[h], snext, -1, power)
        if a_hi <= d_lo + 1:
            return _NO
        if a_lo <= d_hi + 1:
            win = False
    elif j >= 0:                          # the hold strength of the province
        if otype[j] == MOVE:
            hold = 1 if jstays else 0
            if a_hi <= hold:
                return _NO
            if a_lo <= hold:
                win = False
        else:
            d_lo, d_hi = _count(state, hs[j], snext, -1, power)
            if a_hi <= d_lo + 1:
                return _NO
            if a_lo <= d_hi + 1:
                win = False
    k = mhead[dest[i]]
    while k >= 0:                         # the prevent strength of every other move there
        if k != i:
            pk = state[n + k]
            hk = h2h[k]
            beaten = _NO if hk < 0 else state[2 * n + hk]
            if pk != _NO and beaten != _YES:
                p_lo, p_hi = _count(state, ms[k], snext, -1, power)
                p_lo += 1
                p_hi += 1
                if pk == _UNKNOWN or beaten == _UNKNOWN:
                    p_lo = 0
                if a_hi <= p_lo:
                    return _NO
                if a_lo <= p_hi:
                    win = False
        k = mnext[k]
    return _YES if win else _UNKNOWN


def _decide(x, n, state, g, bt, held):
    """Decision ``x``'s verdict from the state of the others (_UNKNOWN when the bounds
    do not settle it)."""
    (otype, dest, sdest, prov, power, occ, h2h, mhead, mnext, hs, ms, snext) = g
    if x < n:                             # support of unit x: cut or given
        s = x
        dis = state[3 * n + s]
        if dis == _YES:
            return _NO
        against = sdest[s] if otype[s] == SUPPORT_MOVE else -1
        unknown = dis == _UNKNOWN
        m = mhead[prov[s]]
        while m >= 0:
            if power[m] != power[s] and prov[m] != against:
                pm = state[n + m]
                if pm == _YES:
                    return _NO
                if pm == _UNKNOWN:
                    unknown = True
            m = mnext[m]
        return _UNKNOWN if unknown else _YES
    if x < 2 * n:                         # convoy path of unit i
        i = x - n
        P = bt[H_P]
        for p in range(P):
            held[p] = 0
            held[P + p] = 0
        f = hs[i]                         # the convoying fleets (see `movement`)
        while f >= 0:
            d = state[3 * n + f]
            if d != _YES:
                held[prov[f]] = 1         # not dislodged, or may not be
            if d == _NO:
                held[P + prov[f]] = 1     # surely not dislodged
            f = snext[f]
        if not sea_route(bt, prov[i], dest[i], held):
            return _NO
        for p in range(P):
            held[p] = held[P + p]
        if sea_route(bt, prov[i], dest[i], held):
            return _YES
        return _UNKNOWN
    if x < 3 * n:                         # move of unit i
        i = x - 2 * n
        j = occ[i]
        if j < 0 or otype[j] != MOVE or h2h[i] == j:
            return _move_verdict(i, True, n, state, g)
        mj = state[2 * n + j]
        if mj == _YES:
            return _move_verdict(i, False, n, state, g)
        if mj == _NO:
            return _move_verdict(i, True, n, state, g)
        a = _move_verdict(i, True, n, state, g)
        b = _move_verdict(i, False, n, state, g)
        return a if a == b else _UNKNOWN
    u = x - 3 * n                         # unit u dislodged
    if otype[u] == MOVE:
        mu = state[2 * n + u]
        if mu == _YES:
            return _NO
    else:
        mu = _NO
    unknown = False
    m = mhead[prov[u]]
    while m >= 0:
        v = state[2 * n + m]
        if v == _YES:
            if mu == _NO:
                return _YES
            unknown = True
        elif v == _UNKNOWN:
            unknown = True
        m = mnext[m]
    return _UNKNOWN if unknown else _NO


def _propagate(pending, count, n, state, g, bt, held, pinned):
    """Settle every pending decision the others' bounds settle, sweep after sweep until a
    sweep settles none (``pinned``: a decision held at its guess); returns how many are
    left pending (compacted at the start of ``pending``)."""
    changed = True
    while changed and count > 0:
        changed = False
        left = 0
        for q in range(count):
            x = pending[q]
            if state[x] != _UNKNOWN:
                continue
            if x != pinned:
                v = _decide(x, n, state, g, bt, held)
                if v != _UNKNOWN:
                    state[x] = v
                    changed = True
                    continue
            pending[left] = x
            left += 1
        count = left
    return count


def _dependencies(x, n, state, g, out):
    """The pending decisions ``x`` depends on, written to ``out``; their number."""
    (otype, dest, sdest, prov, power, occ, h2h, mhead, mnext, hs, ms, snext) = g
    c = 0
    if x < n:
        s = x
        out[c] = 3 * n + s
        c += 1
        m = mhead[prov[s]]
        while m >= 0:
            out[c] = n + m
            c += 1
            m = mnext[m]
    elif x < 2 * n:
        f = hs[x - n]
        while f >= 0:
            out[c] = 3 * n + f
            c += 1
            f = snext[f]
    elif x < 3 * n:
        i = x - 2 * n
        out[c] = n + i
        c += 1
        j = occ[i]
        if j >= 0:
            if otype[j] == MOVE:
                out[c] = 2 * n + j
                c += 1
            else:
                s = hs[j]
                while s >= 0:
                    out[c] = s
                    c += 1
                    s = snext[s]
        for unit in (i, h2h[i]):
            if unit >= 0:
                s = ms[unit]
                while s >= 0:
                    out[c] = s
                    c += 1
                    s = snext[s]
        k = mhead[dest[i]]
        while k >= 0:
            if k != i:
                out[c] = n + k
                c += 1
                if h2h[k] >= 0:
                    out[c] = 2 * n + h2h[k]
                    c += 1
                s = ms[k]
                while s >= 0:
                    out[c] = s
                    c += 1
                    s = snext[s]
            k = mnext[k]
    else:
        u = x - 3 * n
        out[c] = 2 * n + u
        c += 1
        m = mhead[prov[u]]
        while m >= 0:
            out[c] = 2 * n + m
            c += 1
            m = mnext[m]
    # only the pending ones count
    k = 0
    for q in range(c):
        if state[out[q]] == _UNKNOWN:
            out[k] = out[q]
            k += 1
    return k


def _first_cycle(pending, count, n, state, g, member):
    """Mark in ``member`` the decisions of the first strongly connected set of pending
    decisions that depends on no other pending one (Tarjan's algorithm on an explicit
    stack: its first finished set is such a one); returns its size."""
    N = 4 * n
    index = _ints(N, -1)
    low = _ints(N, 0)
    onstack = _ints(N, 0)
    stack = _ints(N, 0)
    call = _ints(N, 0)
    edge = _ints(N, 0)
    W = 3 * n + 4                         # at most this many dependencies a decision
    deps = _ints(N * W, 0)
    ndeps = _ints(N, 0)
    scratch = _ints(4 * n + 8, 0)
    for q in range(count):
        x = pending[q]
        k = _dependencies(x, n, state, g, scratch)
        ndeps[x] = k
        for e in range(k):
            deps[x * W + e] = scratch[e]
    counter = 0
    sp = 0
    for q in range(count):
        root = pending[q]
        if index[root] >= 0:
            continue
        top = 0
        call[0] = root
        edge[0] = 0
        index[root] = counter
        low[root] = counter
        counter += 1
        stack[sp] = root
        sp += 1
        onstack[root] = 1
        while top >= 0:
            v = call[top]
            if edge[top] < ndeps[v]:
                w = deps[v * W + edge[top]]
                edge[top] += 1
                if index[w] < 0:
                    index[w] = counter
                    low[w] = counter
                    counter += 1
                    stack[sp] = w
                    sp += 1
                    onstack[w] = 1
                    top += 1
                    call[top] = w
                    edge[top] = 0
                elif onstack[w] != 0 and index[w] < low[v]:
                    low[v] = index[w]
                continue
            if low[v] == index[v]:
                size = 0
                while True:
                    sp -= 1
                    w = stack[sp]
                    onstack[w] = 0
                    member[w] = 1
                    size += 1
                    if w == v:
                        break
                return size
            top -= 1
            if top >= 0 and low[v] < low[call[top]]:
                low[call[top]] = low[v]
    return 0


def _guess(x, value, pending, count, n, state, g, bt, held):
    """The verdict of decision ``x`` when it is guessed ``value`` and everything else
    settled by that guess: _YES, _NO or _UNKNOWN."""
    st = _ints(4 * n, 0)
    for q in range(4 * n):
        st[q] = state[q]
    pend = _ints(count, 0)
    for q in range(count):
        pend[q] = pending[q]
    st[x] = value
    _propagate(pend, count, n, st, g, bt, held, x)
    st[x] = _UNKNOWN
    return _decide(x, n, st, g, bt, held)


def _stalled(pending, count, n, state, g, bt, held):
    """Settle one cycle of the pending decisions, where the fixpoint stalled: the first
    that depends on no other (`_first_cycle`).  One of its moves is guessed both ways
    (Kruijswijk's guess algorithm, "The Math of Adjudication"): one consistent answer is
    taken; two or none call for the backup rule (DATC 4.A.2, 4.A.3 and section 5.B): the
    convoys of a paradox fail (Szykman), else every move of the circular movement
    succeeds."""
    member = _ints(4 * n, 0)
    _first_cycle(pending, count, n, state, g, member)
    x = -1
    paths = False
    for q in range(4 * n):
        if member[q] != 0:
            if x < 0 and 2 * n <= q < 3 * n:
                x = q
            if n <= q < 2 * n:
                paths = True
    if x >= 0:
        if_no = _guess(x, _NO, pending, count, n, state, g, bt, held)
        if_yes = _guess(x, _YES, pending, count, n, state, g, bt, held)
        if if_no == if_yes and if_no != _UNKNOWN:
            state[x] = if_no              # the same verdict whatever the guess
            return
    for q in range(4 * n):
        if member[q] != 0:
            if paths:
                if n <= q < 2 * n:
                    state[q] = _NO        # Szykman: the convoys of the paradox fail
            elif 2 * n <= q < 3 * n:
                state[q] = _YES           # circular movement: every move succeeds


# -- the whole phase ---------------------------------------------------------------------------

def _match(bt, units, orders):
    """Step 1 of a movement phase: each order matched to its unit and read (see the
    module notes); by unit, its province, power, the order read (type, destination
    province and location, by convoy, other province, other destination), why it was
    refused, the order given; by order, how it was matched; the seas fleets hold."""
    P = bt[H_P]
    n = len(units) // UF
    m = len(orders) // OF
    terr = bt[O_TERR]
    lprov = bt[O_LPROV]
    prov = _ints(n, 0)
    power = _ints(n, 0)
    at = _ints(P, -1)
    held = _ints(2 * P, 0)               # the seas fleets hold (then scratch of the paths)
    for i in range(n):
        p = bt[lprov + units[i * UF + U_LOC]]
        prov[i] = p
        power[i] = units[i * UF + U_POWER]
        at[p] = i
        if units[i * UF + U_KIND] == 1 and bt[terr + p] == SEA:
            held[p] = 1
    otype = _ints(n, HOLD)
    dest = _ints(n, -1)
    dloc = _ints(n, -1)
    via = _ints(n, 0)
    sprov = _ints(n, -1)
    sdest = _ints(n, -1)
    why = _ints(n, W_NONE)
    given = _ints(n, -1)
    status = _ints(m, S_MATCHED)
    twice = _ints(n, 0)
    for r in range(m):
        o = r * OF
        t = orders[o + R_TYPE]
        if t == OTHER:
            status[r] = S_PHASE           # not an order to a unit
            continue
        loc = orders[o + R_LOC]
        i = at[bt[lprov + loc]] if loc >= 0 else -1
        if i < 0 or units[i * UF + U_KIND] != orders[o + R_KIND] or power[i] != orders[o + R_POWER]:
            if t > CONVOY:
                status[r] = S_PHASE
            elif i < 0:
                status[r] = S_NO_UNIT
            elif units[i * UF + U_KIND] != orders[o + R_KIND]:
                status[r] = S_WRONG_KIND
            else:
                status[r] = S_NOT_YOURS
            continue
        if given[i] >= 0:
            if _same_order(orders, r, given[i]):
                status[r] = S_REPEATED    # a repeated identical order is harmless
            else:
                status[r] = S_TWICE
                twice[i] = 1
            continue
        given[i] = r
        (otype[i], dest[i], dloc[i], via[i], sprov[i], sdest[i],
         why[i]) = _classify(bt, units, orders, r, i, at, held)
    for i in range(n):
        if twice[i] != 0:                 # two different orders: the unit holds (DATC 4.D.3)
            otype[i] = HOLD
            dest[i] = dloc[i] = sprov[i] = sdest[i] = -1
            via[i] = 0
            why[i] = W_TWICE
    return prov, power, at, held, otype, dest, dloc, via, sprov, sdest, why, given, status


def read(bt, units, orders):
    """Step 1 alone (`_match`): the answer's rows of `movement` with the order read and
    why it was refused (``A_TYPE`` to ``A_GIVEN``; the rest -1), one per unit, then one
    per order; so a model of the rules reads an order as the adjudicator does."""
    (prov, power, at, held, otype, dest, dloc, via, sprov, sdest, why, given,
     status) = _match(bt, units, orders)
    n = len(units) // UF
    m = len(orders) // OF
    out = _ints(n * AF + m, -1)
    for i in range(n):
        a = i * AF
        out[a + A_TYPE] = otype[i]
        out[a + A_DEST] = dest[i]
        out[a + A_DLOC] = dloc[i]
        out[a + A_VIA] = via[i]
        out[a + A_SPROV] = sprov[i]
        out[a + A_SDEST] = sdest[i]
        out[a + A_WHY] = why[i]
        out[a + A_GIVEN] = given[i]
    for r in range(m):
        out[n * AF + r] = status[r]
    return out


def movement(bt, units, orders):
    """One movement phase: the units (`UF` ints each) and the orders given (`OF` ints
    each) on the map of ``bt``; the answer (see the module notes): `AF` ints per unit,
    one per order, then the number of standoff provinces and those provinces."""
    P = bt[H_P]
    n = len(units) // UF
    m = len(orders) // OF
    # 1. match each order to its unit and read it
    (prov, power, at, held, otype, dest, dloc, via, sprov, sdest, why, given,
     status) = _match(bt, units, orders)
    # 2. convoy intent (DATC 3.0, 4.A.3): a fleet of the army's power ordered to convoy it
    for i in range(n):
        if otype[i] == CONVOY:
            a = at[sprov[i]]
            if otype[a] == MOVE and dest[a] == sdest[i] and power[a] == power[i]:
                via[a] = 1
    # the moves into each province, the unit each move meets, head to head or standing
    mhead = _ints(P, -1)
    mnext = _ints(n, -1)
    occ = _ints(n, -1)
    h2h = _ints(n, -1)
    for i in range(n - 1, -1, -1):
        if otype[i] == MOVE:
            mnext[i] = mhead[dest[i]]
            mhead[dest[i]] = i
    for i in range(n):
        if otype[i] == MOVE:
            j = at[dest[i]]
            occ[i] = j
            if j >= 0 and otype[j] == MOVE and dest[j] == prov[i] and via[i] == 0 and via[j] == 0:
                h2h[i] = j
    # the supports of each unit's hold (``hs``; for an army by convoy: the fleets convoying
    # it) and of its move (``ms``), linked by ``snext``; ``valid``: the support or convoy
    # is of an order given
    hs = _ints(n, -1)
    ms = _ints(n, -1)
    snext = _ints(n, -1)
    valid = _ints(n, 0)
    for i in range(n - 1, -1, -1):
        t = otype[i]
        if t != SUPPORT_HOLD and t != SUPPORT_MOVE and t != CONVOY:
            continue
        j = at[sprov[i]]
        if t == SUPPORT_HOLD:
            if otype[j] != MOVE:
                valid[i] = 1
                snext[i] = hs[j]
                hs[j] = i
        elif t == SUPPORT_MOVE:
            # a support that names a coast must name the coast moved to (DATC 4.B.4)
            if otype[j] == MOVE and dest[j] == sdest[i] and (dloc[i] < 0 or dloc[i] == dloc[j]):
                valid[i] = 1
                snext[i] = ms[j]
                ms[j] = i
        elif otype[j] == MOVE and via[j] != 0 and dest[j] == sdest[i]:
            valid[i] = 1
            snext[i] = hs[j]
            hs[j] = i
    # 3. resolve: the decisions, settled ones first (see `_decide` for the numbering)
    state = _ints(4 * n, _NO)
    pending = _ints(4 * n, 0)
    count = 0
    for i in range(n):
        if (otype[i] == SUPPORT_HOLD or otype[i] == SUPPORT_MOVE) and valid[i] != 0:
            state[i] = _UNKNOWN
            pending[count] = i
            count += 1
    for i in range(n):
        if otype[i] == MOVE:
            state[n + i] = _UNKNOWN if via[i] != 0 else _YES
            if via[i] != 0:
                pending[count] = n + i
                count += 1
    for i in range(n):
        if otype[i] == MOVE:
            if occ[i] < 0 and via[i] == 0 and mnext[i] < 0 and mhead[dest[i]] == i:
                state[2 * n + i] = _YES   # alone into an empty province
            else:
                state[2 * n + i] = _UNKNOWN
                pending[count] = 2 * n + i
                count += 1
    for u in range(n):
        if mhead[prov[u]] >= 0:
            state[3 * n + u] = _UNKNOWN
            pending[count] = 3 * n + u
            count += 1
    g = (otype, dest, sdest, prov, power, occ, h2h, mhead, mnext, hs, ms, snext)
    count = _propagate(pending, count, n, state, g, bt, held, -1)
    while count > 0:
        _stalled(pending, count, n, state, g, bt, held)
        count = _propagate(pending, count, n, state, g, bt, held, -1)
    # 4. execute: who moved, who was dislodged and by whom, the standoffs
    out = _ints(n * AF + m + 1 + P, -1)
    moved = _ints(n, 0)
    for i in range(n):
        if otype[i] == MOVE and state[2 * n + i] == _YES:
            moved[i] = 1
    for i in range(n):
        a = i * AF
        out[a + A_TYPE] = otype[i]
        out[a + A_DEST] = dest[i]
        out[a + A_DLOC] = dloc[i]
        out[a + A_VIA] = via[i]
        out[a + A_SPROV] = sprov[i]
        out[a + A_SDEST] = sdest[i]
        out[a + A_WHY] = why[i]
        out[a + A_GIVEN] = given[i]
        if moved[i] != 0:
            j = at[dest[i]]
            if j >= 0 and moved[j] == 0:
                out[j * AF + A_BY] = i
        t = otype[i]
        if t == HOLD:
            x = X_HELD
        elif t == MOVE:
            x = X_MOVED if moved[i] != 0 else X_NO_CONVOY if state[n + i] == _NO else X_BOUNCED
        elif valid[i] == 0:
            x = X_VOID
        elif t == CONVOY:
            j = at[sprov[i]]
            x = X_DISRUPTED if state[3 * n + i] == _YES or state[n + j] != _YES else X_CONVOYED
        else:
            x = X_SUPPORTED if state[i] == _YES else X_CUT
        out[a + A_RESULT] = x
    for r in range(m):
        out[n * AF + r] = status[r]
    # the standoffs (DATC 4.A.5: no retreat to a province left empty by a bounce), which
    # matter only when a unit is dislodged
    c = n * AF + m
    out[c] = 0
    dislodged = False
    for i in range(n):
        if out[i * AF + A_BY] >= 0:
            dislodged = True
    if dislodged:
        occupied = _ints(P, 0)
        for i in range(n):
            if moved[i] != 0:
                occupied[dest[i]] = 1
            elif out[i * AF + A_BY] < 0:
                occupied[prov[i]] = 1
        for d in range(P):
            if occupied[d] != 0:
                continue
            k = mhead[d]
            while k >= 0:
                h = h2h[k]
                if moved[k] == 0 and state[n + k] == _YES and not (h >= 0 and moved[h] != 0):
                    out[c + 1 + out[c]] = d
                    out[c] += 1
                    break
                k = mnext[k]
    return out


# -- compiled where numba is installed ---------------------------------------------------------

#: the functions numba compiles, in this module (each calls the others by their names,
#: which `load` replaces with their compiled selves)
_COMPILED = ("sea_route", "on_route", "_classify", "_same_order", "_match", "read", "_count",
             "_move_verdict", "_decide", "_propagate", "_dependencies", "_first_cycle", "_guess",
             "_stalled", "movement")
#: whether `load` has run: empty not yet, else whether the functions are compiled
_state: list = []
#: the functions as written (plain Python), kept whatever `load` does to the module's names
_PLAIN: dict = {name: globals()[name] for name in _COMPILED + ("_ints",)}
#: why the engine runs as plain Python ("" when compiled, or not loaded yet)
why_plain = ""
#: told one line when `load` must compile (`announce`): a command sets it, the library never prints
_announce: list = []


def announce(note: Callable[[str], None] | None) -> None:
    """Where `load` tells that it compiles, when its caller gives no ``note`` (a command
    sets it once, so that the first use of the engine anywhere in it is announced)."""
    _announce[:] = [note] if note is not None else []


def numba_wanted() -> bool:
    """Whether numba is installed and not turned off (``DIPSOLVE_NO_NUMBA``), without
    importing it (the import takes most of a second)."""
    if os.environ.get("DIPSOLVE_NO_NUMBA"):
        return False
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):      # a broken or blocked installation
        return False


def compiled() -> bool:
    """Whether the engine runs compiled (after `load`)."""
    return bool(_state) and _state[0]


def loaded() -> bool:
    """Whether `load` has run in this process."""
    return bool(_state)


def load(note: Callable[[str], None] | None = None) -> float:
    """Make the engine ready in this process: where numba is installed, compile its
    functions (or load them from numba's cache on disk, under ``NUMBA_CACHE_DIR`` or
    beside this module, or the user's cache); elsewhere, or if numba cannot compile or
    cache, the same functions stay plain Python (`why_plain` says why).  ``note`` is told
    one line first when the functions are not in the cache, so that they compile.
    Returns the seconds it took (0 once loaded).  Every command and every solver calls it
    before its time limit starts."""
    global why_plain
    if _state:
        return 0.0
    if note is None and _announce:
        note = _announce[0]
    t0 = time.perf_counter()
    if not numba_wanted():
        why_plain = ("numba is turned off (DIPSOLVE_NO_NUMBA)" if os.environ.get("DIPSOLVE_NO_NUMBA")
                     else "numba is not installed")
        _state.append(False)
        return time.perf_counter() - t0
    names = globals()
    plain = _PLAIN
    try:
        import numpy as np
        from numba import njit

        if note is not None and not _cached():
            note("compiling the rules engine once with numba (about 15 s; later runs load it "
                 "from numba's cache)")

        def _ints_compiled(n, value):
            return np.full(n, value, np.int64)

        names["_ints"] = njit(cache=True, inline="always")(_ints_compiled)
        for name in _COMPILED:
            names[name] = njit(cache=True)(plain[name])
        _warm_up(np)
    except Exception as e:               # numba present but unusable: the plain functions
        names.update(plain)
        why_plain = f"numba could not compile the engine ({type(e).__name__}: {e})"
        _state.append(False)
        return time.perf_counter() - t0
    _state.append(True)
    return time.perf_counter() - t0


def _warm_up(np: Any) -> None:
    """One call of the compiled engine on a map of one province, so that every function
    is compiled (or loaded) now."""
    bt = np.zeros(HEADER + 16, np.int64)
    bt[H_P] = 1
    bt[H_L] = 1
    for k, field in enumerate(range(O_LPROV, O_FSTAND + 1)):
        bt[field] = HEADER + k
    bt[bt[O_FILL]] = -1
    units = np.array([0, 0, 0], np.int64)
    orders = np.array([0, MOVE, 0, 0, 0, -1, -1, F_VIA, 0], np.int64)
    movement(bt, units, orders)
    read(bt, units, orders)


def _cached() -> bool:
    """Whether numba's cache holds the engine's entry point for this Python (where numba
    looks first: its first cache locator that takes this module)."""
    try:
        from numba.core.caching import CacheImpl

        fn = movement
        name = (f"kernel.{fn.__name__}-{fn.__code__.co_firstlineno}"
                f".py{sys.version_info[0]}{sys.version_info[1]}.nbi")
        for cls in CacheImpl._locator_classes:
            locator = cls.from_function(fn, fn.__code__.co_filename)
            if locator is not None:
                return os.path.exists(os.path.join(locator.get_cache_path(), name))
    except (ImportError, AttributeError, OSError):     # numba's internals moved
        pass
    return False
