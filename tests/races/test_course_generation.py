"""Generated courses (docs/import.md "Generated courses"): the rule, its properties over any
facts, and the import step that gives every imported stage a course."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cycling.course import STAGE_TYPES, Course, Segment, build_board
from races.course_generation import (
    CourseUnbuildable,
    StageFacts,
    course_generate,
    route_problems,
    stage_courses_generate,
)
from races.course_validation import CLIMB_TERRAINS, course_errors
from races.importing import results_import
from races.models import Stage
from tests.factories import StageFactory
from tests.importing.files import PCS, data_files


def _board(facts: StageFacts):
    course = course_generate(facts)
    return course, build_board(
        Course(
            name="generated",
            stage_type=facts.stage_type,
            distance_km=facts.distance_km,
            segments=tuple(Segment(s["terrain"], s["km"], s["name"]) for s in course.segments),
            intermediate_sprints_km=tuple(course.intermediate_sprints_km),
        )
    )


def _terrains(facts: StageFacts) -> list[str]:
    return [s["terrain"] for s in course_generate(facts).segments]


def test_a_p5_stage_ends_on_a_summit_named_after_its_finish():
    # Tour 2022 stage 18 as ProCyclingStats gives it.
    facts = StageFacts("mountain", 143.2, "p5", 367, 3980, finish="Hautacam")
    course, board = _board(facts)
    last = course.segments[-1]
    assert (last["terrain"], last["name"]) == ("colhc", "Hautacam")
    assert board.sprint_zone_start is None
    assert board.climbs[-1].line == board.n_cases
    # 3980 m less 5 m per km of rolling roads: room for the summit and two more cols.
    assert [t for t in _terrains(facts) if t in CLIMB_TERRAINS] == ["col2", "col1", "colhc"]


def test_a_flat_stage_is_plain_with_the_sprint_at_the_line():
    facts = StageFacts("flat", 115.6, "p1", 9, 590)  # Tour 2022 stage 21, Paris
    course, board = _board(facts)
    assert _terrains(facts) == ["plain"]
    assert board.sprint_zone_start == board.n_cases - 12
    assert course.intermediate_sprints_km == [63.6]


def test_a_flat_stage_with_more_climbing_gets_hills_far_from_the_line():
    facts = StageFacts("flat", 188.3, "p1", 23, 1721)  # stage 19: 1721 m
    course = course_generate(facts)
    assert _terrains(facts) == ["plain", "hill", "plain", "hill", "plain"]
    assert course.segments[-1]["km"] == round(0.35 * 188.3, 1)


def test_a_p4_stage_ends_after_a_descent_and_a_short_run_in():
    terrains = _terrains(StageFacts("mountain", 183, "p4"))
    assert terrains[-3:] == ["col1", "descent", "plain"]


def test_a_p3_stage_ends_on_a_hill():
    assert _terrains(StageFacts("hilly", 220, "p3"))[-1] == "hill"


def test_without_an_icon_the_type_decides():
    assert _terrains(StageFacts("mountain", 176))[-1] in ("col1", "colhc")
    assert _terrains(StageFacts("hilly", 172))[-1] == "plain"
    assert _terrains(StageFacts("hilly", 172, "p0"))[-1] == "plain"


def test_time_trials_have_no_intermediate_sprint_and_a_flat_one_is_one_plain():
    flat = course_generate(StageFacts("ITT", 13))
    assert flat.segments == [{"terrain": "plain", "km": 13.0, "name": ""}]
    assert flat.intermediate_sprints_km == []
    hilly = course_generate(StageFacts("ITT", 40.7, "p2", 41, 518))  # stage 20, Rocamadour
    assert [s["terrain"] for s in hilly.segments] == ["plain", "hill", "plain"]
    assert hilly.intermediate_sprints_km == []
    uphill = course_generate(StageFacts("ITT", 18, "p5", finish="La Planche"))
    assert uphill.segments[-1]["terrain"] == "col1"
    assert course_generate(StageFacts("TTT", 31.6)).segments[0]["terrain"] == "plain"


def test_the_same_facts_always_give_the_same_course():
    facts = StageFacts("hilly", 184, "p2", 120, 2600)
    assert course_generate(facts) == course_generate(facts)


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        (StageFacts("prologue", 8), "the stage type 'prologue' is not one of"),
        (StageFacts("flat", 0.4), "a distance of 0.4 km is too short"),
        (StageFacts("flat", 150, "p9"), "the profile icon 'p9' is not one of p0 to p5"),
    ],
)
def test_facts_that_give_no_course_say_why(facts, message):
    with pytest.raises(CourseUnbuildable, match=message):
        course_generate(facts)


@settings(max_examples=300, deadline=None)
@given(
    stage_type=st.sampled_from(STAGE_TYPES),
    tenths=st.integers(min_value=10, max_value=3200),
    icon=st.sampled_from(["", "p0", "p1", "p2", "p3", "p4", "p5"]),
    score=st.none() | st.integers(min_value=0, max_value=700),
    vertical=st.none() | st.integers(min_value=0, max_value=7000),
)
def test_every_generated_course_is_valid_adds_up_exactly_and_builds_a_board(
    stage_type, tenths, icon, score, vertical
):
    facts = StageFacts(stage_type, tenths / 10, icon, score, vertical, finish="Somewhere")
    course, board = _board(facts)
    assert course_errors(course.segments, facts.distance_km) == []
    assert sum(round(s["km"] * 10) for s in course.segments) == tenths
    assert all(s["km"] > 0 for s in course.segments)
    assert board.n_cases >= 1
    for km in course.intermediate_sprints_km:
        assert 0 < km < facts.distance_km
    if stage_type in ("ITT", "TTT"):
        assert course.intermediate_sprints_km == []


# --- in the database ------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_import_gives_every_stage_a_generated_course_from_its_profile():
    report = results_import(files=data_files(folder=PCS))
    assert report.ok, report.lines()
    assert report.created["generated courses"] == 4
    stage = Stage.objects.get(race__slug="tour-de-france-2022", number=18)
    assert (stage.profile_score, stage.vertical_meters, stage.course_generated) == (367, 3980, True)
    assert stage.segments[-1] == {"terrain": "colhc", "km": 15.0, "name": "Hautacam"}
    assert course_errors(stage.segments, stage.distance_km) == []
    again = results_import(files=data_files(folder=PCS))
    assert not again.changed, again.lines()


@pytest.mark.django_db
def test_a_course_an_admin_edited_survives_a_re_import():
    results_import(files=data_files(folder=PCS))
    stage = Stage.objects.get(race__slug="tour-de-france-2022", number=21)
    edited = [{"terrain": "plain", "km": 100.6, "name": ""}, {"terrain": "hill", "km": 15.0}]
    Stage.objects.filter(pk=stage.pk).update(segments=edited, course_generated=False)
    results_import(files=data_files(folder=PCS))
    stage.refresh_from_db()
    assert (stage.segments, stage.course_generated) == (edited, False)


@pytest.mark.django_db
def test_a_generated_course_follows_its_stage_when_the_facts_change():
    stage = StageFactory(segments=[], distance_km=150, stage_type="flat")
    assert stage_courses_generate(stages=[stage]).created == 1
    stage.distance_km = 180
    count = stage_courses_generate(stages=[stage])
    stage.refresh_from_db()
    assert (count.created, count.updated) == (0, 1)
    assert sum(s["km"] for s in stage.segments) == pytest.approx(180)


@pytest.mark.django_db
def test_route_problems_name_each_stage_that_cannot_be_raced():
    good = StageFactory(number=1)
    race = good.race
    StageFactory(race=race, number=2, segments=[], distance_km=150)  # buildable: no problem
    StageFactory(race=race, number=3, start="Pau", finish="Laruns", distance_km=160)
    Stage.objects.filter(number=3).update(segments=[{"terrain": "plain", "km": 157}])
    StageFactory(
        race=race, number=4, start="", finish="", segments=[], profile_icon="p9", distance_km=150
    )
    problems = route_problems(race.stages.order_by("number"))
    assert problems == [
        "Stage 3 (Pau – Laruns): the segments add up to 157.0 km but the stage is 160.0 km: "
        "3.0 km missing.",
        "Stage 4: no course, and none can be built: the profile icon 'p9' is not one of p0 to p5.",
    ]
