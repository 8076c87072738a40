"""A Celery worker's command line as the README deploys it: one place for ``make run``
(scripts/run_local.py), the benchmarks and the tests that start real workers.

No worker-to-worker chatter (gossip, mingle, heartbeat): nothing needs it, and it is what a
Redis restart trips over (README, "When Redis goes away").
"""

from __future__ import annotations

#: The flags every worker of the project starts with.
NO_CHATTER = ("--without-gossip", "--without-mingle", "--without-heartbeat")


def worker_command(
    python: str,
    *,
    queues: str,
    hostname: str,
    concurrency: int | None = None,
    pool: str | None = None,
    loglevel: str = "INFO",
) -> list[str]:
    """``python -m celery -A config worker`` serving ``queues`` (comma-separated) as
    ``hostname`` (``%h`` is the machine's name); Celery's defaults where ``concurrency`` or
    ``pool`` is not given (prefork, one process a core)."""
    command = [python, "-m", "celery", "-A", "config", "worker", "-Q", queues]
    command += [f"--hostname={hostname}", f"--loglevel={loglevel}"]
    if concurrency is not None:
        command.append(f"--concurrency={concurrency}")
    if pool is not None:
        command.append(f"--pool={pool}")
    return [*command, *NO_CHATTER]
