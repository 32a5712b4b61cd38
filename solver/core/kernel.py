"""The rules of a movement phase over integer arrays: the one rules engine of dipsolve.

Everything here works on flat integer arrays, never on names: a map's tables
(`dipsolve.core.board.Board` builds them, ``bt`` below), the units of a position and the
orders given, each a row of ints (`dipsolve.core.board` converts them, the one boundary
between the named values of the API and these arrays).  The same functions run two ways:
compiled by numba where it is installed (`load` compiles them once and caches them on
disk), as plain Python elsewhere, on Python lists; no switch picks another engine, only
the speed differs.  So the code keeps to what both understand: integers, flat arrays
indexed by integers (``a[i * stride + field]``), arrays made by `ints`, no recursion,
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

The layout of the arrays and the convoy-route search are `dipsolve.core.tables`'; step 3 is
`dipsolve.core.resolution`'s; matching, the phase and the loader are here.

The answer (`movement`'s ``out``) says, for every unit, the order it was matched to and
how it read it, why it was refused, what became of it; for every order given, whether it
was matched; and the standoff provinces.  `dipsolve.core.board` turns it into an
`Outcome`.

Compiled, only `movement` is called from Python; the other functions are compiled
without the wrapper that would let Python call them (a fifth of the cold compile), so
Python code that asks one of them a small question takes it as written, `plain`.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from typing import Any, Callable

from . import resolution, tables
from .errors import clean_message
from .resolution import settle
from .tables import (A_BY, A_DEST, A_DLOC, A_GIVEN, A_RESULT, A_SDEST, A_SPROV, A_TYPE, A_VIA,
                     A_WHY, AF, COAST, CONVOY, F_BAD_ROUTE, F_VIA, H_L, H_P, HEADER, HOLD, LAND, Ints,
                     MOVE, O_AMOVE, O_AREACH, O_FILL, O_FMOVE, O_FREACH, O_LORDER, O_LPROV, O_NCOAST,
                     NO, O_TERR, OF, OTHER, R_FLAGS, R_KIND, R_LOC, R_OKIND, R_OLOC, R_POWER, R_TARGET,
                     R_TYPE, READ_ONLY, Rows, RULE_LAND_FALLBACK, S_MATCHED, S_NO_UNIT, S_NOT_YOURS, S_PHASE, S_REPEATED, S_TWICE,
                     S_WRONG_KIND, SEA, SUPPORT_HOLD, SUPPORT_MOVE, U_KIND, U_LOC, U_POWER, U_RANK, UF,
                     W_ARMY_ADJACENT, W_ARMY_SEA, W_COAST_NEEDED, W_CONVOY_ARMY,
                     W_CONVOY_FLEET, W_CONVOY_IMPOSSIBLE, W_CONVOY_LOC, W_CONVOY_OFF_ROUTE,
                     W_DEST_LOC, W_FLEET_ADJACENT, W_FLEET_ADJACENT_LOC, W_FLEET_LAND,
                     W_MOVE_OWN_PROVINCE, W_NO_ROUTE, W_NONE, W_NOTHING_TO_CONVOY,
                     W_NOTHING_TO_SUPPORT, W_PHASE, W_ROUTE, W_SELF_SUPPORT,
                     W_SUPPORT_HOLD_REACH, W_SUPPORT_MOVE_REACH, W_SUPPORT_OWN_PROVINCE,
                     W_SUPPORTED_CANNOT, W_SUPPORTED_LOC, W_TWICE, W_WRONG_COAST, X_BOUNCED,
                     X_CONVOYED, X_CUT, X_DISRUPTED, X_HELD, X_MOVED, X_NO_CONVOY,
                     X_SUPPORTED, X_VOID, YES, ints, on_route, pack_order, pack_unit, rows, sea_route,
                     unpack, ORDER_BITS, UNIT_BITS)
from .tables import *  # noqa: F401,F403  (the layout's names, for the engine's callers)

# -- 1. the matching: one order's legality ----------------------------------------------------

#: `_match`'s rows by unit (each ``n`` ints): province, power, the order read (type,
#: destination province and location, by convoy, other province, other destination), why
#: it was refused, the order given, ordered twice
(M_PROV, M_POWER, M_TYPE, M_DEST, M_DLOC, M_VIA, M_SPROV, M_SDEST, M_WHY, M_GIVEN,
 M_TWICE) = range(11)
M_ROWS = 11


def _classify(bt: Ints, units: Ints, orders: Ints, r: int, i: int, at: Ints, held: Ints,
              read: Rows):
    """What order ``r``, matched to unit ``i``, asks for, written in unit ``i``'s place of
    ``read``'s rows (`_match`'s: type, destination province and location, by convoy, other
    province, other destination), which hold a hold; returns why it is refused (`W_*`,
    `W_NONE`: it is not): a refused order is a hold (DATC 4.E.1)."""
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
        return W_NONE
    if t == SUPPORT_HOLD or t == SUPPORT_MOVE:
        if oprov < 0:
            return W_SUPPORTED_LOC
        if oprov == prov:
            return W_SELF_SUPPORT
        j = at[oprov]
        if t == SUPPORT_HOLD:
            if bt[reach + loc * P + oprov] == 0:
                return W_SUPPORT_HOLD_REACH
            if j < 0:
                return W_NOTHING_TO_SUPPORT
            read[M_TYPE][i] = SUPPORT_HOLD
            read[M_SPROV][i] = oprov
            return W_NONE
        if tprov < 0:
            return W_DEST_LOC
        if tprov == prov:
            return W_SUPPORT_OWN_PROVINCE
        if bt[reach + loc * P + tprov] == 0:
            return W_SUPPORT_MOVE_REACH
        if j < 0:
            return W_NOTHING_TO_SUPPORT
        # the supported move must be one that could be ordered (DATC 6.D.31 and 4.E.1)
        jkind = units[j * UF + U_KIND]
        jloc = units[j * UF + U_LOC]
        jreach = bt[O_AREACH] if jkind == 0 else bt[O_FREACH]
        if bt[jreach + jloc * P + tprov] == 0 and not (
                jkind == 0 and bt[terr + oprov] != LAND and bt[terr + tprov] == COAST
                and sea_route(bt, oprov, tprov, held)):
            return W_SUPPORTED_CANNOT
        coast = target if target != tprov and jkind == 1 else -1
        read[M_TYPE][i] = SUPPORT_MOVE
        read[M_DLOC][i] = coast
        read[M_SPROV][i] = oprov
        read[M_SDEST][i] = tprov
        return W_NONE
    if t == MOVE:
        if tprov < 0:
            return W_DEST_LOC
        if tprov == prov:
            return W_MOVE_OWN_PROVINCE
        if orders[o + R_FLAGS] & F_BAD_ROUTE:
            return W_ROUTE
        via = orders[o + R_FLAGS] & F_VIA
        if kind == 0:
            if bt[terr + tprov] == SEA:
                return W_ARMY_SEA
            adjacent = bt[reach + loc * P + tprov] != 0
            if via != 0 or not adjacent:
                if not (bt[terr + prov] != LAND and bt[terr + tprov] != LAND
                        and sea_route(bt, prov, tprov, held)):
                    if not adjacent:
                        return W_ARMY_ADJACENT
                    return W_NO_ROUTE
                read[M_VIA][i] = 1
            dloc = tprov
        else:                             # a fleet
            if bt[terr + tprov] == LAND:
                return W_FLEET_LAND
            if target == tprov and bt[bt[O_NCOAST] + tprov] != 0:
                dloc = bt[bt[O_FILL] + loc * P + tprov]
                if dloc < 0:
                    if dloc == -1:
                        return W_FLEET_ADJACENT
                    return W_COAST_NEEDED
            else:
                if bt[bt[O_FMOVE] + loc * L + target] == 0:
                    if bt[reach + loc * P + tprov] != 0:
                        return W_WRONG_COAST
                    return W_FLEET_ADJACENT_LOC
                dloc = target
        read[M_TYPE][i] = MOVE
        read[M_DEST][i] = tprov
        read[M_DLOC][i] = dloc
        return W_NONE
    if t == CONVOY:
        if kind != 1 or bt[terr + prov] != SEA:
            return W_CONVOY_FLEET
        if oprov < 0 or tprov < 0:
            return W_CONVOY_LOC
        a = at[oprov]
        if a < 0:
            return W_NOTHING_TO_CONVOY
        if units[a * UF + U_KIND] != 0 or orders[o + R_OKIND] != 0:
            return W_CONVOY_ARMY
        if bt[terr + oprov] == LAND or bt[terr + tprov] != COAST or oprov == tprov:
            return W_CONVOY_IMPOSSIBLE
        if not on_route(bt, oprov, tprov, prov, held):
            return W_CONVOY_OFF_ROUTE
        read[M_TYPE][i] = CONVOY
        read[M_SPROV][i] = oprov
        read[M_SDEST][i] = tprov
        return W_NONE
    return W_PHASE


def _same_order(orders: Ints, r: int, g: int):
    """Whether orders ``r`` and ``g`` are the same order (every field but the power)."""
    for f in range(R_TYPE, OF):
        if orders[r * OF + f] != orders[g * OF + f]:
            return False
    return True


# -- the whole phase ---------------------------------------------------------------------------

def _match(bt: Ints, units: Ints, orders: Ints):
    """Step 1 of a movement phase: each order matched to its unit and read (see the
    module notes); by unit, its province, power, the order read (type, destination
    province and location, by convoy, other province, other destination), why it was
    refused, the order given; by order, how it was matched; the seas fleets hold."""
    P = bt[H_P]
    n = len(units) // UF
    m = len(orders) // OF
    terr = bt[O_TERR]
    lprov = bt[O_LPROV]
    # the rows by unit, made in one go (an allocation costs more than filling a row):
    # province, power, the order read, why refused, the order given, ordered twice
    ru = rows(M_ROWS, n, 0)
    prov, power, otype, dest, dloc, via = (ru[M_PROV], ru[M_POWER], ru[M_TYPE], ru[M_DEST],
                                           ru[M_DLOC], ru[M_VIA])
    sprov, sdest, why, given, twice = ru[M_SPROV], ru[M_SDEST], ru[M_WHY], ru[M_GIVEN], ru[M_TWICE]
    for i in range(n):
        dest[i] = dloc[i] = sprov[i] = sdest[i] = given[i] = -1
        otype[i] = HOLD
        why[i] = W_NONE
    # by province: the unit there; the seas fleets hold (then, twice as long, scratch of
    # the convoy paths)
    at = ints(P, -1)
    held = ints(2 * P, 0)
    for i in range(n):
        p = bt[lprov + units[i * UF + U_LOC]]
        prov[i] = p
        power[i] = units[i * UF + U_POWER]
        at[p] = i
        if units[i * UF + U_KIND] == 1 and bt[terr + p] == SEA:
            held[p] = 1
    status = ints(m, S_MATCHED)
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
        why[i] = _classify(bt, units, orders, r, i, at, held, ru)
    for i in range(n):
        if twice[i] != 0:                 # two different orders: the unit holds (DATC 4.D.3)
            otype[i] = HOLD
            dest[i] = dloc[i] = sprov[i] = sdest[i] = -1
            via[i] = 0
            why[i] = W_TWICE
    return prov, power, at, held, otype, dest, dloc, via, sprov, sdest, why, given, status


def _readings(out: Ints, at: int, otype: Ints, dest: Ints, dloc: Ints, via: Ints, sprov: Ints,
              sdest: Ints, why: Ints, given: Ints, status: Ints):
    """Write each unit's order as read (``A_TYPE`` to ``A_GIVEN``, `AF` ints a unit) and
    each order's matching into ``out``, from ``at`` on."""
    n = len(otype)
    for i in range(n):
        a = at + i * AF
        out[a + A_TYPE] = otype[i]
        out[a + A_DEST] = dest[i]
        out[a + A_DLOC] = dloc[i]
        out[a + A_VIA] = via[i]
        out[a + A_SPROV] = sprov[i]
        out[a + A_SDEST] = sdest[i]
        out[a + A_WHY] = why[i]
        out[a + A_GIVEN] = given[i]
    for r in range(len(status)):
        out[at + n * AF + r] = status[r]


def retreats(bt: Ints, kind: int, loc: int, origin: int, blocked: Ints, out: Ints, at: int):
    """Where a dislodged unit (``kind`` 0 army, 1 fleet, at ``loc``) may retreat (DATC
    4.A.5): a location its kind moves to, whose province is not ``blocked`` (occupied, or
    left empty by a standoff) nor ``origin``, the province its attacker came from (-1:
    it came by convoy).  Written to ``out`` from ``at``, by location name; their number."""
    L = bt[H_L]
    moves = bt[O_AMOVE] if kind == 0 else bt[O_FMOVE]
    lprov = bt[O_LPROV]
    lorder = bt[O_LORDER]
    count = 0
    for d in range(L):
        if bt[moves + loc * L + d] == 0:
            continue
        p = bt[lprov + d]
        if p == origin or blocked[p] != 0:
            continue
        q = at + count                    # insertion by the location's name
        while q > at and bt[lorder + out[q - 1]] > bt[lorder + d]:
            out[q] = out[q - 1]
            q -= 1
        out[q] = d
        count += 1
    return count


def movement(bt: Ints, packed_units: Ints, packed_orders: Ints, rules: int):
    """One movement phase: the units and the orders given, each packed into one int
    (`dipsolve.core.tables.pack_unit`, ``pack_order``), on the map of ``bt``, under the
    engine's options ``rules`` (``RULE_*``, 0: the DATC 3.0 preferences; with `READ_ONLY`,
    only step 1: each order matched and read, nothing resolved).  The answer
    (see the module notes) is a summary, what the next position needs: its length; the
    number of units left on the board and, for each in canonical order,
    ``(power * 2 + kind) * L + location`` (first: what a search reads most); the number of
    units that moved and the index of each; the number dislodged and, for each, its
    index, the index of the unit that dislodged it, that one's province (-1: it came by
    convoy), the number of places it may retreat to and those (`retreats`); the number of
    standoff provinces and those.  Then the details, what
    the per-order results need (`AF` ints per unit, one per order, as with `READ_ONLY`)."""
    units = unpack(packed_units, UF, UNIT_BITS)
    orders = unpack(packed_orders, OF, ORDER_BITS)
    P = bt[H_P]
    n = len(units) // UF
    m = len(orders) // OF
    # 1. match each order to its unit and read it
    (prov, power, at, held, otype, dest, dloc, via, sprov, sdest, why, given,
     status) = _match(bt, units, orders)
    if (rules & READ_ONLY) != 0:
        # step 1 alone: the details' rows with the order read and why it was refused
        # (``A_TYPE`` to ``A_GIVEN``, the rest -1), after a summary of one int
        out = ints(1 + n * AF + m, -1)
        out[0] = 1
        _readings(out, 1, otype, dest, dloc, via, sprov, sdest, why, given, status)
        return out
    # the rows by unit of steps 2 to 4, made in one go: the armies sent over land (see
    # below), who moved, who dislodged it, its retreats' count, the units left and their keys
    ru = rows(6, n, 0)
    land, moved, by, nopts, left, keys = ru[0], ru[1], ru[2], ru[3], ru[4], ru[5]
    # 2. and 3. convoy intent, every decision resolved
    state, mhead, mnext, h2h, valid = settle(bt, prov, power, at, held, otype, dest, dloc, via,
                                             sprov, sdest, rules, land)
    if (rules & RULE_LAND_FALLBACK) != 0:
        # an army whose convoy failed goes over land where it can (DATC 2.x, 6.G.8): the
        # phase resolved again with those armies moving over land
        again = False
        reach = bt[O_AREACH]
        for i in range(n):
            if (otype[i] == MOVE and via[i] != 0 and state[n + i] == NO and units[i * UF + U_KIND] == 0
                    and bt[reach + units[i * UF + U_LOC] * P + dest[i]] != 0):
                via[i] = 0
                land[i] = 1
                again = True
        if again:
            state, mhead, mnext, h2h, valid = settle(bt, prov, power, at, held, otype, dest, dloc,
                                                     via, sprov, sdest, rules, land)
    # 4. execute: who moved, who was dislodged and by whom, the standoffs
    nm = 0
    for i in range(n):
        by[i] = -1
        if otype[i] == MOVE and state[2 * n + i] == YES:
            moved[i] = 1
            nm += 1
    nd = 0
    for i in range(n):
        if moved[i] != 0:
            j = at[dest[i]]
            if j >= 0 and moved[j] == 0:
                by[j] = i
                nd += 1
    # the standoffs (DATC 4.A.5: no retreat to a province left empty by a bounce), which
    # matter only when a unit is dislodged, and where each dislodged unit may retreat
    L = bt[H_L]
    rp = rows(2, P, 0)
    stand, occupied = rp[0], rp[1]
    ns = 0
    opts = ints(nd * L + 1, 0)
    no = 0
    if nd > 0:
        for i in range(n):
            if moved[i] != 0:
                occupied[dest[i]] = 1
            elif by[i] < 0:
                occupied[prov[i]] = 1
        for d in range(P):
            if occupied[d] != 0:
                continue
            k = mhead[d]
            while k >= 0:
                h = h2h[k]
                if moved[k] == 0 and state[n + k] == YES and not (h >= 0 and moved[h] != 0):
                    stand[ns] = d
                    ns += 1
                    occupied[d] = 1           # no retreat there either
                    break
                k = mnext[k]
        for i in range(n):
            if by[i] >= 0:
                j = by[i]
                nopts[i] = retreats(bt, units[i * UF + U_KIND], units[i * UF + U_LOC],
                                    -1 if via[j] != 0 else prov[j], occupied, opts, no)
                no += nopts[i]
    # the units left on the board in canonical order (power's name, kind, location's name):
    # the board's order is canonical and only the movers change places, so an insertion
    # sort moves few
    lorder = bt[O_LORDER]
    nl = 0
    for i in range(n):
        if by[i] >= 0:
            continue
        loc = dloc[i] if moved[i] != 0 else units[i * UF + U_LOC]
        key = units[i * UF + U_RANK] * L + bt[lorder + loc]
        keys[i] = key
        q = nl
        while q > 0 and keys[left[q - 1]] > key:
            left[q] = left[q - 1]
            q -= 1
        left[q] = i
        nl += 1
    # the summary: what the next position needs
    head = 5 + nm + 4 * nd + no + ns + nl
    out = ints(head + n * AF + m, -1)
    out[0] = head
    out[1] = nl
    c = 2
    for q in range(nl):
        i = left[q]
        out[c + q] = ((units[i * UF + U_POWER] * 2 + units[i * UF + U_KIND]) * L
                      + (dloc[i] if moved[i] != 0 else units[i * UF + U_LOC]))
    c += nl
    out[c] = nm
    c += 1
    for i in range(n):
        if moved[i] != 0:
            out[c] = i
            c += 1
    out[c] = nd
    c += 1
    no = 0
    for i in range(n):
        if by[i] >= 0:
            out[c] = i
            out[c + 1] = by[i]
            out[c + 2] = -1 if via[by[i]] != 0 else prov[by[i]]    # the attacker's origin
            out[c + 3] = nopts[i]
            c += 4
            for q in range(nopts[i]):
                out[c + q] = opts[no + q]
            c += nopts[i]
            no += nopts[i]
    out[c] = ns
    c += 1
    for q in range(ns):
        out[c + q] = stand[q]
    # the details: what the per-order results need
    _readings(out, head, otype, dest, dloc, via, sprov, sdest, why, given, status)
    for i in range(n):
        a = head + i * AF
        out[a + A_BY] = by[i]
        t = otype[i]
        if t == HOLD:
            x = X_HELD
        elif t == MOVE:
            x = X_MOVED if moved[i] != 0 else X_NO_CONVOY if state[n + i] == NO else X_BOUNCED
        elif valid[i] == 0:
            x = X_VOID
        elif t == CONVOY:
            j = at[sprov[i]]
            x = X_DISRUPTED if state[3 * n + i] == YES or state[n + j] != YES else X_CONVOYED
        else:
            x = X_SUPPORTED if state[i] == YES else X_CUT
        out[a + A_RESULT] = x
    return out


# -- compiled where numba is installed ---------------------------------------------------------

#: the engine's modules and the functions numba compiles in each (each calls the others by
#: their names, which `load` replaces, in every module, with their compiled selves)
_MODULES = {"tables": (tables, ("sea_route", "on_route", "unpack")),
            "resolution": (resolution, ("_count", "_move_verdict", "_decide", "_propagate",
                                        "_dependencies", "_first_cycle", "_guess", "_stalled",
                                        "settle")),
            "kernel": (sys.modules[__name__], ("_classify", "_same_order", "_match", "_readings",
                                               "retreats", "movement"))}
#: the functions called from Python (the others are called by these only)
_ENTRIES = ("movement",)
#: whether `load` has run: empty not yet, else whether the functions are compiled
_state: list = []
#: the functions as written (plain Python), by name, kept whatever `load` does
_PLAIN: dict = {name: getattr(module, name) for module, names in _MODULES.values()
                for name in names + ("ints", "rows")}
#: the functions as written, each calling the others as written (`plain`), made when first asked
_PLAIN_COPIES: dict = {}
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


def plain(name: str) -> Callable:
    """An engine function as written, plain Python on lists, whether or not `load`
    compiled it (for a caller that asks one small question with Python lists): a copy
    whose calls go to the other functions as written too (`load` binds the modules'
    names to the compiled ones, which Python may not call)."""
    if not _PLAIN_COPIES:
        import types
        spaces = {module: dict(vars(module)) for module, _ in _MODULES.values()}
        home = {name: module for module, names in _MODULES.values() for name in names}
        home.update(ints=tables, rows=tables)
        copies = {n: types.FunctionType(fn.__code__, spaces[home[n]], n, fn.__defaults__, fn.__closure__)
                  for n, fn in _PLAIN.items()}
        for space in spaces.values():
            space.update({n: f for n, f in copies.items() if n in space})
        _PLAIN_COPIES.update(copies)
    return _PLAIN_COPIES[name]


def compiled() -> bool:
    """Whether the engine runs compiled (after `load`)."""
    return bool(_state) and _state[0]


def loaded() -> bool:
    """Whether `load` has run in this process."""
    return bool(_state)


def load(note: Callable[[str], None] | None = None) -> float:
    """Make the engine ready in this process: where numba is installed, compile its
    functions (or load them from numba's cache on disk, under ``NUMBA_CACHE_DIR`` or
    beside this module, or the user's cache; where none of them can be written, compiled
    for this process alone); elsewhere, or if numba cannot compile, the same functions stay
    plain Python (`why_plain` says why).  ``note`` is told one line first when the
    functions are not in the cache, so that they compile (or that no cache can keep
    them), or after numba failed, that they run as plain Python.
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
        _bind({**_PLAIN, "unpack": tables.unpack_lists})
        _state.append(False)
        return time.perf_counter() - t0
    try:
        if "numba" not in sys.modules:
            # LLVM's level 1: the engine compiles in 3/4 of the time of level 3 (numba's
            # default) and runs as fast (docs/history/2026-11-28-issue-48.md); a process
            # whose numba was loaded already, or that sets NUMBA_OPT, keeps its own
            os.environ.setdefault("NUMBA_OPT", "1")
        import numpy as np
        from numba import njit

        def ints_compiled(n: int, value: int):
            return np.full(n, value, np.int64)

        def rows_compiled(count: int, n: int, value: int):
            return np.full((count, n), value, np.int64)

        # only the entry points are called from Python: the others need no wrapper for it,
        # and no cache (the entry point's compiled code holds theirs; a cold load compiles
        # them all)
        inner: dict[str, Any] = dict(no_cpython_wrapper=True, no_cfunc_wrapper=True)
        made = {"ints": njit(**inner)(ints_compiled), "rows": njit(**inner)(rows_compiled)}
        uncached = False
        for name in _PLAIN:
            if name in _ENTRIES:
                try:
                    made[name] = njit(cache=True)(_PLAIN[name])
                except RuntimeError:    # numba finds no writable cache directory ("no locator
                    uncached = True     # available"): compiled all the same, for this run only
                    made[name] = njit(_PLAIN[name])
            elif name not in made:
                made[name] = njit(**inner)(_PLAIN[name])
        if not uncached and not _stamp(made):
            # numba's cache would know the entry point's own file only: no cache at all
            # rather than an engine older than its files
            for name in _ENTRIES:
                made[name] = njit(_PLAIN[name])
        cached = not uncached and _cached(made["movement"])
        if note is not None and uncached:
            note("numba finds no writable cache directory (set NUMBA_CACHE_DIR to one): the rules "
                 "engine compiles for this run only (about 15-20 s)")
        elif note is not None and not cached:
            note("compiling the rules engine once with numba (about 15-20 s; later runs load it "
                 "from numba's cache)")
        _bind(made)
        _compile(made, cached)
        _warm_up(np)
    except Exception as e:               # numba present but unusable: the plain functions
        _bind({**_PLAIN, "unpack": tables.unpack_lists})
        why_plain = f"numba could not compile the engine ({type(e).__name__}: {e})"
        _state.append(False)
        if note is not None:
            note(f"{clean_message(why_plain, 300)}: it runs as plain Python (slower)")
        return time.perf_counter() - t0
    _state.append(True)
    return time.perf_counter() - t0


def _compile(made: dict, cached: bool) -> None:
    """Each function for the types its annotations give (`dipsolve.core.tables.Ints`: a
    flat int64 array; ``Rows``: a 2-d one; ``int``), callees first; then no other types.
    So each is compiled once: a caller that passes a constant (``-1``)
    finds the function compiled for int64, where numba would compile it again for that
    constant.  The entry point stays open to other argument types.  A function with no
    annotations (`dipsolve.core.tables.unpack`, for its two layouts) compiles as its
    callers call it.  When numba's cache holds the entry point (``cached``) it alone is
    loaded: its code holds its callees' (one cache load where there were nineteen; the
    others are not cached, which took 2-3 s of the cold compile)."""
    from numba import types

    kinds = {"Ints": types.int64[::1], "Rows": types.int64[:, ::1], "int": types.int64}
    for name in (_ENTRIES if cached else
                 ("ints", "rows", *(n for _, names in _MODULES.values() for n in names))):
        fn = made[name]
        hints = fn.py_func.__annotations__
        params = fn.py_func.__code__.co_varnames[:fn.py_func.__code__.co_argcount]
        if not hints:
            continue
        fn.compile(tuple(kinds[hints[p]] for p in params))
        if name not in _ENTRIES:          # an entry point given other arrays (read-only ones,
            fn.disable_compile()          # say) compiles for them rather than fail


def _bind(functions: dict) -> None:
    """Every name of an engine function, in every engine module, bound to ``functions``'s."""
    for module, _ in _MODULES.values():
        for name, fn in functions.items():
            if name in vars(module):
                setattr(module, name, fn)


def _warm_up(np: Any) -> None:
    """One call of the compiled engine on a map of one province, so that every function
    is compiled (or loaded) now, for the very types `dipsolve.core.board` gives it (the
    units and orders packed, made by ``np.fromiter``)."""
    bt = np.zeros(HEADER + 16, np.int64)
    bt[H_P] = 1
    bt[H_L] = 1
    for k, field in enumerate(range(O_LPROV, O_LORDER + 1)):
        bt[field] = HEADER + k
    bt[bt[O_FILL]] = -1
    units = np.fromiter([pack_unit([0, 0, 0, 0])], np.int64, 1)
    orders = np.fromiter([pack_order([0, MOVE, 0, 0, 0, -1, -1, F_VIA, 0])], np.int64, 1)
    movement(bt, units, orders, 0)


def _stamp(made: dict) -> bool:
    """Stamp the entry point's cache with all the engine's files (their times and sizes),
    where numba stamps a function with its own file only: a `movement` cached before
    resolution.py changed would keep the old resolution (its code holds its callees').
    False if numba's internals moved (`tests/test_kernel_loading.py` says so)."""
    stamp = []
    for module, _ in _MODULES.values():
        st = os.stat(str(module.__file__))
        stamp += [st.st_mtime, st.st_size]
    stamped = True
    for name in _ENTRIES:
        cache_file = getattr(getattr(made[name], "_cache", None), "_cache_file", None)
        if cache_file is None or not hasattr(cache_file, "_source_stamp"):
            stamped = False
        else:
            cache_file._source_stamp = tuple(stamp)
    return stamped


def _cached(entry: Any = None) -> bool:
    """Whether numba's cache holds the engine's entry point (``entry``: its dispatcher,
    stamped by `_stamp`; by default the loaded one), fresh, for this numba."""
    fn: Any = movement if entry is None else entry
    try:
        return bool(fn._cache._cache_file._load_index())
    except (AttributeError, OSError, EOFError, ValueError):   # numba's internals moved; a torn index
        return False
