"""The ``dipsolve`` command line (`main`), one module per command, and the readers the
commands share (`load`, `load_orders`; `UserError` for a user's mistake)."""

from .main import main
from .options import UserError, load, load_orders

__all__ = ["main", "load", "load_orders", "UserError"]
