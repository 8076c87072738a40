"""Check regenerated golden files against an older revision whose events carried ``detail``
strings: ``python -m tests.engine.golden_events_check REV``.

For each cycling golden file it reads the version at git revision ``REV`` and the one in the
working tree, and checks that results, turns, n_cases, dice_count and dice_sha256 are equal
(byte for byte, line by line), that the stored inputs read back to the same inputs, and that
every event keeps its turn, kind, riders and case while the old ``detail`` is recovered from
the new ``data`` (:func:`old_detail`). Prints one line per file; exit status 1 on a mismatch.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.engine.golden_io import CASES, golden_path, inputs_from_dict

ROOT = Path(__file__).resolve().parents[2]
#: The old crash texts of Moréno by rule id.
OLD_CRASH_TEXT = {"R-X1": "R-X1", "R-D3": "R-D3 triple green", "R-X2": "R-X2 chain"}


def old_detail(kind: str, data: dict[str, Any]) -> str:
    """The ``detail`` text the engine wrote before events carried data."""
    if kind == "summit":
        return f"{data['climb']}|{data['terrain']}"
    if kind == "intermediate_sprint":
        return f"km {data['km']:g}"
    if kind in ("crash", "eliminated") and "out_turns" in data:
        return f"out for {data['out_turns']} turns"
    if kind == "crash":
        return OLD_CRASH_TEXT[data["rule"]]
    if kind == "attack" and "pace" in data:
        return str(data["pace"])
    if kind == "abandon":
        return str(data["reason"])
    return str(data["rule"])


def _lines(text: str, key: str) -> list[str]:
    """The raw lines of the ``key`` list of ``expected`` in a golden file."""
    lines = text.splitlines()
    start = lines.index(f'    "{key}": [')
    end = lines.index("    ]", start) if "    ]" in lines[start:] else None
    out = []
    for line in lines[start + 1 : end]:
        if line.startswith("    ]"):
            break
        out.append(line.strip().rstrip(","))
    return out


def check(case: str, rev: str) -> list[str]:
    path = golden_path(case)
    rel = path.relative_to(ROOT).as_posix()
    old_text = subprocess.run(
        ["git", "show", f"{rev}:{rel}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    new_text = path.read_text(encoding="utf-8")
    old, new = json.loads(old_text), json.loads(new_text)
    problems = []
    if _lines(old_text, "results") != _lines(new_text, "results"):
        problems.append("results lines differ")
    for key in ("turns", "n_cases", "dice_count", "dice_sha256"):
        if old["expected"][key] != new["expected"][key]:
            problems.append(f"{key}: {old['expected'][key]!r} -> {new['expected'][key]!r}")
    ruleset = CASES[case][0]
    if inputs_from_dict(ruleset, old["inputs"]) != inputs_from_dict(ruleset, new["inputs"]):
        problems.append("the stored inputs do not read back to the same inputs")
    old_events, new_events = old["expected"]["events"], new["expected"]["events"]
    if len(old_events) != len(new_events):
        problems.append(f"{len(old_events)} events -> {len(new_events)}")
    for i, (a, b) in enumerate(zip(old_events, new_events, strict=False)):
        kept = (a["turn"], a["kind"], a["riders"], a["case"])
        now = (b["turn"], b["kind"], b["riders"], b["data"]["case"])
        if kept != now:
            problems.append(f"event #{i + 1}: {kept} -> {now}")
        elif old_detail(b["kind"], b["data"]) != a["detail"]:
            problems.append(
                f"event #{i + 1}: detail {a['detail']!r} not recovered from {b['data']}"
            )
    return problems


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print(__doc__.splitlines()[1].strip(), file=sys.stderr)
        return 2
    failed = False
    for case in CASES:
        problems = check(case, args[0])
        failed = failed or bool(problems)
        events = len(
            json.loads(golden_path(case).read_text(encoding="utf-8"))["expected"]["events"]
        )
        status = "ok" if not problems else "; ".join(problems[:5])
        print(f"{case}: {events} events: {status}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
