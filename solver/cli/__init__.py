"""The ``dipsolve`` command line: `main` and the readers commands share."""

from .main import UserError, load, load_orders, main

__all__ = ["main", "load", "load_orders", "UserError"]
