"""A plausible course for a stage that has none, built from what the imported files tell.

Imported stages carry a type, a distance and, from ProCyclingStats, a profile icon (p0 to p5),
a profile score and the vertical metres; never their climbs. The rule below (documented in
docs/import.md, "Generated courses") turns those facts into segments the engines can race
(moreno.md §2.6), marked as generated so that an admin can replace them with the real climbs.

The rule is a pure function of the facts: the same stage always gets the same course, so a
re-import changes nothing. The services at the bottom apply it to stages in the database.
"""

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from django.utils.translation import gettext as _

from engine.cycling.course import STAGE_TYPES, TIME_TRIALS
from races.course_validation import course_errors, stage_label
from races.models import Stage

# --- the facts and the shapes -------------------------------------------------------------


@dataclass(frozen=True)
class StageFacts:
    """What a course is built from."""

    stage_type: str
    distance_km: float
    profile_icon: str = ""
    profile_score: int | None = None
    vertical_meters: int | None = None
    finish: str = ""


@dataclass(frozen=True)
class GeneratedCourse:
    segments: list[dict[str, object]]
    intermediate_sprints_km: list[float]


class CourseUnbuildable(ValueError):
    """The facts give no course; the message says which fact is missing or wrong."""


# The finish a stage gets, by ProCyclingStats' profile icon (p0: unknown, decided by the type).
FLAT = "flat"  # plain, one or two hills, a plain run-in: the sprint at the line
HILLS = "hills"  # hills and cat. 3-2 climbs, the last well before a plain run-in
HILLS_UPHILL = "hills_uphill"  # the same, ending on a short climb at the line (a hill)
MOUNTAINS = "mountains"  # cols with their descents, a short plain run-in after the last one
SUMMIT = "summit"  # cols, the last one ending at the line (a summit finish)
ICON_SHAPES = {"p1": FLAT, "p2": HILLS, "p3": HILLS_UPHILL, "p4": MOUNTAINS, "p5": SUMMIT}
# Without an icon the type decides. A Grand Tour's "mountain" stages mostly end uphill (five
# of the six of the 2022 Tour), so a mountain stage without an icon gets a summit finish.
TYPE_SHAPES = {"flat": FLAT, "hilly": HILLS, "mountain": SUMMIT, "ITT": FLAT, "TTT": FLAT}

#: Typical climbs by terrain: (km, metres climbed), from the Tour's categorised climbs.
CLIMBS: dict[str, tuple[float, int]] = {
    "hill": (2.0, 110),
    "col3": (4.5, 230),
    "col2": (7.0, 420),
    "col1": (11.0, 750),
    "colhc": (15.0, 1100),
}
#: A col's descent is this share of its climb (climbs of cat. 2 and harder).
DESCENT_SHARE = 0.8
DESCENT_AFTER = frozenset({"col2", "col1", "colhc"})
#: Metres per km that rolling roads climb outside the categorised climbs.
ROLLING_METRES_PER_KM = 5.0
#: ProCyclingStats' profile score, in metres of categorised climbing, when no vertical metres.
METRES_PER_PROFILE_POINT = 9.0
#: Categorised climbing per km when the files tell neither vertical metres nor a score.
DEFAULT_METRES_PER_KM = {FLAT: 1.0, HILLS: 6.0, HILLS_UPHILL: 6.0, MOUNTAINS: 18.0, SUMMIT: 18.0}
#: Climbs (and their descents) take at most this share of a stage; longer ones are shortened.
MAX_CLIMBING_SHARE = 0.6
MIN_SEGMENT_TENTHS = 5  # 0.5 km: one case of the board


@dataclass(frozen=True)
class _Ladder:
    """The climbs a shape may get, from the finish backwards, taken while the metres last."""

    finale: str | None  # a climb ending at the line
    climbs: tuple[str, ...]
    minimum: int  # climbs before the finale, whatever the metres


ROAD_LADDERS = {
    FLAT: _Ladder(None, ("hill", "hill"), 0),
    HILLS: _Ladder(None, ("col3", "hill", "col2", "hill", "col3"), 2),
    HILLS_UPHILL: _Ladder("hill", ("col3", "hill", "col2", "col3"), 1),
    MOUNTAINS: _Ladder(None, ("col1", "col2", "colhc", "col3", "col1"), 2),
    SUMMIT: _Ladder("col1", ("col1", "col2", "colhc", "col3"), 1),
}
TIME_TRIAL_LADDERS = {
    FLAT: _Ladder(None, (), 0),
    HILLS: _Ladder(None, ("hill", "col3"), 1),
    HILLS_UPHILL: _Ladder("hill", ("hill",), 0),
    MOUNTAINS: _Ladder(None, ("col2",), 1),
    SUMMIT: _Ladder("col1", (), 0),
}
#: A summit finish is hors catégorie when the stage climbs at least this much.
HC_FINALE_METRES = 2400
#: The plain run-in after the last climb (or its descent): a share of the stage, at least km.
RUN_IN = {FLAT: (0.35, 20.0), HILLS: (0.08, 12.0), MOUNTAINS: (0.05, 8.0)}


def stage_shape(facts: StageFacts) -> str:
    """The finish the stage gets: its profile icon if it tells, else its type."""
    icon = facts.profile_icon.strip().lower()
    if icon and icon != "p0":
        if icon not in ICON_SHAPES:
            raise CourseUnbuildable(
                _("the profile icon %(icon)s is not one of p0 to p5") % {"icon": repr(icon)}
            )
        return ICON_SHAPES[icon]
    return TYPE_SHAPES[facts.stage_type]


def climbing_metres(facts: StageFacts, shape: str) -> float:
    """Metres of categorised climbing: vertical metres less the rolling roads, else the
    profile score, else a default by shape."""
    if facts.vertical_meters is not None:
        return max(0.0, facts.vertical_meters - ROLLING_METRES_PER_KM * facts.distance_km)
    if facts.profile_score is not None:
        return METRES_PER_PROFILE_POINT * facts.profile_score
    return DEFAULT_METRES_PER_KM[shape] * facts.distance_km


def _climbs(ladder: _Ladder, metres: float) -> tuple[str | None, list[str]]:
    """The finale and the other climbs, from the finish backwards."""
    finale = ladder.finale
    if finale == "col1" and metres >= HC_FINALE_METRES:
        finale = "colhc"
    spent = CLIMBS[finale][1] if finale else 0
    chosen: list[str] = []
    for terrain in ladder.climbs:
        gain = CLIMBS[terrain][1]
        if len(chosen) >= ladder.minimum and spent + gain > metres:
            break
        chosen.append(terrain)
        spent += gain
    return finale, chosen


# --- building the segments, in tenths of km so that they add up exactly -------------------


def _tenths(km: float) -> int:
    return round(km * 10)


def _climb_blocks(finale: str | None, climbs: Sequence[str]) -> list[list[tuple[str, int]]]:
    """Each climb as a block of segments (the climb, then its descent on a col of cat. 2 or
    harder), from the start onwards, the finale last."""
    blocks = []
    for terrain in reversed(climbs):
        block = [(terrain, _tenths(CLIMBS[terrain][0]))]
        if terrain in DESCENT_AFTER:
            block.append(("descent", _tenths(CLIMBS[terrain][0] * DESCENT_SHARE)))
        blocks.append(block)
    if finale:
        blocks.append([(finale, _tenths(CLIMBS[finale][0]))])
    return blocks


def _tenths_of(blocks: Sequence[Sequence[tuple[str, int]]]) -> int:
    return sum(tenths for block in blocks for _, tenths in block)


def _fit(blocks: list[list[tuple[str, int]]], budget: int) -> list[list[tuple[str, int]]]:
    """Shorten every climb and descent alike so that they take at most `budget` tenths; on a
    stage too short for that, drop climbs from the start until the rest fit."""
    while True:
        total = _tenths_of(blocks)
        if total <= budget:
            return blocks
        shrunk = [
            [
                (terrain, max(MIN_SEGMENT_TENTHS, tenths * budget // total))
                for terrain, tenths in block
            ]
            for block in blocks
        ]
        if _tenths_of(shrunk) <= budget or len(blocks) == 1:
            return shrunk
        blocks = blocks[1:]


def _layout(
    distance: int, blocks: list[list[tuple[str, int]]], *, run_in: int
) -> list[tuple[str, int]]:
    """Plain between the climbs, then the run-in: the plain before the first climb is twice
    each later gap, so that the race warms up before the climbs come at even intervals."""
    free = distance - _tenths_of(blocks)
    # A short stage: the run-in gives way first, every gap keeps at least one case.
    run_in = max(0, min(run_in, free - MIN_SEGMENT_TENTHS * (len(blocks) + 1)))
    plain = free - run_in
    if not blocks:
        return [("plain", distance)]
    unit = plain // (len(blocks) + 1)
    gaps = [plain - unit * (len(blocks) - 1)] + [unit] * (len(blocks) - 1)
    segments: list[tuple[str, int]] = []
    for gap, block in zip(gaps, blocks, strict=True):
        segments.append(("plain", gap))
        segments.extend(block)
    segments.append(("plain", run_in))
    return _tidy(segments)


def _tidy(segments: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Drop empty segments and join two plains in a row."""
    tidy: list[tuple[str, int]] = []
    for terrain, tenths in segments:
        if tenths <= 0:
            continue
        if tidy and terrain == "plain" and tidy[-1][0] == "plain":
            tidy[-1] = ("plain", tidy[-1][1] + tenths)
        else:
            tidy.append((terrain, tenths))
    return tidy


def _sprint_km(segments: Sequence[tuple[str, int]], distance: int) -> float | None:
    """The intermediate sprint: on the plain, as near as can be to 55 % of the route."""
    target = distance * 0.55
    best: tuple[float, float] | None = None
    start = 0
    for terrain, tenths in segments:
        end = start + tenths
        if terrain == "plain" and tenths >= 2 * MIN_SEGMENT_TENTHS:
            at = min(max(target, start + MIN_SEGMENT_TENTHS), end - MIN_SEGMENT_TENTHS)
            if best is None or abs(at - target) < best[0]:
                best = (abs(at - target), at)
        start = end
    return None if best is None else round(best[1]) / 10


def course_generate(facts: StageFacts) -> GeneratedCourse:
    """The course the rule gives these facts (docs/import.md "Generated courses")."""
    if facts.stage_type not in STAGE_TYPES:
        raise CourseUnbuildable(
            _("the stage type %(type)s is not one of %(types)s")
            % {"type": repr(facts.stage_type), "types": ", ".join(STAGE_TYPES)}
        )
    distance = _tenths(facts.distance_km)
    if distance < 2 * MIN_SEGMENT_TENTHS:
        raise CourseUnbuildable(
            _("a distance of %(km)s km is too short for a course") % {"km": facts.distance_km}
        )
    shape = stage_shape(facts)
    time_trial = facts.stage_type in TIME_TRIALS
    ladder = (TIME_TRIAL_LADDERS if time_trial else ROAD_LADDERS)[shape]
    finale, climbs = _climbs(ladder, climbing_metres(facts, shape))
    blocks = _fit(_climb_blocks(finale, climbs), int(distance * MAX_CLIMBING_SHARE))
    run_in = 0
    if finale is None:
        share, least = RUN_IN[shape]
        run_in = max(_tenths(least), round(distance * share))
    segments = _layout(distance, blocks, run_in=run_in)
    named = [
        {
            "terrain": terrain,
            "km": tenths / 10,
            "name": facts.finish if finale and index == len(segments) - 1 else "",
        }
        for index, (terrain, tenths) in enumerate(segments)
    ]
    sprint = None if time_trial else _sprint_km(segments, distance)
    return GeneratedCourse(segments=named, intermediate_sprints_km=[sprint] if sprint else [])


def facts_of(stage: Stage) -> StageFacts:
    return StageFacts(
        stage_type=stage.stage_type,
        distance_km=float(stage.distance_km),
        profile_icon=stage.profile_icon or "",
        profile_score=stage.profile_score,
        vertical_meters=stage.vertical_meters,
        finish=stage.finish or "",
    )


# --- the stages of a route ----------------------------------------------------------------


def route_problems(stages: Iterable[Stage]) -> list[str]:
    """Why each stage that cannot be raced cannot: a stored course the engine would refuse
    (course_errors), or no course and nothing to build one from. Empty: every stage races."""
    problems = []
    for stage in stages:
        label = stage_label(stage)
        if stage.stage_type not in STAGE_TYPES:
            problems.append(
                _("%(stage)s: the type %(type)s is not one of %(types)s.")
                % {"stage": label, "type": repr(stage.stage_type), "types": ", ".join(STAGE_TYPES)}
            )
        elif stage.segments:
            problems += course_errors(stage.segments, stage.distance_km, stage=label)
        else:
            try:
                course_generate(facts_of(stage))
            except CourseUnbuildable as error:
                problems.append(
                    _("%(stage)s: no course, and none can be built: %(reason)s.")
                    % {"stage": label, "reason": error}
                )
    return problems


@dataclass
class GenerationCount:
    created: int = 0
    updated: int = 0


def stage_courses_generate(*, stages: Iterable[Stage]) -> GenerationCount:
    """Give every stage without a course, or whose course is still the generated one, the
    course the rule builds from its facts; write only the stages that change. A course an
    admin edited is kept; a stage whose facts give no course keeps what it has (season
    creation lists it, see `route_problems`)."""
    count = GenerationCount()
    changed = []
    for stage in stages:
        if stage.segments and not stage.course_generated:
            continue
        try:
            course = course_generate(facts_of(stage))
        except CourseUnbuildable:
            continue
        sprints = course.intermediate_sprints_km
        if (
            stage.segments == course.segments
            and stage.intermediate_sprints_km == sprints
            and stage.course_generated
        ):
            continue
        if stage.segments:
            count.updated += 1
        else:
            count.created += 1
        stage.segments = course.segments
        stage.intermediate_sprints_km = sprints
        stage.course_generated = True
        changed.append(stage)
    Stage.objects.bulk_update(changed, ["segments", "intermediate_sprints_km", "course_generated"])
    return count


class _Counts(Protocol):
    created: Counter[str]
    updated: Counter[str]


def stage_courses_generate_for_import(*, stage_ids: Iterable[int | None], report: _Counts) -> None:
    """The import's last step for stages (races.importing.writer): a course for every stage of
    the imported races that has none, counted in the import's report."""
    stages = Stage.objects.filter(pk__in=[pk for pk in stage_ids if pk is not None])
    count = stage_courses_generate(stages=stages.order_by("race_id", "number"))
    report.created["generated courses"] += count.created
    report.updated["generated courses"] += count.updated
