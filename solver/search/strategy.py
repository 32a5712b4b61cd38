"""A strategy as parts: a search, a model of the opponents, an evaluation.

``Strategy(search, opponents, evaluation)`` is what `dipsolve.solve` plays and what a seat
of `dipsolve play` is (`dipsolve.play.bots.DipsolveBot`), in the spirit of python-chess's
one engine and one ``Limit``: the parts are typed, each holds only the options that belong
to it, and a combination that means nothing cannot be built (the phase game or the learned
model under minimax; a predictor for a model that fits its own).  The time, the seed and the
workers are not parts: they are the call's `dipsolve.Limits`.

The searches (`dipsolve.search.methods`):

* `Agenda` — Hall & Loeb's best-first agenda search (``beam``: keep at most that many
  entries on the agenda);
* `Minimax`, `Expectimax` — Victorybot's searches (``keep``: candidates kept by
  factorized pruning for the joint test); minimax judges by the worst case, expectimax
  by the mean;
* `CpSat` — the rules as a CP-SAT model (`dipsolve.models.order_method`).

The models of the opponents:

* `Learned` (the default) — a best response to draws of a policy fitted to the orders
  the others have given (``history``: earlier movement phases, each a position and every
  power's orders; the package's prior policy without them: `dipsolve.search.learned`);
* `PhaseGame` — the phase as a game among the powers that interact, nobody's policy
  assumed (``pick``: our orders as the best against the others' mixture, or a draw);
* `Sampled` — a best response to draws of a given policy (DumbBot's by default, or an
  `OrderPolicy`);
* `Worst`, `Expected` — the seeds' searched models: the opponents' likely and hostile
  sets, a set judged by its worst outcome or its mean (``predictor="dumbbot"`` adds
  DumbBot's guess);
* `Hold` — everybody else holds, or gives the ``background`` orders.

The evaluations: `Influence` (Hall & Loeb 4.1, with per-power ``values``), `Centers`.

    >>> import dipsolve
    >>> s = dipsolve.solve(dipsolve.Position.initial(), "Turkey", Strategy(Agenda(), Hold()),
    ...                    limits=dipsolve.Limits(time_limit=2))
    >>> sorted(map(str, s.orders)), s.model
    (['A CON - BUL', 'A SMY - ARM', 'F ANK - CON'], 'hold: everybody else holds')
    >>> Strategy(Minimax(), PhaseGame())
    Traceback (most recent call last):
    ...
    dipsolve.core.errors.DipsolveRuleError: Minimax judges sets against the opponents' likely and hostile sets (Worst or Sampled or Learned), not PhaseGame
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence, Union

from ..algorithms.evaluation import ProvinceValues
from ..algorithms.order_policy import OrderPolicy
from ..core.errors import DipsolveArgumentError, DipsolveRuleError, DipsolveSyntaxError
from ..core.orders import Order
from ..core.position import Position
from ..core.results import Limits
from .methods import DEFAULT_LIMITS, KEEP, SAMPLES, SolveSettings

__all__ = ["Strategy", "Agenda", "Minimax", "Expectimax", "CpSat", "Learned", "PhaseGame",
           "Sampled", "Worst", "Expected", "Hold", "Influence", "Centers", "Search", "Opponents",
           "Evaluation", "named"]


# -- searches ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Agenda:
    """Hall & Loeb's best-first agenda search; ``beam``: at most this many entries kept."""

    beam: int | None = None
    method = "agenda"


@dataclass(frozen=True)
class _Victorybot:
    keep: int = KEEP


class Minimax(_Victorybot):
    """Victorybot's paranoid search: candidates scored against each opponent alone, the
    best ``keep`` against every combination, judged by the worst."""

    method = "minimax"


class Expectimax(_Victorybot):
    """Victorybot's search judged by the mean over equally likely opponent sets."""

    method = "expectimax"


@dataclass(frozen=True)
class CpSat:
    """The rules as a CP-SAT model, warm-started by the agenda search."""

    method = "cpsat"


Search = Union[Agenda, Minimax, Expectimax, CpSat]


# -- the opponents -------------------------------------------------------------------------

@dataclass(frozen=True)
class Learned:
    """A best response to ``samples`` draws of a policy fitted to ``history`` (each earlier
    movement phase's position and every power's orders), from the package's prior."""

    history: Sequence[tuple[Position, Mapping[str, Sequence[Order]]]] = field(default=(), repr=False)
    samples: int = SAMPLES
    name = "learned"


@dataclass(frozen=True)
class PhaseGame:
    """The phase as a game among the powers that interact; ``pick``: "best" (our best
    order set against the others' mixture) or "sample" (a draw from our own mixture)."""

    pick: str = "best"
    name = "equilibrium"


@dataclass(frozen=True)
class Sampled:
    """A best response to ``samples`` joint draws of ``predictor``: "dumbbot" (DumbBot's
    program) or an `OrderPolicy`."""

    predictor: str | OrderPolicy = "dumbbot"
    samples: int = SAMPLES
    name = "sampled"


@dataclass(frozen=True)
class _Searched:
    predictor: str | None = None


class Worst(_Searched):
    """The opponents' likely and hostile sets, a set judged by its worst outcome
    (``predictor="dumbbot"`` adds DumbBot's guess of each one's orders)."""

    name = "worst"


class Expected(_Searched):
    """The opponents' likely and hostile sets, a set judged by its mean outcome."""

    name = "expected"


@dataclass(frozen=True)
class Hold:
    """Everybody else holds, or gives the ``background`` orders."""

    background: Mapping[str, Sequence[Order]] | None = None
    name = "hold"


Opponents = Union[Learned, PhaseGame, Sampled, Worst, Expected, Hold]


# -- the evaluation ------------------------------------------------------------------------

@dataclass(frozen=True)
class Influence:
    """Hall & Loeb's influence evaluation (4.1), with ``values`` per power where given;
    ``allies``: power -> ally -> a weight from 0 to 1, the share of the ally's control
    of the board counted as the power's own (a negotiating seat's trust in its allies,
    `dipsolve.agreements.Trust`: an ally's units friendly in proportion to trust)."""

    values: Mapping[str, Mapping[str, float] | ProvinceValues] | None = None
    allies: Mapping[str, Mapping[str, float]] | None = None
    name = "influence"

    def __post_init__(self) -> None:
        for power, friends in (self.allies or {}).items():
            if not isinstance(friends, Mapping) or not all(
                    isinstance(w, (int, float)) and 0.0 <= w <= 1.0 for w in friends.values()):
                raise DipsolveArgumentError(f"allies[{power!r}]: expected ally -> a weight from 0 to 1, "
                                            f"not {friends!r}"[:200], expected="weights from 0 to 1")


@dataclass(frozen=True)
class Centers:
    """Supply centers owned."""

    name = "centers"


Evaluation = Union[Influence, Centers]

_SEARCHES = (Agenda, Minimax, Expectimax, CpSat)
_OPPONENTS = (Learned, PhaseGame, Sampled, Worst, Expected, Hold)
_EVALUATIONS = (Influence, Centers)
#: the models each search can judge by: minimax by the worst case, expectimax by the mean
_JUDGES: dict[type, tuple[type, ...]] = {Minimax: (Worst, Sampled, Learned),
                                          Expectimax: (Expected, Sampled, Learned)}


@dataclass(frozen=True)
class Strategy:
    """How a power's orders are found: a ``search``, a model of the ``opponents`` and an
    ``evaluation`` (the package's seat by default: `Agenda`, `Learned`, `Influence`);
    ``lookahead``: retreats and adjustments judged by the movement that follows (None:
    with the learned model and the phase game, as measured best)."""

    search: Search = field(default_factory=Agenda)
    opponents: Opponents = field(default_factory=Learned)
    evaluation: Evaluation = field(default_factory=Influence)
    lookahead: bool | None = None

    def __post_init__(self) -> None:
        for part, kinds, what in ((self.search, _SEARCHES, "search"),
                                  (self.opponents, _OPPONENTS, "opponents"),
                                  (self.evaluation, _EVALUATIONS, "evaluation")):
            if not isinstance(part, kinds):
                raise DipsolveArgumentError(
                    f"a strategy's {what} is one of {', '.join(k.__name__ for k in kinds)}, "
                    f"not {part!r}", expected=f"a {what} part")
        if not (self.lookahead is None or isinstance(self.lookahead, bool)):
            raise DipsolveArgumentError(f"lookahead is True, False or None, not {self.lookahead!r}")
        judges = _JUDGES.get(type(self.search))
        if judges and not isinstance(self.opponents, judges):
            raise DipsolveRuleError(
                f"{type(self.search).__name__} judges sets against the opponents' likely and "
                f"hostile sets ({' or '.join(j.__name__ for j in judges)}), not "
                f"{type(self.opponents).__name__}", rule="search-opponents")
        settings(self)            # the rest of the checks: one definition, in SolveSettings

    def __str__(self) -> str:
        """``agenda, learned, influence``: the parts by name."""
        return f"{self.search.method}, {self.opponents.name}, {self.evaluation.name}"


def settings(strategy: Strategy, limits: Limits | None = None, *, trace: bool = False,
             seeds: Sequence[Sequence[Order]] = ()) -> SolveSettings:
    """``strategy`` as the search's internal record of one call within ``limits``
    (`dipsolve.search.methods.SolveSettings`, which `dipsolve.solve` builds here and hands
    to the search; default `DEFAULT_LIMITS`), keeping the search's trace when ``trace``
    and starting from the complete order sets ``seeds``."""
    s, o, e = strategy.search, strategy.opponents, strategy.evaluation
    return SolveSettings(
        method=s.method, beam=getattr(s, "beam", None), keep=getattr(s, "keep", KEEP),
        opponents=o.name, pick=getattr(o, "pick", "best"),
        samples=o.samples if isinstance(o, (Learned, Sampled)) else 0,
        predictor=getattr(o, "predictor", None), background=getattr(o, "background", None),
        history=tuple(getattr(o, "history", ())),
        evaluation=e.name, values=getattr(e, "values", None), allies=getattr(e, "allies", None),
        lookahead=strategy.lookahead,
        trace=trace, seeds=tuple(tuple(x) for x in seeds),
        limits=limits if limits is not None else DEFAULT_LIMITS)


def named(method: str = "agenda", opponents: str | None = None, evaluation: str = "influence", *,
          values: Mapping[str, Mapping[str, float] | ProvinceValues] | None = None, pick: str | None = None,
          samples: int | None = None, predictor: str | None = None, beam: int | None = None,
          keep: int | None = None, lookahead: bool | None = None) -> Strategy:
    """The strategy the command line's names spell (``--method``, ``--opponents``,
    ``--evaluation`` and their options): the one place names become parts.  Without
    ``opponents``, the method's own model: the learned one for agenda and cpsat, the
    worst case for minimax, the mean for expectimax.  An option that belongs to no part
    chosen is refused (``pick`` without the phase game, ``samples`` without draws, a
    ``predictor`` for a model that draws its own)."""
    searches: dict[str, Callable[[], Search]] = {"agenda": lambda: Agenda(beam=beam), "cpsat": CpSat,
                "minimax": lambda: Minimax(keep=KEEP if keep is None else keep),
                "expectimax": lambda: Expectimax(keep=KEEP if keep is None else keep)}
    if method not in searches:
        raise DipsolveSyntaxError(f"unknown method {method!r} (expected one of {', '.join(searches)})",
                                  found=str(method), expected="a method")
    if beam is not None and method != "agenda":
        raise DipsolveRuleError(f"a beam is the agenda search's; method {method!r} has none", rule="beam")
    if keep is not None and method not in ("minimax", "expectimax"):
        raise DipsolveRuleError(f"keep is Victorybot's (minimax, expectimax), not {method!r}'s", rule="keep")
    model = opponents or SolveSettings(method=method).model      # the method's own model
    draws = SAMPLES if samples is None else samples
    models: dict[str, Callable[[], Opponents]] = {"learned": lambda: Learned(samples=draws), "equilibrium": lambda: PhaseGame(pick=pick or "best"),
              "sampled": lambda: Sampled(predictor=predictor or "dumbbot", samples=draws),
              "worst": lambda: Worst(predictor=predictor), "expected": lambda: Expected(predictor=predictor),
              "hold": Hold}
    if model not in models:
        raise DipsolveSyntaxError(f"opponents must be one of {', '.join(models)}, not {model!r}",
                                  found=str(model), expected="an opponent model")
    for option, given, owners in (("pick", pick, ("equilibrium",)),
                                  ("samples", samples, ("learned", "sampled")),
                                  ("predictor", predictor, ("sampled", "worst", "expected"))):
        if given is not None and model not in owners:
            raise DipsolveRuleError(f"{option} belongs to opponents {' or '.join(owners)}, not {model!r}",
                                    rule=option)
    evaluations: dict[str, Callable[[], Evaluation]] = {"influence": lambda: Influence(values=values),
                                                        "centers": Centers}
    if evaluation not in evaluations:
        raise DipsolveSyntaxError(f"unknown evaluation {evaluation!r} (expected one of "
                                  f"{', '.join(evaluations)})", found=str(evaluation))
    if values and evaluation != "influence":
        raise DipsolveRuleError("province values are the influence evaluation's", rule="values")
    return Strategy(searches[method](), models[model](), evaluations[evaluation](), lookahead=lookahead)
