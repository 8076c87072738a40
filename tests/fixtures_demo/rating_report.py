"""Print a summary of the demo data (fixtures/demo): rating distribution per axis, the 3s and
4s, roles per team, youth-eligible riders and the climbs of each stage.

Usage: .venv/bin/python tests/fixtures_demo/rating_report.py
A helper for whoever retunes the ratings; not collected by pytest.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from datetime import date
from pathlib import Path

from engine.cycling.profile import PROFILE_AXES

DEMO = Path(__file__).resolve().parents[2] / "fixtures" / "demo"
AXES = PROFILE_AXES
LEVELS = ("H", "0", "1", "2", "3", "4")


def main() -> None:
    with (DEMO / "riders.csv").open(encoding="utf-8", newline="") as f:
        riders = list(csv.DictReader(f))
    with (DEMO / "stages.json").open(encoding="utf-8") as f:
        stages = json.load(f)

    print(f"{'axis':14}" + "".join(f"{lv:>5}" for lv in LEVELS))
    for axis in AXES:
        counts = Counter(r[axis] for r in riders)
        print(f"{axis:14}" + "".join(f"{counts[lv]:>5}" for lv in LEVELS))
    print()
    for axis in AXES:
        top = [f"{r['name']} ({r[axis]})" for r in riders if r[axis] in ("3", "4")]
        print(f"{axis} >= 3: {', '.join(top)}")
    print()
    roles = Counter(r["role"] for r in riders)
    print("roles:", dict(roles))
    youth = [r["name"] for r in riders if date.fromisoformat(r["birth_date"]) >= date(1997, 1, 1)]
    print(f"youth-eligible (born >= 1997-01-01): {len(youth)}")
    print()
    for s in stages:
        climbs = [
            f"{seg['name']} [{seg['terrain']}, {seg['km']} km]"
            for seg in s["segments"]
            if seg["terrain"] not in ("plain", "descent")
        ]
        total = round(sum(seg["km"] for seg in s["segments"]), 1)
        print(
            f"{s['number']:>2} {s['stage_type']:8} {s['distance_km']:>6} km (sum {total}) "
            f"sprint {s['intermediate_sprints_km']}: {'; '.join(climbs) or '-'}"
        )


if __name__ == "__main__":
    main()
