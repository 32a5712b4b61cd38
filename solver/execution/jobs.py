"""What a job is to every backend of `dipsolve.execution`: its outcome (`Done`), the
`Executor` protocol, how a job's exception comes back as a value (`guarded`), the words
for a worker that died (`died`), and the base the backends share.  Below the package's
`__init__` and `ray_cluster`, which both need them."""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from ..core.errors import DipsolveUnavailable
from ..core.results import Stopped

#: how many times in all a job whose worker dies is run before it is reported failed
ATTEMPTS = 2


@dataclass(frozen=True)
class Done:
    """One job finished: its value (``ok``), or why it failed (``error``); ``attempts``
    counts the runs it took (more than 1 when a worker died under it)."""

    key: str
    ok: bool
    value: Any = None
    error: str | None = None
    attempts: int = 1


class ExecutionUnavailable(DipsolveUnavailable):
    """The backend asked for cannot run here (Ray not installed, no cluster at the address)."""


OnDone = Callable[[Done], None]
OnRetry = Callable[[str, str], None]
OnStart = Callable[[str], None]


class Executor(Protocol):
    """Where jobs run: `InProcess`, `LocalPool`, `RayExecutor`."""

    #: the backend in words (``local processes``, ``ray (local)``)
    name: str
    #: jobs run at once
    workers: int

    def run(self, fn: Callable[[Any], Any], jobs: Sequence[tuple[str, Any]], on_done: OnDone,
            on_retry: OnRetry | None = None, on_start: OnStart | None = None) -> None:
        """Run every job; ``on_done`` once for each, as they finish, and ``on_start(key)``
        as each is handed to a worker (again for a retry; see the module)."""

    def close(self) -> None:
        """Release the workers (a local Ray is shut down, every process of it ended)."""

    def __enter__(self) -> Executor: ...

    def __exit__(self, *exc: Any) -> None: ...


def guarded(fn: Callable[[Any], Any], task: Any) -> tuple[bool, Any]:
    """``(True, fn(task))``, or ``(False, "Type: message")`` when it raises: what a worker
    runs, so that an exception comes back as a value on every backend."""
    try:
        return True, fn(task)
    except Stopped:
        raise
    except Exception as e:          # any failure of the job is the job's answer
        return False, describe(e)


def describe(e: BaseException) -> str:
    """An exception in one line: ``ValueError: bad``, where it was raised at the end."""
    where = traceback.extract_tb(e.__traceback__)[-1:] if e.__traceback__ else []
    at = f" (at {where[0].filename.rsplit('/', 1)[-1]}:{where[0].lineno})" if where else ""
    return f"{type(e).__name__}: {e}{at}"


def died(attempts: int, reason: str) -> str:
    """The error of a job whose worker died every time it ran."""
    return f"its worker died {attempts} time{'s' if attempts != 1 else ''} ({reason})"


class _Base:
    name = "in this process"
    workers = 1

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        pass
