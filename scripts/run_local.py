"""Start the web server, a Celery worker, an odds worker, a webhooks worker and Celery beat;
stop all five on Ctrl-C.

The embedded default: SQLite and Celery's filesystem broker under var/celery (no server to
install). With REDIS_URL set the same processes use Redis instead. Beat keeps its schedule in
the database (django-celery-beat), so it needs no schedule file.
"""

import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from config.worker_command import worker_command  # noqa: E402

HOST = os.environ.get("HOST", "127.0.0.1")
PORT = os.environ.get("PORT", "8000")


def site_url(environ: Mapping[str, str]) -> str:
    """The address the e-mails' links are built from (settings.SITE_URL): SITE_URL when set,
    else where this web server listens, HOST and PORT."""
    given = environ.get("SITE_URL", "").strip()
    if given:
        return given
    return f"http://{environ.get('HOST', '127.0.0.1')}:{environ.get('PORT', '8000')}"


def main() -> int:
    python = sys.executable
    # The filesystem broker's folders, where config/settings.py puts them.
    broker_dir = Path(os.environ.get("CELERY_FILESYSTEM_DIR", ROOT / "var" / "celery"))
    for folder in ("out", "processed", "control"):
        (broker_dir / folder).mkdir(parents=True, exist_ok=True)
    # The league's queue (resolutions, deadlines, e-mails) and the odds' queue beside it
    # (config.celery.odds_queue), each with a worker of its own: a resolution never waits
    # behind a chunk of odds (docs/odds.md, "Queues"); the chat webhooks' queue
    # (config.celery.hooks_queue) likewise, behind a receiver slow to answer.
    queue = os.environ.get("CELERY_QUEUE") or "grandtour"

    def worker(name: str, queue: str) -> list[str]:
        return worker_command(
            python, queues=queue, hostname=f"{name}@%h", concurrency=1, pool="solo"
        )

    commands = {
        "web": [python, "manage.py", "runserver", f"{HOST}:{PORT}", "--noreload"],
        "worker": worker("league", queue),
        "odds worker": worker("odds", f"{queue}-odds"),
        "hooks worker": worker("hooks", f"{queue}-hooks"),
        "beat": [
            python,
            "-m",
            "celery",
            "-A",
            "config",
            "beat",
            "--loglevel=INFO",
        ],
    }
    # The web server, the workers and beat build the e-mails' links from the same address.
    environ = {**os.environ, "SITE_URL": site_url(os.environ)}
    processes = {
        name: subprocess.Popen(cmd, cwd=ROOT, env=environ) for name, cmd in commands.items()
    }
    url = f"http://{HOST}:{PORT}/"
    print(
        "\n"
        f"  Grand Tour is running: open {url}\n"
        f"  Admin: {url}admin/  (login admin / admin)\n"
        "  Demo logins: organiser olivia / olivia-demo; players alice / alice-demo, "
        "bob / bob-demo, charlie / charlie-demo\n"
        f"  Demo seasons: {url}seasons/demo/ (Tour de France 2023), "
        f"{url}seasons/demo-season/ (a season of three races) and "
        f"{url}seasons/demo-f1/ (Grands Prix of 1981), the same logins in all\n"
        "  Press Ctrl-C to stop the web server, the workers and beat.\n",
        flush=True,
    )

    def stop(*_args: object) -> None:
        for process in processes.values():
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + 10
        for process in processes.values():
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
        sys.exit(0)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while True:
        for name, process in processes.items():
            if process.poll() is not None:
                print(f"{name} stopped (exit {process.returncode}); stopping the others.")
                stop()
        time.sleep(0.5)


if __name__ == "__main__":
    raise SystemExit(main())
