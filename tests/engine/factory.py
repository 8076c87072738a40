"""A deterministic peloton and courses for engine tests (no files, no database)."""

from __future__ import annotations

import random

from engine.cycling.course import Course, Segment
from engine.cycling.inputs import Entrant, StageInputs
from engine.cycling.profile import PROFILE_AXES, Profile
from engine.rulesets.moreno.settings import MorenoSettings

TEAMS = 22
PER_TEAM = 8


#: Rating ranges by kind of rider, in the order of the axes of Profile (the draws follow it).
AXES = PROFILE_AXES
_RANGES: dict[str, tuple[tuple[int, int], ...]] = {
    "leader": ((1, 2), (-1, 0), (0, 1), (1, 2), (0, 2), (1, 4), (1, 3), (3, 4)),
    "sprinter": ((1, 2), (2, 4), (-1, 0), (0, 2), (0, 1), (0, 1), (0, 1), (-1, 0)),
    "baroudeur": ((1, 3), (0, 1), (1, 3), (0, 2), (0, 2), (0, 2), (0, 2), (0, 2)),
    "climber": ((0, 1), (-1, 0), (0, 2), (0, 1), (0, 2), (0, 1), (1, 2), (1, 3)),
    "rouleur": ((1, 3), (0, 1), (0, 1), (0, 1), (0, 1), (0, 2), (0, 1), (-1, 1)),
}


def _profile(rng: random.Random, kind: str) -> Profile:
    """A profile of ``kind``: each rating drawn in its range, clamped to H..4."""
    return Profile(
        **{
            axis: max(-1, min(4, rng.randint(lo, hi)))
            for axis, (lo, hi) in zip(AXES, _RANGES[kind], strict=True)
        }
    )


_KINDS = (
    ("leader", "gc_leader"),
    ("sprinter", "sprinter"),
    ("baroudeur", "breakaway"),
    ("baroudeur", "domestique"),
    ("climber", "domestique"),
    ("climber", "domestique"),
    ("rouleur", "domestique"),
    ("rouleur", "domestique"),
)


def peloton(n_teams: int = TEAMS, per_team: int = PER_TEAM, seed: int = 7) -> tuple[Entrant, ...]:
    """``n_teams`` x ``per_team`` riders with realistic mixes of profiles, in bib order."""
    rng = random.Random(seed)
    riders = []
    for t in range(n_teams):
        for i in range(per_team):
            kind, role = _KINDS[i % len(_KINDS)]
            bib = (t + 1) * 10 + i + 1
            riders.append(
                Entrant(
                    rider_id=1000 + bib,
                    team_id=t + 1,
                    bib=bib,
                    profile=_profile(rng, kind),
                    role=role,
                )
            )
    return tuple(riders)


def flat_course(km: float = 180.0, sprint_km: float | None = 90.0) -> Course:
    return Course(
        "Flat stage",
        "flat",
        km,
        (
            Segment("plain", km * 0.6, "Plain"),
            Segment("hill", 1.5, "Côte de test"),
            Segment("plain", km * 0.4 - 1.5, "Run-in"),
        ),
        (sprint_km,) if sprint_km is not None else (),
    )


def mountain_course() -> Course:
    return Course(
        "Mountain stage",
        "mountain",
        170.0,
        (
            Segment("plain", 60.0, "Valley"),
            Segment("col2", 8.0, "Col de la Croix"),
            Segment("descent", 12.0, "Descent"),
            Segment("plain", 40.0, "Valley 2"),
            Segment("col1", 12.0, "Col du Pré"),
            Segment("descent", 10.0, "Descent 2"),
            Segment("plain", 13.0, "Foot"),
            Segment("colhc", 15.0, "Montée finale"),
        ),
        (100.0,),
    )


def itt_course() -> Course:
    return Course(
        "Time trial",
        "ITT",
        30.0,
        (
            Segment("plain", 20.0, "Flat"),
            Segment("hill", 3.0, "Côte"),
            Segment("descent", 3.0, "Down"),
            Segment("plain", 4.0, "Finish"),
        ),
    )


def ttt_course() -> Course:
    return Course("Team time trial", "TTT", 30.0, (Segment("plain", 30.0, "Flat"),))


def stage(
    course: Course,
    entrants: tuple[Entrant, ...] | None = None,
    settings: MorenoSettings | None = None,
) -> StageInputs:
    return StageInputs(course, entrants or peloton(), settings or MorenoSettings())
