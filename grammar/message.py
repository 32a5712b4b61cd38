"""What a press message is read into: `Press` (its tree, dialect, level and orders); text and JSON.

    >>> tree = Node("prp", ("PRP", "(", Node("pce", ("PCE", "(", "AUS", "GER", ")")), ")"))
    >>> p = Press(tree, level=10)
    >>> p.canonical
    'PRP (PCE (AUS GER))'
    >>> print(p.pretty())
    prp  PRP
      pce  PCE AUS GER
    >>> p.to_json()["tree"]
    {'rule': 'prp', 'parts': ['PRP', {'rule': 'pce', 'parts': ['PCE', 'AUS', 'GER']}]}
    >>> p.english()
    'I propose that Austria and Germany be at peace.'

`dipsolve.grammar.press.parse_press` builds these from text; the canonical text reads
back as the same `Press`.  The tree is `dipsolve.grammar.tree`'s `Node`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dipsolve.core.orders import Order

from .english import english
from .tokens import canonical_text
from .tree import Node

__all__ = ["OrderAt", "Press"]


@dataclass(frozen=True, slots=True)
class OrderAt:
    """An order inside a message: whose (None for DPP's bare ``(WVE)``), the `Order`,
    where it is written (line, column, width) and the construct that carries it
    (``"xdo"``, ``"sub"``, ``"ord"``, ``"bare_order"``, ...)."""

    power: str | None
    order: Order
    line: int
    column: int
    width: int
    said_in: str


@dataclass(frozen=True)
class Press:
    """A message read by `parse_press`.

    ``tree`` is what it says (a `Node`); ``dialect`` "daide" or "dpp"; ``level`` the
    lowest DAIDE press level that admits it (None in DPP, which has no levels).  Two
    messages are equal when they say the same thing: spacing and case do not count.
    """

    tree: Node
    dialect: str = "daide"
    level: int | None = 0
    #: every order in the message, in text order, with its place
    located_orders: tuple[OrderAt, ...] = field(default=(), compare=False, repr=False)

    @property
    def canonical(self) -> str:
        """The message in canonical spacing and case; it reads back as the same `Press`."""
        return canonical_text(self.tree.tokens())

    def __str__(self) -> str:
        return self.canonical

    def pretty(self) -> str:
        return self.tree.pretty()

    def orders(self) -> list[tuple[str | None, Order]]:
        """Every order in the message (in XDO, SUB, ORD, ...), with its power's name."""
        return [(o.power, o.order) for o in self.located_orders]

    def english(self) -> str:
        """The message in English, in the manner of the Hall & Loeb seed's glosses
        (`dipsolve.grammar.english`)."""
        return english(self.tree, self.dialect)

    def to_json(self) -> dict[str, Any]:
        """The message as JSON: dialect, level, canonical text, tree and orders
        (``docs/press.md`` lists the fields)."""
        return {"dialect": self.dialect, "level": self.level, "canonical": self.canonical,
                "tree": self.tree.to_json(),
                "orders": [{"power": o.power, "order": str(o.order), "line": o.line,
                            "column": o.column, "in": o.said_in} for o in self.located_orders]}
