"""The mountains classification of a resolved mountain stage, read from the summit events'
data (engine.cycling.events): each summit's category is its event's ``terrain``."""

import html

import pytest
from django.urls import reverse

from races.classifications import CLIMB_POINTS, DOUBLED_AT_SUMMIT_FINISH
from races.models import Classification, RaceEntry, RaceEvent, Stage, Standing
from riders.models import Rider
from season.models import Round
from season.services import lifecycle, resolution
from tests.factories import StageFactory
from tests.season.builders import league, stage, template_race

pytestmark = pytest.mark.django_db

#: A mountain stage: a col1 halfway, a summit finish on an HC climb (its points doubled).
MOUNTAIN = [
    {"terrain": "plain", "km": 40, "name": "Valley"},
    {"terrain": "col1", "km": 10, "name": "Col du Premier"},
    {"terrain": "descent", "km": 10, "name": "Descent"},
    {"terrain": "plain", "km": 20, "name": "Foot"},
    {"terrain": "colhc", "km": 12, "name": "Montée finale"},
]


@pytest.fixture
def resolved(charlie):
    template = template_race(stages=0, real_teams=4, riders_per_team=4)
    StageFactory(
        race=template,
        number=1,
        stage_type=Stage.StageType.MOUNTAIN,
        distance_km=92,
        segments=MOUNTAIN,
        intermediate_sprints_km=[30],
    )
    StageFactory(race=template, number=2)
    # The start list: every rider, in computer teams at the start (docs/league.md).
    for bib, rider in enumerate(Rider.objects.order_by("pk"), start=1):
        RaceEntry.objects.create(race=template, rider=rider, team=rider.team, bib=bib)
    season = league(organiser=charlie, template=template)
    Round.objects.filter(season=season, number=1).update(status=Round.Status.OPEN)
    return resolution.round_resolve(round_id=stage(season, 1).pk)


def test_the_summit_events_carry_each_climb_and_its_category(resolved):
    summits = RaceEvent.objects.filter(stage=resolved.stage, kind=RaceEvent.Kind.SUMMIT)
    data = [e.data for e in summits.order_by("seq")]
    assert [(d["climb"], d["terrain"]) for d in data] == [
        ("Col du Premier", "col1"),
        ("Montée finale", "colhc"),
    ]
    (sprint,) = RaceEvent.objects.filter(
        stage=resolved.stage, kind=RaceEvent.Kind.INTERMEDIATE_SPRINT
    )
    assert sprint.data["km"] == 30.0
    assert all(e.case == e.data["case"] for e in summits)


def test_the_mountains_standings_come_from_the_summits_data(resolved):
    expected: dict[int, int] = {}
    summits = list(
        RaceEvent.objects.filter(stage=resolved.stage, kind=RaceEvent.Kind.SUMMIT).order_by("seq")
    )
    for index, event in enumerate(summits):
        terrain = event.data["terrain"]
        summit_finish = index == len(summits) - 1  # the stage ends on its last climb
        factor = 2 if summit_finish and terrain in DOUBLED_AT_SUMMIT_FINISH else 1
        for rider_id, points in zip(event.rider_ids, CLIMB_POINTS[terrain], strict=False):
            expected[rider_id] = expected.get(rider_id, 0) + factor * points
    standing = dict(
        Standing.objects.filter(
            stage=resolved.stage, classification=Classification.MOUNTAINS
        ).values_list("rider_id", "value")
    )
    assert standing == expected
    # The first over the HC summit finish has at least its doubled 20 points.
    assert standing[summits[-1].rider_ids[0]] >= 40


def test_the_stage_page_tells_each_summit_and_sprint_from_their_data(client, resolved):
    lifecycle.round_publish(round=resolved)  # results are the organiser's until published
    page = client.get(reverse("season-stage", args=[resolved.season.slug, 1]))
    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    summits = RaceEvent.objects.filter(stage=resolved.stage, kind=RaceEvent.Kind.SUMMIT)
    first = Rider.objects.get(pk=summits.order_by("seq").last().rider_ids[0]).name
    assert f"Montée finale: first {first}" in text
    assert "Col du Premier: first " in text
    assert "km 30: first " in text
    assert "|col" not in text
