"""The parts of a `dipsolve.Strategy`: ``from dipsolve.strategy import Agenda, Learned``.

Searches `Agenda`, `Minimax`, `Expectimax`, `CpSat`; models of the opponents `Learned`
(the default), `PhaseGame`, `Sampled`, `Worst`, `Expected`, `Hold`; evaluations
`Influence`, `Centers` (`dipsolve.search.strategy`, where each is described).

    >>> from dipsolve import strategy as S
    >>> str(S.Strategy(S.Agenda(beam=50), S.PhaseGame()))
    'agenda, equilibrium, influence'
"""

from .search.strategy import (Agenda, Centers, CpSat, Evaluation, Expectimax, Expected, Hold, Influence,
                              Learned, Minimax, Opponents, PhaseGame, Sampled, Search, Strategy, Worst)

__all__ = ["Strategy", "Agenda", "Minimax", "Expectimax", "CpSat", "Learned", "PhaseGame", "Sampled",
           "Worst", "Expected", "Hold", "Influence", "Centers", "Search", "Opponents", "Evaluation"]
