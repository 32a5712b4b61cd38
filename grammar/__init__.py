"""Lark grammars and transformers: text in, solver objects out.

- `parse_position`: the ``.dip`` format, with an optional ``[orders]`` section;
  `parse_position_file` / `parse_position_text`: the same, or DAIDE ``NOW``/``SCO``
  text, told apart by the first token;
- `parse_daide`: DAIDE ``NOW`` and ``SCO`` messages;
- `parse_order` / `parse_orders`: orders in short notation, one or a file of them
  (checked against a position if one is given).

Errors point at file, line and column: `DipsolveSyntaxError` for text that is not
understood, `DipsolveRuleError` for text that is understood but impossible on the board.
"""

from .errors import DipsolveError, DipsolveRuleError, DipsolveSyntaxError
from .position import (parse_order, parse_orders, parse_position, parse_position_file,
                       parse_position_text)
from .daide import parse_daide

__all__ = ["DipsolveError", "DipsolveRuleError", "DipsolveSyntaxError", "parse_daide",
           "parse_order", "parse_orders", "parse_position", "parse_position_file",
           "parse_position_text"]
