"""Rewrite the engine's golden files: ``python -m tests.engine.regen_golden [CASE...]``.

Keeps each file's stored inputs (use ``--fresh`` to rebuild them from tests/engine/factory.py)
and writes the outcome the engine gives now; review the diff before committing it.
``--ruleset moreno|cyclosim`` limits the run to one ruleset's cases.
"""

from __future__ import annotations

import argparse
import sys

from tests.engine.golden_io import (
    CASES,
    build_case,
    golden_document,
    golden_path,
    inputs_from_dict,
    load,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", metavar="CASE", help=f"among {', '.join(CASES)}")
    parser.add_argument("--fresh", action="store_true", help="rebuild the inputs too")
    parser.add_argument("--ruleset", help="only the cases of this ruleset (moreno, cyclosim)")
    args = parser.parse_args(argv)
    unknown = [c for c in args.cases if c not in CASES]
    if unknown:
        parser.error(f"unknown case {unknown[0]!r}; known: {', '.join(CASES)}")
    cases = args.cases or [c for c in CASES if args.ruleset in (None, CASES[c][0])]
    for case in cases:
        path = golden_path(case)
        inputs = None
        if path.exists() and not args.fresh:
            inputs = inputs_from_dict(CASES[case][0], load(case)["inputs"])
        ruleset, inputs, outcome = build_case(case, inputs)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(golden_document(ruleset, inputs, outcome), encoding="utf-8")
        print(f"wrote {path} ({len(outcome.results)} riders, {len(outcome.dice)} dice)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
