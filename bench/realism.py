"""Do simulated Tours look like real ones? Complete demo Tours, figures beside the real ones.

    .venv/bin/python bench/realism.py [--tours 20] [--ruleset moreno]

Runs the engine, the stage times and the classifications (pure Python, no database) over the
21 stages of the demo Tour, carrying abandons, crash counts, the GC start order and the jerseys
from stage to stage as a season does. Prints medians over the tours; the last line is JSON.
"""

import argparse
import csv
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.engine import RIDERS, STAGES, load_tour  # noqa: E402
from engine import simulate  # noqa: E402
from engine.cli import load_riders  # noqa: E402
from engine.cycling.course import CLIMB_TERRAINS, Course  # noqa: E402
from engine.cycling.inputs import Entrant, StageInputs  # noqa: E402
from engine.registry import cycling_ruleset  # noqa: E402
from races.classifications import (  # noqa: E402
    ClimbRecord,
    ResultRecord,
    StageRecord,
    all_classifications,
)
from races.timing import EngineLine, stage_times  # noqa: E402
from season.rule_settings import RuleSettings  # noqa: E402

SPECIALIST_AXIS = {
    "flat": "sprinter",
    "hilly": "puncheur",
    "mountain": "climber",
    "ITT": "time_trialist",
}
GAP_PLACES = ("2", "10", "20", "50", "last")
REAL = {
    "abandon_pct": "12-24 % (median ~16 %)",
    "2": "~4 min",
    "10": "~17 min (5-40 min)",
    "20": "~1 h",
    "50": "~2 h 15",
    "last": "~5 h (2-7 h)",
    "flat": "most",
    "hilly": "-",
    "mountain": "most",
    "itt": "most",
}


def load_demo() -> tuple[list[dict[str, object]], list[Course]]:
    """The demo riders (as entrants, with birth dates) and the 21 courses, from fixtures/demo."""
    rows = load_riders(RIDERS)
    with RIDERS.open(encoding="utf-8") as handle:
        births = {int(row["id"]): row["birth_date"] for row in csv.DictReader(handle)}
    riders = [
        {
            "id": row.rider_id,
            "team": row.team,
            "role": row.role,
            "profile": row.profile,
            "birth": births[row.rider_id],
        }
        for row in rows
    ]
    return riders, [inputs.course for inputs in load_tour(STAGES, RIDERS)]


def simulate_tour(riders, courses, *, ruleset: str, tour: int) -> dict[str, object]:
    from datetime import date

    teams = {name: index for index, name in enumerate(dict.fromkeys(r["team"] for r in riders))}
    by_id = {r["id"]: r for r in riders}
    birth_dates = {r["id"]: date.fromisoformat(r["birth"]) for r in riders}
    rules = RuleSettings()
    timing = rules.timing_rules(ruleset)
    hooks = cycling_ruleset(ruleset).cycling
    assert hooks is not None
    carried: dict[int, dict[str, object]] = {}
    records: list[StageRecord] = []
    out: set[int] = set()
    crashes: dict[int, int] = {}
    gc_rank: dict[int, tuple[int, int]] = {}
    yellow = green = None
    winners: dict[str, list[bool]] = {key: [] for key in SPECIALIST_AXIS}
    for number, course in enumerate(courses, start=1):
        starters = sorted(
            (r for r in riders if r["id"] not in out),
            key=lambda r: (gc_rank.get(r["id"], (10**9, 0))[0], r["id"]),
        )
        inputs = StageInputs(
            course=course,
            entrants=tuple(
                Entrant(
                    rider_id=r["id"],
                    team_id=teams[r["team"]],
                    bib=r["id"],
                    profile=r["profile"],
                    role=r["role"],
                    tour_crash_count=crashes.get(r["id"], 0),
                    gc_rank_before=gc_rank.get(r["id"], (None, 0))[0],
                    gc_time_before=gc_rank.get(r["id"], (None, 0))[1],
                )
                for r in starters
            ),
            settings=rules.stage_settings(ruleset)["settings"],
            extras={
                r["id"]: hooks.rider_of({}, carried[r["id"]], course)
                for r in starters
                if r["id"] in carried
            },
            yellow_jersey=yellow,
            green_jersey=green,
        )
        outcome = simulate(ruleset, inputs, tour * 1000 + number)
        timed = stage_times(
            lines=[
                EngineLine(r.rider_id, r.rank, r.gap_seconds, r.final_group, r.status)
                for r in outcome.results
            ],
            stage_type=course.stage_type,
            distance_km=course.distance_km,
            rules=timing,
            intermediate_sprints=[
                e.rider_ids for e in outcome.events if e.kind == "intermediate_sprint"
            ],
        )
        for result in outcome.results:
            if result.carried:
                carried[result.rider_id] = dict(result.carried)
            crashes[result.rider_id] = crashes.get(result.rider_id, 0) + len(result.crashes)
        climbs = [
            ClimbRecord(terrain=str(e.data["terrain"]), crossing_order=e.rider_ids)
            for e in outcome.events
            if e.kind == "summit"
        ]
        if climbs and course.segments[-1].terrain in CLIMB_TERRAINS:
            climbs[-1] = ClimbRecord(climbs[-1].terrain, climbs[-1].crossing_order, True)
        records.append(
            StageRecord(
                number=number,
                stage_type=course.stage_type,
                results=tuple(
                    ResultRecord(
                        rider_id=t.rider_id,
                        team_id=by_id_team(by_id, teams, t.rider_id),
                        rank=t.rank,
                        time_seconds=t.time_seconds,
                        bonus_seconds=t.bonus_seconds,
                        status=t.status,
                    )
                    for t in timed
                ),
                climbs=tuple(climbs),
                intermediate_sprints=tuple(
                    e.rider_ids for e in outcome.events if e.kind == "intermediate_sprint"
                ),
            )
        )
        out |= {t.rider_id for t in timed if t.status != "finished"}
        if course.stage_type in SPECIALIST_AXIS:
            winner = by_id[outcome.results[0].rider_id]
            axis = SPECIALIST_AXIS[course.stage_type]
            winners[course.stage_type].append(getattr(winner["profile"], axis) >= 3)
        tables = all_classifications(records, birth_dates=birth_dates, season_year=2023)
        gc_rank = {line.rider_id: (line.rank, line.value) for line in tables["general"]}
        yellow = tables["general"][0].rider_id if tables["general"] else None
        green = tables["points"][0].rider_id if tables["points"] else None
    general = tables["general"]
    gaps = {
        place: general[min(int(place), len(general)) - 1].gap
        for place in GAP_PLACES
        if place != "last"
    }
    gaps["last"] = general[-1].gap
    return {"abandon_pct": 100 * len(out) / len(riders), "gaps": gaps, "winners": winners}


def by_id_team(by_id, teams, rider_id: int) -> int:
    return teams[by_id[rider_id]["team"]]


def hms(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tours", type=int, default=20)
    parser.add_argument("--ruleset", default="moreno")
    args = parser.parse_args()
    riders, courses = load_demo()
    tours = [
        simulate_tour(riders, courses, ruleset=args.ruleset, tour=t)
        for t in range(1, args.tours + 1)
    ]
    abandon = statistics.median(t["abandon_pct"] for t in tours)
    gaps = {p: statistics.median(t["gaps"][p] for t in tours) for p in GAP_PLACES}
    won = {}
    for stage_type in SPECIALIST_AXIS:
        flags = [flag for t in tours for flag in t["winners"][stage_type]]
        won[stage_type.lower()] = round(100 * sum(flags) / len(flags), 1) if flags else None
    print(f"ruleset {args.ruleset}, {args.tours} demo Tours (median over tours)   real Tours")
    print(f"abandons            {abandon:6.1f} %                  {REAL['abandon_pct']}")
    for place in GAP_PLACES:
        print(f"GC gap of {place:<5}     {hms(gaps[place]):>10}                {REAL[place]}")
    for stage_type, pct in won.items():
        axis = SPECIALIST_AXIS["ITT" if stage_type == "itt" else stage_type]
        print(f"{stage_type:<9} won by {axis} >= 3: {pct} %   {REAL[stage_type]}")
    print(
        json.dumps(
            {
                "tours": args.tours,
                "abandon_pct": round(abandon, 1),
                "gc_gap_s": {p: int(gaps[p]) for p in GAP_PLACES},
                "won_by_specialist_pct": won,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
