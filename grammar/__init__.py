"""Lark grammars and transformers: text in, solver objects out (and orders and press back out).

- `parse_position`: the ``.dip`` format, with an optional ``[orders]`` section;
  `parse_position_file` / `parse_position_text`: the same, or DAIDE ``NOW``/``SCO``
  text, told apart by the first token;
- `parse_daide`: DAIDE ``NOW`` and ``SCO`` messages;
- `parse_order` / `parse_order_line` / `parse_orders`: orders in short, long or DAIDE
  notation, one or a file of them (checked against a position if one is given);
  `read_orders`: a file's orders and its errors, both (``orders``); `format_order`:
  an order in any of the three notations (``notation``, a writer).
- press, in ``dipsolve.grammar.press``: `parse_press` (DAIDE levels 0-130, DPP) and
  `parse_daide_order`; the modules below it, one job each: ``tokens`` (DAIDE's token
  tables and lexer), ``parsers`` (the DAIDE grammars, built once, and their errors),
  ``levels`` (press levels), ``daide_order`` (DAIDE orders), ``tree`` (a message's
  tree of `Node`, its JSON), ``message`` (`Press`), ``clauses`` and ``english`` (the
  English gloss, a writer).  ``board`` reports a position's board problems, for the
  ``.dip`` reader (``position``) and the DAIDE one (``daide``) alike.

Errors point at file, line and column: `DipsolveSyntaxError` for text that is not
understood (a name that names nothing among them: an unknown province, power, coast
or unit kind), `DipsolveRuleError` for text that is understood but impossible on the
board, its ``rule`` naming the rule broken (``"army-at-sea"``, ``"unit"``, ...).
Whether an understood order is legal in a position is `dipsolve.core.rules`'s question.
"""

from .errors import DipsolveError, DipsolveRuleError, DipsolveSyntaxError
from .notation import NOTATIONS, FormatError, format_order
from .orders import parse_order, parse_order_line, parse_orders, read_orders
from .position import parse_position, parse_position_file, parse_position_text
from .daide import parse_daide

__all__ = ["NOTATIONS", "DipsolveError", "DipsolveRuleError", "DipsolveSyntaxError", "FormatError",
           "format_order", "parse_daide", "parse_order", "parse_order_line", "parse_orders",
           "parse_position", "parse_position_file", "parse_position_text", "read_orders"]
