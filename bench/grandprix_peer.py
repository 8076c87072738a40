"""The peer of the Grand Prix benchmark: a race of the Python Flamme Rouge engine (issue 33).

MarkusShepherd/flamme-rouge is pure Python and is not ours: it is never copied here, the
benchmark takes the path of a checkout (``bench/engine.py --ruleset grandprix --peer DIR``):

    git clone https://github.com/MarkusShepherd/flamme-rouge /tmp/flamme-rouge

(or any copy of the repository; DIR is the directory holding its ``flamme_rouge`` package).

A race is what its own command line plays (``flamme_rouge/__main__.py``: ``Game(track,
teams).play()``) with computer teams only: 6 teams of its ``Heuristic`` strategy ("try to be
smart about it", a rouleur and a sprinteur each: 12 riders) on ``STAGE_7_5_6``, the only
shipped track whose start takes 12 riders (5 rows of 3 lanes; the others have 8 to 10 places
and its strategies fail when a start is full). The engine draws from the global ``random``
(decks, hands, which team acts next): :meth:`FlammeRouge.race` seeds it per race, so a seed
gives one race. Its logging stays at Python's default level (its calls run, their messages
are not formatted) and its display and prompt libraries (``termcolor``, ``inquirer``), which a
race between computer teams does not use, get stand-ins when they are not installed.

The peer runs in a process of its own (:class:`PeerProcess`, this file run as a script), one
race at a time when the benchmark asks, between two of our events: the two engines never run
at once, and neither pays for the other's heap (in one process the garbage collector's full
collections, which walk every object, would charge the Grand Prix's kept searches to the
peer's races).
"""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

HOW_TO_GET = "git clone https://github.com/MarkusShepherd/flamme-rouge DIR"
TEAMS = 6  # of 2 riders
TRACK = "STAGE_7_5_6"


class PeerMissing(Exception):
    """DIR holds no ``flamme_rouge`` package."""


def _stand_in(name: str) -> None:
    """An empty module ``name`` (``termcolor.colored`` returns its text) when it is missing."""
    try:
        importlib.import_module(name)
    except ImportError:
        module = types.ModuleType(name)
        if name == "termcolor":
            module.colored = lambda text, *args, **kwargs: text  # type: ignore[attr-defined]
        sys.modules[name] = module


class FlammeRouge:
    """The peer engine loaded from a checkout; :meth:`race` plays one seeded race."""

    def __init__(self, path: Path) -> None:
        path = path.resolve()
        root = path.parent if path.name == "flamme_rouge" else path
        if not (root / "flamme_rouge" / "core.py").is_file():
            raise PeerMissing(
                f"{path} holds no flamme_rouge package (core.py); get it with: {HOW_TO_GET}"
            )
        for name in ("termcolor", "inquirer"):
            _stand_in(name)
        sys.path.insert(0, str(root))
        self.core: Any = importlib.import_module("flamme_rouge.core")
        self.strategies: Any = importlib.import_module("flamme_rouge.strategies")
        self.tracks: Any = importlib.import_module("flamme_rouge.tracks")
        self.track = getattr(self.tracks, TRACK)
        self.root = root
        self.version = str(importlib.import_module("flamme_rouge.__version__").__version__)
        self.commit = _commit(root)

    def describe(self) -> str:
        at = f", commit {self.commit[:12]}" if self.commit else ""
        return (
            f"Flamme Rouge {self.version} ({self.root}{at}): {TRACK}, {TEAMS} Heuristic teams "
            f"({2 * TEAMS} riders), until the first rider crosses the finish"
        )

    def race(self, seed: int) -> int:
        """One race from its setup (teams, decks, start positions) to the finish; the
        rider-turns it played (rounds x riders: every rider moves every round)."""
        random.seed(seed)
        heuristic = self.strategies.Heuristic
        teams = [heuristic(name=f"T{t + 1}") for t in range(TEAMS)]
        game = self.core.Game(self.track, teams)
        game.play()
        return int(game.rounds_played) * 2 * TEAMS


def _commit(root: Path) -> str:
    """The checkout's commit when it is a git work tree, else ''."""
    try:
        run = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return ""
    return run.stdout.strip() if run.returncode == 0 else ""


class PeerProcess:
    """:class:`FlammeRouge` in a fresh interpreter: :meth:`race` sends a seed and reads back
    the race's wall-clock and CPU seconds, timed there, and its rider-turns."""

    def __init__(self, path: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        self.description = self.proc.stdout.readline().strip()
        if not self.description:
            error = self.proc.stderr.read().strip() if self.proc.stderr else ""
            self.proc.wait()
            raise PeerMissing(error.splitlines()[-1] if error else f"{path}: the peer failed")

    def race(self, seed: int) -> tuple[float, float, int]:
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        self.proc.stdin.write(f"{seed}\n")
        self.proc.stdin.flush()
        wall, cpu, turns = self.proc.stdout.readline().split()
        return float(wall), float(cpu), int(turns)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def serve(path: Path) -> int:
    """The peer's side of :class:`PeerProcess`: a seed a line in, ``wall cpu turns`` out."""
    peer = FlammeRouge(path)
    print(peer.describe(), flush=True)
    for line in sys.stdin:
        seed = int(line)
        t0, c0 = time.perf_counter(), time.process_time()
        turns = peer.race(seed)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(f"{wall!r} {cpu!r} {turns}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(serve(Path(sys.argv[1])))
