"""The command line's errors: `UserError` (a mistake on the command line or in a file a
command reads), `FileError` (a file that cannot be read or written) and `UsageError`
(argparse's own complaint).  Below `options` and `output`, which both raise them."""

from __future__ import annotations

from ..core.errors import DipsolveSyntaxError


class UserError(DipsolveSyntaxError):
    """A mistake on the command line or in a file the command reads: reported in one
    line (or a few), exit status 2."""

    kind = "usage"


class FileError(UserError):
    """A file the command cannot read (missing, a directory, not UTF-8) or write."""

    kind = "file"


class UsageError(UserError):
    """argparse's own complaint (an unknown option, a missing argument), with the usage
    line of the command it is about."""

    def __init__(self, message: str, *, prog: str, usage: str, found: str | None = None,
                 expected: str | None = None) -> None:
        super().__init__(message, found=found, expected=expected)
        self.prog = prog
        self.usage = usage
