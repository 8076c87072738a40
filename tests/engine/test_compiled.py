"""The compiled engine (mypyc, ``scripts/accelerate.py``) gives the pure engine's outcomes.

Builds the compiled engine in a temporary copy of the project (never in this tree, where its
``.so`` files would shadow the sources every other test reads), then runs there every engine
test (the golden files of every ruleset, the vectors with scripted dice, the properties, the
orders refused) on the compiled modules. Marked ``compiler``: skipped without mypyc and a C
compiler (a failure under GRANDTOUR_REQUIRE_REAL=1, as in CI). It takes minutes (the C build:
about 3 minutes of CPU), so it runs in CI (GRANDTOUR_REQUIRE_REAL=1) or when asked
(GRANDTOUR_COMPILED_TEST=1), and is skipped, saying so, in a plain ``make test``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.accelerated import build_state

ROOT = Path(__file__).resolve().parents[2]
#: The modules the brief requires compiled, at least.
REQUIRED = (
    "engine.motor",
    "engine.motor.trackfile",
    "engine.rulesets.grandprix.board",
    "engine.rulesets.grandprix.race",
    "engine.rulesets.grandprix.search",
)
#: Every engine test (golden files, vectors with scripted dice, properties, orders and
#: settings refused), this one aside: the compiled engine must behave as the pure one.
TESTS = ("tests/engine", "--ignore=tests/engine/test_compiled.py")
SKIPPED = shutil.ignore_patterns(
    ".venv", ".git", "__pycache__", "*.so", "test-artifacts", "var", "db.sqlite3*", ".*cache*",
    ".hypothesis", "staticfiles", "build", "mutants", "*.egg-info",
)  # fmt: skip


def _env() -> dict[str, str]:
    drop = ("DATABASE_URL", "REDIS_URL", "GRANDTOUR_REQUIRE_REAL", "GRANDTOUR_COMPILED_TEST")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.pop("PYTHONPATH", None)
    return env


def _run(copy: Path, *args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in the copy, outside this test's environment (no real parts asked)."""
    return subprocess.run(
        [sys.executable, *args], cwd=copy, env=_env(), capture_output=True, text=True, check=check
    )


@pytest.mark.compiler
@pytest.mark.skipif(
    "1"
    not in (os.environ.get("GRANDTOUR_REQUIRE_REAL"), os.environ.get("GRANDTOUR_COMPILED_TEST")),
    reason="minutes of C build: runs in CI or with GRANDTOUR_COMPILED_TEST=1",
)
def test_the_compiled_engine_passes_the_golden_files(tmp_path: Path) -> None:
    copy = tmp_path / "tree"
    shutil.copytree(ROOT, copy, ignore=SKIPPED)
    build = _run(copy, "scripts/accelerate.py", "--quiet", "--target", str(copy))
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    state = build_state(copy / "engine")
    assert not state.stale
    assert set(REQUIRED) <= set(state.compiled), state.compiled
    # The copy's tests import the compiled modules: its root comes first on their path.
    where = _run(
        copy, "-c", "import engine.rulesets.grandprix.search as s; print(s.__file__)", check=True
    )
    assert where.stdout.strip().startswith(str(copy)), where.stdout
    assert where.stdout.strip().endswith(".so"), where.stdout
    run = _run(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", *TESTS)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout
