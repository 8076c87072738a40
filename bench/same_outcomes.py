"""Do two engine trees give byte-identical outcomes? The 21 demo stages, both cycling rulesets.

    .venv/bin/python bench/same_outcomes.py --against /path/to/other/tree [--seeds 3]

Runs this tree's engine and the other tree's (its ``engine`` package, as ``bench/engine.py
--engine-from`` takes it) in two fresh processes; each writes the outcomes' JSON (the outcome
codec: results, events, the full dice log) of every demo stage with 176 riders, for Moréno and
Cyclo Sim and ``--seeds`` seeds a stage, and its SHA-256. A speed-up that changes no result
prints ``same`` for every ruleset; the first differing stage is named otherwise.

The lean path (``simulate(..., lean=True)``) against the full one: tests/engine/test_lean.py.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ("moreno", "cyclosim")


def dump(seeds: int) -> dict[str, list[str]]:
    """Per ruleset, the SHA-256 of each stage's outcome JSON (stage-major, then seed)."""
    import engine
    from bench.engine import RIDERS, STAGES, load_tour
    from engine import simulate
    from engine.registry import cycling_ruleset

    print(f"engine from {Path(engine.__file__).parent}", file=sys.stderr)
    tour = load_tour(STAGES, RIDERS)
    out: dict[str, list[str]] = {}
    for name in RULESETS:
        codec = cycling_ruleset(name).outcome
        assert codec is not None
        digests = []
        for i, inputs in enumerate(tour):
            for s in range(seeds):
                data = codec.to_data(simulate(name, inputs, 1 + 1000 * s + i))
                text = json.dumps(data, sort_keys=True, ensure_ascii=False)
                digests.append(hashlib.sha256(text.encode()).hexdigest())
        out[name] = digests
    return out


def run_in(tree: Path, seeds: int) -> dict[str, list[str]]:
    code = (
        "import json, sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]; import engine;"
        "sys.path.insert(0, sys.argv[2]); from bench.same_outcomes import dump;"
        "print(json.dumps(dump(int(sys.argv[3]))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tree), str(ROOT), str(seeds)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    print(done.stderr.strip())
    result: dict[str, list[str]] = json.loads(done.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, required=True, help="the other tree")
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args(argv)
    ours = run_in(ROOT, args.seeds)
    theirs = run_in(args.against.resolve(), args.seeds)
    status = 0
    for name in RULESETS:
        a, b = ours[name], theirs[name]
        diff = [k for k, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        if diff:
            k = diff[0]
            print(
                f"{name}: DIFFERENT on {len(diff)} of {len(a)} outcomes, first: stage "
                f"{k // args.seeds + 1}, seed {1 + 1000 * (k % args.seeds) + k // args.seeds}"
            )
            status = 1
        else:
            combined = hashlib.sha256("".join(a).encode()).hexdigest()[:16]
            print(f"{name}: same ({len(a)} outcomes, sha256 of all {combined})")
    return status


if __name__ == "__main__":
    sys.exit(main())
