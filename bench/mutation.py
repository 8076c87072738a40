"""How well do the tests guard the modules that compute results? Mutation testing (mutmut).

    .venv/bin/python bench/mutation.py [--max-children 2] [--module timing] [--survivors]

mutmut (configured in pyproject.toml, ``[tool.mutmut]``) copies ``races/`` into ``mutants/``,
changes one thing at a time in ``races/classifications.py``, ``races/timing.py`` and
``races/standings.py`` (a ``<`` for a ``<=``, a ``+ 1``, a deleted argument...) and runs the
tests that reach the changed function against each change. A change that no test notices
"survived". Prints, per module, the mutants killed out of all of them and the score; with
``--survivors``, the name of each survivor (``.venv/bin/mutmut show NAME`` prints its diff).

Starts from an empty ``mutants/`` every time, so the figures never come from an older run.
One module at a time, under ``nice``: the whole run takes 7 to 15 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTMUT = str(Path(sys.executable).with_name("mutmut"))
MODULES = ("classifications", "timing", "standings")
#: One line of ``mutmut results --all true``: ``    races.timing.x_clock__mutmut_3: killed``.
RESULT_LINE = re.compile(r"^\s*(races\.(\w+)\.\S+): (.+)$")


def run_module(module: str, max_children: int) -> None:
    subprocess.run(
        [
            "nice",
            "-n",
            "10",
            MUTMUT,
            "run",
            "--max-children",
            str(max_children),
            f"races.{module}*",
        ],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def results() -> dict[str, Counter[str]]:
    """Status counts per module, and the survivors' names under the key ``survivors:<module>``."""
    out = subprocess.run(
        [MUTMUT, "results", "--all", "true"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    counts: dict[str, Counter[str]] = {}
    for line in out.splitlines():
        match = RESULT_LINE.match(line)
        if match:
            name, module, status = match.groups()
            counts.setdefault(module, Counter())[status] += 1
            if status == "survived":
                counts.setdefault(f"survivors:{module}", Counter())[name] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-children", type=int, default=2)
    parser.add_argument("--module", choices=MODULES, action="append")
    parser.add_argument("--survivors", action="store_true", help="list the surviving mutants")
    args = parser.parse_args()
    modules = args.module or list(MODULES)

    shutil.rmtree(ROOT / "mutants", ignore_errors=True)
    for module in modules:
        run_module(module, args.max_children)
    counts = results()

    print(f"{'module':<26} {'killed':>7} {'total':>6} {'score':>7}  other")
    for module in modules:
        c = counts.get(module, Counter())
        total = sum(c.values())
        killed = c["killed"]
        others = ", ".join(f"{n} {s}" for s, n in sorted(c.items()) if s != "killed")
        score = f"{100 * killed / total:.1f} %" if total else "-"
        print(f"{'races/' + module + '.py':<26} {killed:>7} {total:>6} {score:>7}  {others}")
    if args.survivors:
        for module in modules:
            for name in sorted(counts.get(f"survivors:{module}", Counter())):
                print(f"survived: {name}")


if __name__ == "__main__":
    main()
