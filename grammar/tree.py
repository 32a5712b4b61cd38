"""The tree of a press message: `Node`, one construct and its parts; its tokens, pretty form and JSON.

    >>> n = Node("prp", ("PRP", "(", Node("pce", ("PCE", "(", "AUS", "GER", ")")), ")"))
    >>> canonical_text(n.tokens())
    'PRP (PCE (AUS GER))'
    >>> print(n.pretty())
    prp  PRP
      pce  PCE AUS GER
    >>> n.to_json()
    {'rule': 'prp', 'parts': ['PRP', {'rule': 'pce', 'parts': ['PCE', 'AUS', 'GER']}]}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Union

from .daide_order import ORDER_RULES
from .tokens import canonical_text

__all__ = ["Node", "Part"]

Part = Union["Node", str]


@dataclass(frozen=True, slots=True)
class Node:
    """One construct of a message: its grammar rule and its parts, in order: tokens
    (upper case; brackets as ``"("``/``")"``; a text as written, quotes included) and
    the constructs inside it."""

    rule: str
    parts: tuple[Part, ...]

    def tokens(self) -> Iterator[str]:
        """Every token, brackets included, in text order."""
        for p in self.parts:
            if isinstance(p, Node):
                yield from p.tokens()
            else:
                yield p

    def words(self) -> list[str]:
        """This construct's own tokens, brackets left out (``PCE``, ``AUS``, ...)."""
        return [p for p in self.parts if isinstance(p, str) and p not in "()"]

    def children(self) -> list[Node]:
        return [p for p in self.parts if isinstance(p, Node)]

    def walk(self) -> Iterator[Node]:
        yield self
        for c in self.children():
            yield from c.walk()

    def to_json(self) -> dict[str, Any]:
        """``{"rule", "parts"}``: the rule, and its tokens and constructs, brackets left out."""
        return {"rule": self.rule,
                "parts": [p.to_json() if isinstance(p, Node) else p
                          for p in self.parts if not (isinstance(p, str) and p in "()")]}

    def pretty(self, indent: str = "  ") -> str:
        """The tree as text, one construct a line, its own tokens beside it."""
        lines: list[str] = []

        def show(n: Node, depth: int) -> None:
            if n.rule in _INLINE or n.rule in ORDER_RULES:
                lines.append(f"{indent * depth}{n.rule}  {canonical_text(n.tokens())}")
                return
            own = " ".join(n.words())
            lines.append(f"{indent * depth}{n.rule}" + (f"  {own}" if own else ""))
            for c in n.children():
                show(c, depth + 1)
        show(self, 0)
        return "\n".join(lines)


#: constructs `Node.pretty` shows as their text on one line
_INLINE = frozenset({"location", "unit", "turn", "unit_on_board", "centres", "occupier", "share",
                     "order_outcome", "order_note", "order_result", "variant_option", "pda",
                     "ptl", "npr", "npb", "power_summary", "tokens", "try_token", "period",
                     "mdf_provinces", "mdf_adjacencies"})
