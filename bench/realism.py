"""Do simulated Tours look like real ones? Complete demo Tours, stage by stage, beside real ones.

    .venv/bin/python bench/realism.py [--tours 20] [--ruleset moreno] [--league-tours 20]
        [--small-field-tours 20] [--seed S]

Fresh random seeds by default, printed first (``--seed S`` gives the same figures again; stage n
of Tour t has seed S + 1000 t + n; ``--seed 0`` the seeds the rules were tuned on, issue 16).

Runs the engine, the stage times and the classifications (pure Python, no database) over the
21 stages of the demo Tour, carrying abandons, crash counts, the GC start order, the jerseys and
the ruleset's carried state (Cyclo Sim's energy) from stage to stage as a season does, with the
season's default rule settings. Twice: the demo Tour (its 176 riders in their real teams), then
a 4-player league (4 players' teams of 8 riders drafted from the start list, the other 144
riders in computer teams named after their real teams, every team with the default roles of
``season.orders.default_roles``, bibs in blocks after the players', as ``season.computer_teams``
builds them).

Per stage type (medians over all stages of that type): riders given the winner's time, the
winning margin (gap of the 2nd), groups at the finish (distinct times), crashes and abandons
(any rider out after the stage: abandon roll, crash, time cut); the share of road stages won
from a breakaway (the winner clear of the main group at the end of every turn from the one in
which the head of the race passes 3/4 of the course until he crossed the line; the main group
is the group of the favourites, the one holding most of the GC top 10 before the stage, else
the largest; ``breakaway_pct_vs_largest_group`` is the figure against the largest group);
the GC gaps of the 2nd, 10th, 20th, 50th and last; abandons as a share of the field; stages
won by specialists (rated 3+ on the stage's axis). Real bands beside each. Then issue 32's
goals on what one player sees: the share of single seasons whose GC gaps and abandons are in
band, and the shares of stages that end in a bunch, are won by 10-90 s in the mountains (and in
no 5-second step on more than a fifth of them), have a crash, are won from a breakaway or by a
specialist.
Then, with ``--small-field-tours``, the league's 32 riders alone (the organiser's smaller
field, abandon rules scaled to it). The last line is JSON (``demo``, ``league`` and
``small_field``, each with ``goals``: the figures of issue 16 and whether each is in its band).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import secrets
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

import django

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The league's timing and settings of each ruleset come from its adapter (Django, no database).
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from bench.engine import RIDERS, STAGES, load_tour  # noqa: E402
from engine import simulate  # noqa: E402
from engine.cli import load_riders  # noqa: E402
from engine.cycling.course import CLIMB_TERRAINS, Course  # noqa: E402
from engine.cycling.inputs import Entrant, StageInputs  # noqa: E402
from engine.registry import cycling_ruleset  # noqa: E402
from plugins import adapter_for  # noqa: E402
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
ROAD = ("flat", "hilly", "mountain")
STAGE_TYPES = ("flat", "hilly", "mountain", "ITT", "TTT")
GAP_PLACES = ("2", "10", "20", "50", "last")
REAL = {
    "abandon_pct": "12-24 % (median ~16 %)",
    "2": "~4 min",
    "10": "~17 min (5-40 min)",
    "20": "~1 h",
    "50": "~2 h 15",
    "last": "~5 h (2-7 h)",
    "on_winner_time": {"flat": "~60 (60-150)", "hilly": "a few", "mountain": "1-3"},
    "margin_s": {"flat": "0", "hilly": "0-20 s", "mountain": "10-60 s, sometimes minutes"},
    "crashes": "a few",
    "breakaway_pct": "30-40 % of road stages",
    "won": "most",
}
#: Issue 16's goals on the medians: (figure, low, high), None = no bound.
GOALS: dict[str, tuple[float | None, float | None]] = {
    "flat_on_winner_time": (50, None),
    "mountain_margin_s": (10, 90),
    "hilly_margin_s": (0, 30),
    "breakaway_pct": (15, 40),
    "road_crashes": (None, 3),
    "road_abandons": (None, 3),
    "gc_2_s": (60, 600),
    "gc_10_s": (300, 2400),
    "gc_last_s": (7200, 25200),
    "abandon_pct": (10, 30),
    "flat_won_by_specialist_pct": (60, None),
    "mountain_won_by_specialist_pct": (60, None),
}
#: Issue 32's goals on what a player sees: the share (%) of single seasons whose figure is in
#: its band ... (band low, band high, share low).
SEASON_BANDS: dict[str, tuple[float, float, float]] = {
    "gc_2_s": (60, 600, 80),
    "gc_10_s": (300, 2400, 80),
    "gc_last_s": (7200, 25200, 80),
    "abandon_pct": (10, 30, 80),
}
#: ... and the share (%) of stages of a type that show a thing: (what, share low, share high).
STAGE_SHARES: dict[str, tuple[str, float | None, float | None]] = {
    "flat_bunch_pct": ("flat stages with 50 or more riders on the winner's time", 65, 90),
    "mountain_margin_pct": ("mountain stages won by 10 to 90 s", 50, None),
    "mountain_margin_step_pct": (
        "mountain stages won by margins in one 5-second step (0 s aside)",
        None,
        20,
    ),
    "road_crash_pct": ("road stages with a crash", 20, 60),
    "breakaway_pct": ("road stages won from a breakaway", 15, 40),
    "flat_won_by_specialist_pct": ("flat stages won by a sprinter rated 3+", 60, None),
    "mountain_won_by_specialist_pct": ("mountain stages won by a climber rated 3+", 60, None),
}
#: A Grand Tour's field, the riders on the winner's time that make a bunch finish in it, and
#: the season band that only such a field has (a league's 32 riders alone have no gruppetto).
FULL_FIELD = 176
BUNCH = 50
FIELD_BANDS = frozenset({"gc_last_s"})
#: The width of a step of the mountain margins (STAGE_SHARES' mountain_margin_step_pct).
STEP_S = 5
#: Riders down on a road stage with a crash (median): a crash is a few riders, not a field.
CRASH_RIDERS_MAX = 3
LEAGUE_PLAYERS = 4
LEAGUE_ROSTER = 8


# -- who races -----------------------------------------------------------------------------


def load_demo() -> tuple[list[dict[str, Any]], list[Course]]:
    """The demo riders (with birth dates) and the 21 courses, from fixtures/demo."""
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
            "bib": row.rider_id,
        }
        for row in rows
    ]
    return riders, [inputs.course for inputs in load_tour(STAGES, RIDERS)]


def default_roles(members: Sequence[dict[str, Any]]) -> dict[int, str]:
    """``season.orders.default_roles`` on plain rows (moreno.md §5): the best climber (time
    trial breaks ties) leads, the best sprinter if rated 2+ sprints, up to two riders of
    baroudeur 1+ go in breakaways."""
    riders = sorted(members, key=lambda r: r["id"])
    roles = {r["id"]: "domestique" for r in riders}
    p = {r["id"]: r["profile"] for r in riders}
    leader = max(riders, key=lambda r: (p[r["id"]].climber, p[r["id"]].time_trialist, -r["id"]))
    roles[leader["id"]] = "gc_leader"
    others = [r for r in riders if r["id"] != leader["id"]]
    sprinter = max(others, key=lambda r: (p[r["id"]].sprinter, -r["id"]), default=None)
    if sprinter is not None and p[sprinter["id"]].sprinter >= 2:
        roles[sprinter["id"]] = "sprinter"
    free = [r for r in others if roles[r["id"]] == "domestique" and p[r["id"]].baroudeur >= 1]
    for r in sorted(free, key=lambda r: (-p[r["id"]].baroudeur, r["id"]))[:2]:
        roles[r["id"]] = "breakaway"
    return roles


def league_riders(riders: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A 4-player league: a snake draft of 8 riders each (best sum of ratings first), the
    rest in computer teams after their real teams; default roles; bibs in blocks of 10, the
    players' teams first (season.computer_teams)."""
    pool = sorted(riders, key=lambda r: (-sum(vars_of(r["profile"])), r["id"]))
    picks: list[list[dict[str, Any]]] = [[] for _ in range(LEAGUE_PLAYERS)]
    for round_ in range(LEAGUE_ROSTER):
        seats = range(LEAGUE_PLAYERS) if round_ % 2 == 0 else reversed(range(LEAGUE_PLAYERS))
        for seat in seats:
            picks[seat].append(pool.pop(0))
    teams: list[tuple[str, list[dict[str, Any]]]] = [
        (f"Player {i + 1}", team) for i, team in enumerate(picks)
    ]
    taken = {r["id"] for team in picks for r in team}
    by_team: dict[str, list[dict[str, Any]]] = {}
    for r in riders:
        if r["id"] not in taken:
            by_team.setdefault(str(r["team"]), []).append(r)
    teams += list(by_team.items())
    block = 10 * ((max(len(t) for _, t in teams) + 10) // 10)
    out = []
    for index, (name, members) in enumerate(teams):
        roles = default_roles(members)
        ordered = sorted(members, key=lambda r: (roles[r["id"]] != "gc_leader", r["id"]))
        for offset, r in enumerate(ordered):
            out.append(
                r | {"team": name, "role": roles[r["id"]], "bib": index * block + 1 + offset}
            )
    return sorted(out, key=lambda r: r["bib"])


def vars_of(profile: Any) -> list[int]:
    return [getattr(profile, axis) for axis in profile.__dataclass_fields__]


# -- breakaways: who was clear of the main group over the last quarter ---------------------


class Trace:
    """Snapshots of the road at the end of each turn once the head of the race has passed 3/4
    of the course (road stages only): ``(positions, still racing)`` per turn, indexed like the
    ruleset's own rider lists."""

    def __init__(self) -> None:
        self.snaps: list[tuple[list[int], list[bool]]] = []
        self.ids: list[int] = []
        self.gap = 2


@contextmanager
def traced(ruleset: str, trace: Trace) -> Iterator[None]:
    """Wrap the ruleset's end of turn to record the road (the engine is not changed)."""
    if ruleset == "moreno":
        from engine.rulesets.moreno import stage as mstage

        original: Callable[..., Any] = mstage.end_of_turn

        def moreno_end(race: Any, lines: Any) -> Any:
            order = original(race, lines)
            trace.ids = race.ids
            # R-G1: 2 free cases chain riders into one group.
            trace.gap = 3
            pos = race.pos
            if pos[order[0]] * 4 >= race.N * 3:
                trace.snaps.append((list(pos), [True] * race.n_riders))
            return order

        mstage.end_of_turn = moreno_end
        try:
            yield
        finally:
            mstage.end_of_turn = original
    elif ruleset == "cyclosim":
        from engine.rulesets.cyclosim import stage as cstage
        from engine.rulesets.cyclosim.sheet import ACTIVE

        original = cstage.end_of_turn

        def cyclosim_end(race: Any) -> None:
            original(race)
            if race.time_trial:
                return
            trace.ids = race.ids
            # Rows with nobody on them separate groups (consecutive rows chain).
            trace.gap = 1
            head = max(race.pos)
            if (head - race.off) * 4 >= race.N * 3:
                trace.snaps.append((list(race.pos), [s == ACTIVE for s in race.status]))

        cstage.end_of_turn = cyclosim_end
        try:
            yield
        finally:
            cstage.end_of_turn = original
    else:
        yield


def won_from_breakaway(trace: Trace, winner_id: int, favourites: Sequence[int] = ()) -> bool:
    """The winner clear of the main group in every snapshot until he left the road; False
    without snapshots.

    Groups are chains of riders on the road (``trace.gap``). The main group is the group of
    the favourites: the one holding most of ``favourites`` (the GC top 10 before the stage,
    the winner left out; ties: the one ahead), else, with none of them on the road (stage 1),
    the largest group (ties: the one ahead). On a mountain stage the largest group at 3/4 of
    the course is the gruppetto, and a climber who wins from the favourites' group is not a
    breakaway winner; on a flat stage the favourites ride in the bunch, which is the largest
    group."""
    if not trace.snaps or winner_id not in trace.ids:
        return False
    w = trace.ids.index(winner_id)
    watched = [trace.ids.index(f) for f in favourites if f != winner_id and f in trace.ids]
    checked = 0
    for pos, racing in trace.snaps:
        if not racing[w]:
            break
        on_road = sorted(
            ((p, i) for i, (p, on) in enumerate(zip(pos, racing, strict=True)) if on),
            reverse=True,
        )
        # group index of every rider on the road, front group 0
        group_of: dict[int, int] = {}
        sizes: list[int] = []
        prev = None
        for p, i in on_road:
            if prev is None or prev - p > trace.gap:
                sizes.append(0)
            sizes[-1] += 1
            group_of[i] = len(sizes) - 1
            prev = p
        counts = [0] * len(sizes)
        for f in watched:
            if f in group_of:
                counts[group_of[f]] += 1
        if any(counts):
            main = max(range(len(sizes)), key=lambda g: (counts[g], -g))
        else:
            main = max(range(len(sizes)), key=lambda g: (sizes[g], -g))
        if group_of[w] >= main:
            return False
        checked += 1
    return checked > 0


# -- one Tour ------------------------------------------------------------------------------


#: A bench's look at each stage of simulate_tour: (number, timed lines, classifications after
#: it, its record, last stage).
OnStage = Callable[[int, Sequence[Any], dict[str, Any], StageRecord, bool], None]


def stage_seed(base: int, tour: int, number: int) -> int:
    """The seed of stage ``number`` of Tour ``tour`` of a run whose seeds start at ``base``:
    base 0 gives the seeds the rules were tuned on (``tour * 1000 + stage``, issue 16), a
    random base (the default) seeds a player has never seen."""
    return base + tour * 1000 + number


def simulate_tour(
    riders: list[dict[str, Any]],
    courses: list[Course],
    *,
    ruleset: str,
    tour: int,
    base: int = 0,
    orders: Mapping[int, Mapping[str, Any]] | None = None,
    on_stage: OnStage | None = None,
) -> dict[str, Any]:
    """One Tour of ``riders`` over ``courses``. ``orders``: some riders' orders of the
    ruleset's spec by rider id (as a player gives them: the ruleset's part of each rider is
    built from them, ``hooks.rider_of``); none: every rider on his role's default.
    ``on_stage(number, timed lines, classifications after it, its record, last stage)`` is
    called after each stage (a bench scoring a team)."""
    given = orders or {}
    teams = {name: index for index, name in enumerate(dict.fromkeys(r["team"] for r in riders))}
    by_id = {r["id"]: r for r in riders}
    birth_dates = {r["id"]: date.fromisoformat(r["birth"]) for r in riders}
    rules = RuleSettings()
    adapter = adapter_for(ruleset)
    timing = adapter.timing_rules(rules)
    hooks = cycling_ruleset(ruleset).cycling
    assert hooks is not None
    carried: dict[int, dict[str, object]] = {}
    records: list[StageRecord] = []
    out: set[int] = set()
    crashes: dict[int, int] = {}
    gc_rank: dict[int, tuple[int, int]] = {}
    yellow = green = None
    winners: dict[str, list[bool]] = {key: [] for key in SPECIALIST_AXIS}
    stages: list[dict[str, Any]] = []
    for number, course in enumerate(courses, start=1):
        starters = sorted(
            (r for r in riders if r["id"] not in out),
            key=lambda r: (gc_rank.get(r["id"], (10**9, 0))[0], r["bib"]),
        )
        inputs = StageInputs(
            course=course,
            entrants=tuple(
                Entrant(
                    rider_id=r["id"],
                    team_id=teams[r["team"]],
                    bib=r["bib"],
                    profile=r["profile"],
                    role=r["role"],
                    tour_crash_count=crashes.get(r["id"], 0),
                    gc_rank_before=gc_rank.get(r["id"], (None, 0))[0],
                    gc_time_before=gc_rank.get(r["id"], (None, 0))[1],
                )
                for r in starters
            ),
            settings=adapter.engine_settings(rules),
            extras={
                r["id"]: hooks.rider_of(given.get(r["id"], {}), carried.get(r["id"], {}), course)
                for r in starters
                if r["id"] in carried or r["id"] in given
            },
            yellow_jersey=yellow,
            green_jersey=green,
        )
        trace = Trace()
        road = course.stage_type in ROAD
        favourites = [rid for rid, (rank, _) in gc_rank.items() if rank <= 10]
        seed = stage_seed(base, tour, number)
        if road:
            with traced(ruleset, trace):
                outcome = simulate(ruleset, inputs, seed)
        else:
            outcome = simulate(ruleset, inputs, seed)
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
        stage_crashes = 0
        for result in outcome.results:
            if result.carried:
                carried[result.rider_id] = dict(result.carried)
            crashes[result.rider_id] = crashes.get(result.rider_id, 0) + len(result.crashes)
            stage_crashes += len(result.crashes)
        winner_id = outcome.results[0].rider_id
        stages.append(
            {
                "type": course.stage_type,
                "on_winner_time": sum(1 for t in timed if t.gap_seconds == 0),
                "margin_s": timed[1].gap_seconds if len(timed) > 1 else 0,
                "groups": len({t.gap_seconds for t in timed}),
                "crashes": stage_crashes,
                # One crash with its chain (R-X2) is one incident, as a fan counts crashes.
                "crash_incidents": sum(
                    1 for e in outcome.events if e.kind == "crash" and e.data.get("rule") != "R-X2"
                ),
                "abandons": sum(1 for t in timed if t.status != "finished"),
                "breakaway": won_from_breakaway(trace, winner_id, favourites) if road else None,
                # The definition before issue 16's second round (largest group), for comparison.
                "breakaway_largest": won_from_breakaway(trace, winner_id) if road else None,
            }
        )
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
                        team_id=teams[by_id[t.rider_id]["team"]],
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
            axis = SPECIALIST_AXIS[course.stage_type]
            winners[course.stage_type].append(getattr(by_id[winner_id]["profile"], axis) >= 3)
        tables = all_classifications(records, birth_dates=birth_dates, season_year=2023)
        gc_rank = {line.rider_id: (line.rank, line.value) for line in tables["general"]}
        yellow = tables["general"][0].rider_id if tables["general"] else None
        green = tables["points"][0].rider_id if tables["points"] else None
        if on_stage is not None:
            on_stage(number, timed, tables, records[-1], number == len(courses))
    general = tables["general"]
    gaps = {
        place: general[min(int(place), len(general)) - 1].gap
        for place in GAP_PLACES
        if place != "last"
    }
    gaps["last"] = general[-1].gap
    return {
        "abandon_pct": 100 * len(out) / len(riders),
        "gaps": gaps,
        "winners": winners,
        "stages": stages,
    }


# -- figures -------------------------------------------------------------------------------


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else 0.0


def summarise(tours: list[dict[str, Any]], *, field: int = FULL_FIELD) -> dict[str, Any]:
    stages = [s for t in tours for s in t["stages"]]
    per_type: dict[str, dict[str, float]] = {}
    for stage_type in STAGE_TYPES:
        of_type = [s for s in stages if s["type"] == stage_type]
        if not of_type:
            continue
        per_type[stage_type] = {
            key: round(median([s[key] for s in of_type]), 1)
            for key in (
                "on_winner_time",
                "margin_s",
                "groups",
                "crashes",
                "crash_incidents",
                "abandons",
            )
        }
        per_type[stage_type]["stages"] = len(of_type)
        if stage_type in ROAD:
            per_type[stage_type]["crashes_p90"] = sorted(s["crashes"] for s in of_type)[
                int(0.9 * (len(of_type) - 1))
            ]
            per_type[stage_type]["breakaway_pct"] = round(
                100 * sum(bool(s["breakaway"]) for s in of_type) / len(of_type), 1
            )
    road = [s for s in stages if s["type"] in ROAD]
    won = {}
    for stage_type in SPECIALIST_AXIS:
        flags = [flag for t in tours for flag in t["winners"][stage_type]]
        won[stage_type.lower()] = round(100 * sum(flags) / len(flags), 1) if flags else None
    gaps = {p: int(median([t["gaps"][p] for t in tours])) for p in GAP_PLACES}
    figures = {
        "abandon_pct": round(median([t["abandon_pct"] for t in tours]), 1),
        "gc_gap_s": gaps,
        "won_by_specialist_pct": won,
        "stages": per_type,
        "breakaway_pct": round(100 * sum(bool(s["breakaway"]) for s in road) / len(road), 1),
        "breakaway_pct_vs_largest_group": round(
            100 * sum(bool(s["breakaway_largest"]) for s in road) / len(road), 1
        ),
        "road_crashes": median([s["crashes"] for s in road]),
        "road_crash_incidents": median([s["crash_incidents"] for s in road]),
        "road_abandons": median([s["abandons"] for s in road]),
    }
    values = {
        "flat_on_winner_time": per_type["flat"]["on_winner_time"],
        "mountain_margin_s": per_type["mountain"]["margin_s"],
        "hilly_margin_s": per_type["hilly"]["margin_s"],
        "breakaway_pct": figures["breakaway_pct"],
        "road_crashes": figures["road_crashes"],
        "road_abandons": figures["road_abandons"],
        "gc_2_s": gaps["2"],
        "gc_10_s": gaps["10"],
        "gc_last_s": gaps["last"],
        "abandon_pct": figures["abandon_pct"],
        "flat_won_by_specialist_pct": won["flat"],
        "mountain_won_by_specialist_pct": won["mountain"],
    }
    figures["goals"] = {
        name: {
            "value": values[name],
            "ok": (low is None or values[name] >= low) and (high is None or values[name] <= high),
        }
        for name, (low, high) in GOALS.items()
    }
    figures["seasons"] = season_shares(tours, field=field)
    figures["shares"] = stage_shares(stages, figures, won, bunch=bunch_size(field))
    return figures


def in_band(value: float, low: float | None, high: float | None) -> bool:
    return (low is None or value >= low) and (high is None or value <= high)


def pct(count: int, total: int) -> float:
    return round(100 * count / total, 1) if total else 0.0


def bunch_size(field: int) -> int:
    """The riders on the winner's time that make a bunch finish: 50 of a Grand Tour's field,
    the same share of a smaller one (half up)."""
    return max(2, (2 * BUNCH * field + FULL_FIELD) // (2 * FULL_FIELD))


def season_shares(tours: list[dict[str, Any]], *, field: int) -> dict[str, dict[str, Any]]:
    """Each season band: the median over the seasons, the share of single seasons in band
    (the last rider's gap only in a Grand Tour's field: a smaller one has no gruppetto)."""
    values = {
        "gc_2_s": [t["gaps"]["2"] for t in tours],
        "gc_10_s": [t["gaps"]["10"] for t in tours],
        "gc_last_s": [t["gaps"]["last"] for t in tours],
        "abandon_pct": [round(t["abandon_pct"], 1) for t in tours],
    }
    out = {}
    for name, (low, high, share_low) in SEASON_BANDS.items():
        if name in FIELD_BANDS and field < FULL_FIELD:
            continue
        seen = values[name]
        share = pct(sum(in_band(v, low, high) for v in seen), len(seen))
        out[name] = {
            "median": median(seen),
            "in_band_pct": share,
            "below": sum(v < low for v in seen),
            "above": sum(v > high for v in seen),
            "ok": share >= share_low,
        }
    return out


def stage_shares(
    stages: list[dict[str, Any]],
    figures: dict[str, Any],
    won: dict[str, float | None],
    *,
    bunch: int = BUNCH,
) -> dict[str, Any]:
    """The shares of stages that show each thing of STAGE_SHARES, and the crash size."""
    flat = [s for s in stages if s["type"] == "flat"]
    mountain = [s for s in stages if s["type"] == "mountain"]
    road = [s for s in stages if s["type"] in ROAD]
    margins = Counter(s["margin_s"] for s in mountain)
    # Margins in steps: the most stages whose margins fall in one 5 s bin, 0 s (two riders
    # together at the line, as on a valley finish) aside.
    steps = Counter(int(s["margin_s"]) // STEP_S for s in mountain if s["margin_s"] > 0)
    step, step_count = steps.most_common(1)[0] if steps else (0, 0)
    values = {
        "flat_bunch_pct": pct(sum(s["on_winner_time"] >= bunch for s in flat), len(flat)),
        "mountain_margin_pct": pct(sum(10 <= s["margin_s"] <= 90 for s in mountain), len(mountain)),
        "mountain_margin_step_pct": pct(step_count, len(mountain)),
        "road_crash_pct": pct(sum(s["crashes"] > 0 for s in road), len(road)),
        "breakaway_pct": figures["breakaway_pct"],
        "flat_won_by_specialist_pct": won["flat"] or 0.0,
        "mountain_won_by_specialist_pct": won["mountain"] or 0.0,
    }
    out: dict[str, Any] = {
        name: {"value": values[name], "ok": in_band(values[name], low, high)}
        for name, (_, low, high) in STAGE_SHARES.items()
    }
    out["flat_bunch_pct"]["bunch"] = bunch
    out["mountain_margin_step_pct"]["from_s"] = step * STEP_S
    out["mountain_margins_common"] = [
        [margin, pct(count, len(mountain))] for margin, count in margins.most_common(4)
    ]
    crashing = [s["crashes"] for s in road if s["crashes"] > 0]
    out["crash_riders"] = {
        "value": median(crashing),
        "ok": median(crashing) <= CRASH_RIDERS_MAX,
    }
    return out


def hms(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def report(title: str, figures: dict[str, Any]) -> None:
    print(f"== {title} (medians)")
    print(f"abandons             {figures['abandon_pct']:6.1f} %          {REAL['abandon_pct']}")
    for place in GAP_PLACES:
        gap = figures["gc_gap_s"][place]
        print(f"GC gap of {place:<5}      {hms(gap):>10}          {REAL[place]}")
    for stage_type, pct in figures["won_by_specialist_pct"].items():
        axis = SPECIALIST_AXIS["ITT" if stage_type == "itt" else stage_type]
        print(f"{stage_type:<9} won by {axis} >= 3: {pct} %   {REAL['won']}")
    print(
        "stage type | stages | on winner's time | margin s | groups | crashes (p90) | "
        "abandons | breakaway wins"
    )
    for stage_type, row in figures["stages"].items():
        real_on = REAL["on_winner_time"].get(stage_type, "-")  # type: ignore[union-attr]
        real_margin = REAL["margin_s"].get(stage_type, "-")  # type: ignore[union-attr]
        print(
            f"{stage_type:<10} | {row['stages']:>6} | {row['on_winner_time']:>6} ({real_on}) | "
            f"{row['margin_s']:>6} ({real_margin}) | {row['groups']:>5} | "
            f"{row['crashes']:>4} ({row.get('crashes_p90', '-')}) | {row['abandons']:>4} | "
            f"{row.get('breakaway_pct', '-')} %"
        )
    print(
        f"road stages: breakaway wins {figures['breakaway_pct']} % ({REAL['breakaway_pct']}), "
        f"riders crashed {figures['road_crashes']} ({REAL['crashes']}; crashes counting a "
        f"chain as one: {figures['road_crash_incidents']}), abandons "
        f"{figures['road_abandons']} a stage"
    )
    misses = [name for name, goal in figures["goals"].items() if not goal["ok"]]
    print("goals on the medians missed (issue 16): " + (", ".join(misses) if misses else "none"))
    print("single seasons in band (issue 32: 80 % or more of them):")
    for name, row in figures["seasons"].items():
        low, high, _ = SEASON_BANDS[name]
        shown = hms if name.endswith("_s") else (lambda v: f"{round(v, 1)} %")
        print(
            f"  {name:<12} median {shown(row['median']):>9} | band {shown(low)}-{shown(high)}: "
            f"{row['in_band_pct']:5.1f} % of seasons ({row['below']} below, {row['above']} "
            f"above) {'ok' if row['ok'] else 'MISSED'}"
        )
    print("stages (issue 32):")
    for name, (what, low, high) in STAGE_SHARES.items():
        row = figures["shares"][name]
        if name == "flat_bunch_pct":
            what = what.replace("50", str(row["bunch"]))
        band = f"{low if low is not None else ''}-{high if high is not None else ''} %"
        print(f"  {what:<58} {row['value']:5.1f} % ({band}) {'ok' if row['ok'] else 'MISSED'}")
    common = ", ".join(f"{m} s: {p} %" for m, p in figures["shares"]["mountain_margins_common"])
    step = figures["shares"]["mountain_margin_step_pct"]["from_s"]
    print(f"  most common mountain margins: {common}; the largest step from {step} s")
    crash = figures["shares"]["crash_riders"]
    print(
        f"  riders down on a road stage with a crash (median): {crash['value']} "
        f"(at most {CRASH_RIDERS_MAX}) {'ok' if crash['ok'] else 'MISSED'}"
    )
    missed = [n for n, r in figures["seasons"].items() if not r["ok"]] + [
        n for n in [*STAGE_SHARES, "crash_riders"] if not figures["shares"][n]["ok"]
    ]
    print("issue 32's goals missed: " + (", ".join(missed) if missed else "none"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tours", type=int, default=20, help="demo Tours; 0: none")
    parser.add_argument("--league-tours", type=int, default=20, help="0: no league")
    parser.add_argument(
        "--small-field-tours",
        type=int,
        default=20,
        help="Tours of the 4-player league's own 32 riders only (a smaller field); 0: none",
    )
    parser.add_argument("--ruleset", default="moreno")
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the first seed (stage n of Tour t: seed + 1000 t + n); default: a fresh random "
        "one, printed; 0: the seeds the rules were tuned on",
    )
    args = parser.parse_args()
    # Fresh seeds by default, a multiple of a million so that no stage repeats another run's.
    base = args.seed if args.seed is not None else secrets.randbelow(2**31) * 1_000_000
    print(f"seeds: --seed {base} (stage n of Tour t: {base} + 1000 t + n)")
    riders, courses = load_demo()
    result: dict[str, Any] = {"ruleset": args.ruleset, "tours": args.tours, "seed": base}
    if args.tours:
        demo = [
            simulate_tour(riders, courses, ruleset=args.ruleset, tour=t, base=base)
            for t in range(1, args.tours + 1)
        ]
        result["demo"] = summarise(demo)
        report(f"{args.ruleset}: {args.tours} demo Tours", result["demo"])
    if args.league_tours:
        league = league_riders(riders)
        tours = [
            simulate_tour(league, courses, ruleset=args.ruleset, tour=t, base=base)
            for t in range(1, args.league_tours + 1)
        ]
        result["league_tours"] = args.league_tours
        result["league"] = summarise(tours)
        report(
            f"{args.ruleset}: {args.league_tours} Tours of a {LEAGUE_PLAYERS}-player league "
            f"({LEAGUE_ROSTER} riders each, the rest in computer teams)",
            result["league"],
        )
    if args.small_field_tours:
        small = [r for r in league_riders(riders) if str(r["team"]).startswith("Player ")]
        tours = [
            simulate_tour(small, courses, ruleset=args.ruleset, tour=t, base=base)
            for t in range(1, args.small_field_tours + 1)
        ]
        result["small_field_tours"] = args.small_field_tours
        result["small_field"] = summarise(tours, field=len(small))
        report(
            f"{args.ruleset}: {args.small_field_tours} Tours of the league's {len(small)} riders "
            "alone (a smaller field: a bunch is the same share of it as 50 riders of 176; the "
            "medians' goals of the field's size, riders on the winner's time and the GC gaps of "
            "the 50th and the last, and the last rider's season band do not apply)",
            result["small_field"],
        )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
