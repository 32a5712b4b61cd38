"""The Ray backend of `dipsolve.execution`: jobs as Ray tasks, on a local Ray started for
the run or on an existing cluster (``pip install 'dipsolve[cluster]'``).

Ray is imported when a `RayExecutor` is made, never before.  A local Ray is started
with the CPUs asked for, without its dashboard, bound to the loopback address only
(nothing listens on or talks to another address), with usage statistics off, and is
shut down by `RayExecutor.close` (every process of it ended).  On an existing cluster
(``address``), the jobs at once are the cluster's CPUs, and dipsolve must be installed,
in the same version, on every node: a worker imports the job's function by name.

Each job is one task of one CPU, with Ray's own retries off: a task whose worker died
(`ray.exceptions.RayError`: the worker crashed, ran out of memory, its node died) is
submitted again by this module, so that the attempts are counted the same way as on the
local processes.  At most twice as many tasks as CPUs are in flight (memory stays
bounded over thousands of jobs; the queue is ours, so a stop request drops it at once).
"""

from __future__ import annotations

import os
from collections import deque
from typing import Any, Callable, Sequence

from ..core.errors import DipsolveSyntaxError
from ..core.results import Stopped, stop_requested
from .jobs import ATTEMPTS, Done, ExecutionUnavailable, OnDone, OnRetry, OnStart, _Base, died, guarded

#: seconds between two looks at the stop flag while waiting for the tasks
POLL = 0.1
#: seconds to wait for a cluster's address to answer before Ray is asked to join it (Ray
#: itself waits minutes for an address where nothing listens)
CONNECT_TIMEOUT = 10.0


def _host_port(address: str) -> tuple[str, int] | None:
    """The host and port of a cluster's address (``ray://HOST:10001``, ``HOST:6379``), or
    None for one that names none (``auto``: the cluster this machine is part of)."""
    rest = address.split("://", 1)[1] if "://" in address else address
    host, sep, port = rest.rstrip("/").rpartition(":")
    if not sep or not port.isdigit() or not host:
        return None
    return host.strip("[]"), int(port)


def _token_available() -> bool:
    """Whether a Ray authentication token is at hand (``RAY_AUTH_TOKEN``,
    ``RAY_AUTH_TOKEN_PATH`` or ``~/.ray/auth_token``)."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return True
    path = os.environ.get("RAY_AUTH_TOKEN_PATH") or os.path.join(os.path.expanduser("~"), ".ray", "auth_token")
    return os.path.isfile(path)


def _loopback(host: str) -> bool:
    return host == "localhost" or host.startswith("127.") or host == "::1"


def check_address(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Raise `ExecutionUnavailable` unless something accepts a connection at the cluster
    address ``address`` within ``timeout`` seconds (``auto`` is not checked)."""
    import socket
    target = _host_port(address)
    if target is None:
        if address != "auto":
            raise ExecutionUnavailable(f"--ray {address!r}: expected HOST:PORT, ray://HOST:PORT or auto")
        return
    try:
        with socket.create_connection(target, timeout=timeout):
            pass
    except OSError as e:
        why = e.strerror or type(e).__name__
        raise ExecutionUnavailable(f"no Ray cluster answers at {address} ({why[:1].lower() + why[1:]})") from None


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ExecutionUnavailable("--ray needs Ray, which is not installed: "
                                   "pip install 'dipsolve[cluster]'") from None
    return ray


def _reason(e: BaseException) -> str:
    """Why a task's worker died, in a line (Ray's messages run to paragraphs)."""
    first = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return f"{type(e).__name__}: {first[:200]}" if first else type(e).__name__


def _errors_to_stderr(ray: Any) -> Any:
    """Ray prints its raylet's messages (``A worker died or was killed ...``) on standard
    output, where they would break a command's JSON: send them to standard error (the
    printer it replaced, to put back; None when this Ray has no such printer)."""
    worker: Any = getattr(getattr(ray, "_private", None), "worker", None)
    original = getattr(worker, "print_to_stdstream", None)
    if worker is None or original is None:
        return None

    def to_stderr(data: dict[str, Any], ignore_prefix: bool) -> None:
        original({**data, "is_err": True}, ignore_prefix)
    worker.print_to_stdstream = to_stderr
    return original


class RayExecutor(_Base):
    """Jobs on Ray: ``address`` None starts a local Ray of ``workers`` CPUs for the run."""

    def __init__(self, address: str | None, workers: int = 2, *, attempts: int = ATTEMPTS) -> None:
        if workers < 1 or attempts < 1:
            raise DipsolveSyntaxError(f"workers and attempts must be 1 or more, not {workers}, {attempts}")
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        if address is not None:
            check_address(address)
            # a cluster started with token authentication (Ray's default) takes this
            # machine's token only when the mode is said before Ray is imported
            if "RAY_AUTH_MODE" not in os.environ and _token_available():
                os.environ["RAY_AUTH_MODE"] = "token"
        target = _host_port(address) if address is not None else None
        if address is None or (target is not None and _loopback(target[0])):
            # Ray picks the machine's network address for its node unless clusters are
            # off, when it binds to the loopback one (read when ray is first imported)
            os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        ray = _import_ray()
        import logging
        self.ray = ray
        self.attempts = attempts
        self.started = False
        if ray.is_initialized():
            raise ExecutionUnavailable("Ray is already initialised in this process: one run at a time")
        try:
            if address is None:
                ray.init(address="local", num_cpus=workers, include_dashboard=False, log_to_driver=False,
                         logging_level=logging.ERROR, namespace="dipsolve")
                self.started = True
                self.name = "ray (local)"
                self.workers = workers
            else:
                ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR,
                         namespace="dipsolve")
                self.started = True
                self.name = f"ray ({address})"
                self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        except ExecutionUnavailable:
            raise
        except Exception as e:       # no cluster there, a version mismatch, ...
            self.close()
            where = "a local Ray" if address is None else f"the Ray cluster at {address}"
            raise ExecutionUnavailable(f"cannot start {where}: {_reason(e)}") from None
        self._task = ray.remote(num_cpus=1, max_retries=0)(guarded)
        self._printer = _errors_to_stderr(ray)

    def run(self, fn: Callable[[Any], Any], jobs: Sequence[tuple[str, Any]], on_done: OnDone,
            on_retry: OnRetry | None = None, on_start: OnStart | None = None) -> None:
        ray = self.ray
        pending: deque[tuple[int, int]] = deque((i, 1) for i in range(len(jobs)))
        flying: dict[Any, tuple[int, int]] = {}          # task ref -> (job, attempt)
        fn_ref = ray.put(fn)
        try:
            while pending or flying:
                if stop_requested():
                    raise Stopped
                while pending and len(flying) < 2 * self.workers:
                    i, attempt = pending.popleft()
                    flying[self._task.remote(fn_ref, jobs[i][1])] = (i, attempt)
                    if on_start is not None:
                        on_start(jobs[i][0])
                ready, _ = ray.wait(list(flying), num_returns=1, timeout=POLL)
                for ref in ready:
                    i, attempt = flying.pop(ref)
                    key = jobs[i][0]
                    try:
                        ok, value = ray.get(ref)
                    except ray.exceptions.RayError as e:     # its worker or node died
                        if stop_requested():
                            raise Stopped from None
                        if attempt < self.attempts:
                            if on_retry is not None:
                                on_retry(key, _reason(e))
                            pending.appendleft((i, attempt + 1))
                        else:
                            on_done(Done(key, False, error=died(attempt, _reason(e)), attempts=attempt))
                        continue
                    on_done(Done(key, True, value, attempts=attempt) if ok
                            else Done(key, False, error=value, attempts=attempt))
        finally:
            for ref in flying:       # a stop, or an error in on_done: drop what still runs
                try:
                    ray.cancel(ref, force=True)
                except Exception:    # already finished or gone
                    pass

    def close(self) -> None:
        """Disconnect; a local Ray started here is shut down with all its processes."""
        if self.started:
            self.started = False
            self.ray.shutdown()
        printer = getattr(self, "_printer", None)
        if printer is not None:
            self.ray._private.worker.print_to_stdstream = printer
            self._printer = None
