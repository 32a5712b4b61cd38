"""One power's influence value of each of its many options against one fixed rest of the
board: the array form of `dipsolve.algorithms.evaluation.InfluenceBatch`, restricted to the units
the options change and the provinces they can reach.

The adjustment game (`dipsolve.models.equilibria_game`) asks, again and again, for the
value to a power of every one of its order sets (12,870 removals of 8 of 16 units) while
the other powers' choices are fixed: a row of the game.  Only the power's *variable*
units (those some option removes or builds) differ between the positions of a row; the
rest of the board is the same.  So the nearest-unit race of the influence evaluation is
run once for the rest (per province: the nearest distance, how many units are that
near, how many of them are the power's, who stands there), and per option only over the
variable units and the provinces where one of them can be at least as near as the rest
(every other province keeps the value it has without them).  The numbers are
`InfluenceBatch`'s up to the order of float sums.

    >>> from dipsolve.core.map import standard_map
    >>> from dipsolve.core.position import Phase, Position, Unit
    >>> from dipsolve.algorithms.evaluation import InfluenceBatch
    >>> m = standard_map()
    >>> units = [Unit("Turkey", "F", "ANK"), Unit("Turkey", "A", "CON"), Unit("Russia", "F", "SEV")]
    >>> pos = Position.build(Phase("Spring", 1902, "movement"), units, {}, game_map=m)
    >>> batch = InfluenceBatch(pos, units)
    >>> rows = InfluenceRows(batch, [0, 1])             # Turkey's two units vary
    >>> rest = np.array([False, False, True])
    >>> options = np.array([[True, True], [True, False], [False, False]])
    >>> fast = rows.values(rest, options, "Turkey")
    >>> slow = batch.values(np.array([[True, True, True], [True, False, True], [False, False, True]]), "Turkey")
    >>> bool(np.allclose(fast, slow, atol=1e-9))
    True
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .evaluation import InfluenceBatch
from ..core.results import Deadline

__all__ = ["InfluenceRows"]

#: a distance no unit reaches (the batch's own "far", clipped to int16)
_FAR = np.int16(32_000)


class InfluenceRows:
    """Rows of the influence evaluation over ``batch``'s units, ``variable`` (indices
    into ``batch.units``) the units an option may add or leave out."""

    #: options valued together (arrays of chunk x variable units x provinces)
    CHUNK = 1024

    def __init__(self, batch: InfluenceBatch, variable: Sequence[int]) -> None:
        self.batch = batch
        self.variable = np.asarray(list(variable), dtype=np.int64)
        self.dist = np.minimum(batch.dist, int(_FAR)).astype(np.int16)      # units x provinces
        self.dv = self.dist[self.variable]                                  # k x P
        self.pv = batch.province[self.variable]                             # k

    def values(self, rest: np.ndarray, options: np.ndarray, power: str,
               deadline: Deadline | None = None) -> np.ndarray:
        """``power``'s value of each position made of the units ``rest`` (a mask over
        the batch's units; the variable units' entries are ignored) plus the variable
        units of one row of ``options`` (options x variable units).  Every variable
        unit must be ``power``'s.  Raises `dipsolve.core.results.TimeUp` between chunks once
        ``deadline`` has passed."""
        b = self.batch
        vals, const, bonus = b.power_tables(power)
        me = b.power_of == (b.powers.index(power) if power in b.powers else -1)
        rest = rest.copy()
        rest[self.variable] = False
        idx = np.nonzero(rest)[0]
        n_prov = self.dist.shape[1]
        if len(idx):
            d = self.dist[idx]
            d0 = d.min(axis=0)
            near = (d == d0[None, :]) & (d0 < _FAR)[None, :]
            c0 = near.sum(axis=0)
            m0 = near[me[idx]].sum(axis=0)
        else:
            d0 = np.full(n_prov, _FAR, dtype=np.int16)
            c0 = np.zeros(n_prov, dtype=np.int64)
            m0 = np.zeros(n_prov, dtype=np.int64)
        occ0 = np.zeros(n_prov, bool)
        occm0 = np.zeros(n_prov, bool)
        occ0[b.province[idx]] = True
        occm0[b.province[idx[me[idx]]]] = True
        share0 = np.where(c0 > 0, m0 / np.maximum(c0, 1), 0.0)
        share0 = np.where(occ0, occm0.astype(float), share0)
        base = float(share0 @ vals + occm0 @ bonus + const)
        # the provinces a variable unit can reach first (or stand in)
        reach = ((self.dv <= d0[None, :]) & (self.dv < _FAR)).any(axis=0) & ~occ0
        reach[self.pv] = True
        q = np.nonzero(reach)[0]
        dq = self.dv[:, q]                                                  # k x q
        d0q, c0q, m0q = d0[q], c0[q], m0[q]
        pos_in_q = {int(p): j for j, p in enumerate(q)}
        stand_at = [pos_in_q[int(p)] for p in self.pv]                      # unit k stands in q[j]
        vq = vals[q]
        minus = float(share0[q] @ vq)
        unit_bonus = bonus[self.pv]
        X = np.asarray(options, dtype=bool)
        out = np.empty(len(X))
        for s in range(0, len(X), self.CHUNK):
            if deadline is not None:
                deadline.check()
            x = X[s:s + self.CHUNK]
            d = np.where(x[:, :, None], dq[None, :, :], _FAR)                # n x k x q
            dmin = d.min(axis=1)
            nearest = np.minimum(dmin, d0q[None, :])
            live = nearest < _FAR
            hit = ((d == nearest[:, None, :]) & live[:, None, :]).view(np.uint8).sum(
                axis=1, dtype=np.uint8).astype(np.int64)           # at most 255 variable units
            rest_hit = (d0q[None, :] == nearest) & live
            count = hit + c0q[None, :] * rest_hit
            mine = hit + m0q[None, :] * rest_hit
            share = np.where(count > 0, mine / np.maximum(count, 1), 0.0)
            occupied = np.zeros(share.shape, bool)
            for k, j in enumerate(stand_at):            # a variable unit stands in q[j]
                occupied[:, j] |= x[:, k]
            share = np.where(occupied, 1.0, share)
            share = np.where(occ0[q][None, :], share0[q][None, :], share)
            out[s:s + self.CHUNK] = base - minus + share @ vq + x.astype(float) @ unit_bonus
        return out
