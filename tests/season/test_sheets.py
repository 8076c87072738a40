"""Issue 34 part 4, printable sheets: a stage's and a Grand Prix's communiqué and the season's
sheet as A4 PDFs, read back with pypdf (the names, accents included, and the headings in the
reader's language), each shown only to whoever may see the results it prints. Each test also
saves its PDF's pages as PNG under test-artifacts/sheets/ when pdftoppm is there, to look at."""

import io
import shutil
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from motor.models import Result
from motor.models import Standing as DriverStanding
from races.models import Classification, StageResult, Standing
from riders.models import Rider
from season import formation
from season.cache import season_changed
from season.leagues import calendar_event_add
from season.models import Round, Season
from season.services import lifecycle, resolution
from tests.commits import committed
from tests.season.builders import joined, league, stage, template_race

pytestmark = pytest.mark.django_db

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "sheets"


def _text(response) -> str:
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages)


def _look(response, name: str) -> None:
    """The PDF's pages as PNG for a reader's eyes (test-artifacts/, not committed)."""
    if shutil.which("pdftoppm") is None:
        return
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pdf = ARTIFACTS / f"{name}.pdf"
    pdf.write_bytes(response.content)
    subprocess.run(["pdftoppm", "-r", "70", "-png", str(pdf), str(ARTIFACTS / name)], check=True)


def _two_race_season(organiser, *players):
    """A season of two 2-stage races, each player's team of riders of distinct real teams, the
    first team's leader renamed with a č."""
    cache.clear()
    season = league(
        organiser=organiser,
        template=template_race(stages=2),
        formation_mode=Season.FormationMode.BUDGET,
        max_per_real_team=1,
    )
    last = season.rounds.order_by("-number").first()
    calendar_event_add(
        season=season,
        event=template_race(stages=2),
        first_deadline=last.orders_deadline + timedelta(days=2),
        hours_between=24,
    )
    taken: list[int] = []
    for team in joined(season, *players):
        chosen, teams = [], set()
        for rider in formation.pool(season=season).order_by("team_id", "pk"):
            if rider.pk not in taken and rider.team_id not in teams:
                chosen.append(rider.pk)
                teams.add(rider.team_id)
            if len(chosen) == season.roster_size:
                break
        formation.team_select(team=team, pickable_ids=chosen)
        taken += chosen
    Rider.objects.filter(pk=taken[0]).update(name="Tadej Pogačar")
    return Season.objects.get(pk=season.pk)


def _resolve(season, numbers, *, publish=True):
    lifecycle.round_open(round=stage(season, numbers[0]))
    lifecycle.rounds_force_lock(season=season, numbers=numbers)
    for number in numbers:
        resolved = resolution.round_resolve(round_id=stage(season, number).pk)
        assert resolved.status == Round.Status.RESOLVED, number
        if publish:
            with committed():
                lifecycle.round_publish(round=stage(season, number))


@pytest.fixture
def cycling(alice, bob):
    season = _two_race_season(alice, alice, bob)
    _resolve(season, [1, 2, 3, 4])
    return Season.objects.get(pk=season.pk)


def test_a_stage_sheet_prints_its_winner_the_gc_leader_and_the_accents(cycling):
    response = Client().get(reverse("season-round-sheet", args=["friends", 2]))
    assert response["Content-Disposition"] == 'inline; filename="friends-stage-2.pdf"'
    text = _text(response)
    _look(response, "stage-2")
    winner = StageResult.objects.get(stage=stage(cycling, 2).stage, rank=1)
    leader = Standing.objects.get(
        stage=stage(cycling, 2).stage, classification=Classification.GENERAL, rank=1
    )
    assert winner.rider.name in text
    assert leader.rider.name in text
    assert "Pogačar" in text
    for heading in ("Results of stage 2", "General classification after stage 2", "Time cut"):
        assert heading in text
    assert cycling.name in text


def test_the_stage_page_links_its_sheet_once_its_results_are_visible(cycling):
    sheet = reverse("season-round-sheet", args=["friends", 1])
    page = Client().get(reverse("season-stage", args=["friends", 1])).content.decode()
    assert f'href="{sheet}"' in page
    assert "Print (PDF)" in page


def test_the_players_ranking_and_the_end_of_the_race_link_the_seasons_sheet(cycling):
    sheet = reverse("season-sheet", args=["friends"])
    for page in ("season-players", "season-detail"):
        assert f'href="{sheet}"' in Client().get(reverse(page, args=["friends"])).content.decode()


def test_an_unpublished_rounds_sheet_is_404_for_a_visitor_and_shown_to_the_organiser(alice, bob):
    season = _two_race_season(alice, alice, bob)
    assert not season.auto_publish
    _resolve(season, [1], publish=False)
    url = reverse("season-round-sheet", args=["friends", 1])
    assert Client().get(url).status_code == 404
    assert Client().get(reverse("season-sheet", args=["friends"])).status_code == 404
    organiser = Client()
    organiser.force_login(alice)
    assert "Pogačar" in _text(organiser.get(url))
    # An open round has no sheet, for anyone (nothing of its dice).
    assert organiser.get(reverse("season-round-sheet", args=["friends", 2])).status_code == 404
    assert organiser.get(reverse("season-round-sheet", args=["friends", 9])).status_code == 404


def test_a_private_seasons_sheets_are_404_for_whoever_is_not_in_it(cycling, charlie):
    Season.objects.filter(pk=cycling.pk).update(is_public=False)
    with committed():
        season_changed(cycling)
    outsider = Client()
    outsider.force_login(charlie)
    for url in (
        reverse("season-round-sheet", args=["friends", 1]),
        reverse("season-sheet", args=["friends"]),
    ):
        assert Client().get(url).status_code == 404
        assert outsider.get(url).status_code == 404


def test_the_seasons_sheet_names_the_winner_its_tables_and_each_races_gc(cycling):
    from season import results

    response = Client().get(reverse("season-sheet", args=["friends"]))
    assert response["Content-Disposition"] == 'inline; filename="friends.pdf"'
    text = _text(response)
    _look(response, "season")
    finale = results.finale(season=cycling, visible_upto=4)
    assert finale is not None
    assert finale.ranking
    first = finale.ranking[0]
    assert first.team in text
    assert first.player in text
    for race in cycling.calendar():
        last = race.event.stages.order_by("-number").first()
        leader = Standing.objects.get(stage=last, classification=Classification.GENERAL, rank=1)
        assert leader.rider.name in text
    assert "Players' ranking" in text
    assert "Season standings: the players' teams" in text
    assert "Abandons" in text
    assert "Pogačar" in text


def test_a_sheet_is_kept_until_the_season_changes(cycling, django_assert_max_num_queries):
    url = reverse("season-round-sheet", args=["friends", 1])
    first = Client().get(url).content
    with django_assert_max_num_queries(3):
        again = Client().get(url).content
    assert again == first


def test_the_french_reader_gets_french_headings(cycling):
    client = Client()
    client.cookies["django_language"] = "fr"
    text = _text(client.get(reverse("season-round-sheet", args=["friends", 1])))
    assert "Coureur" in text
    assert "Équipe" in text
    assert "Étape 1" in text
    text = _text(client.get(reverse("season-sheet", args=["friends"])))
    assert "Classement des joueurs" in text


# --- a Grand Prix ---------------------------------------------------------------------------


def test_a_grand_prix_sheet_prints_grid_classification_and_the_championships(alice, bob):
    from tests.season.motor_builders import joined as motor_joined
    from tests.season.motor_builders import motor_league, round_resolved, two_cars_each

    cache.clear()
    season = motor_league(organiser=alice)
    two_cars_each(season, *motor_joined(season, bob))
    gp = round_resolved(season, 1).grand_prix
    with committed():
        lifecycle.round_publish(round=season.rounds.get(number=1))
    response = Client().get(reverse("season-round-sheet", args=["f1-friends", 1]))
    text = _text(response)
    _look(response, "grand-prix-1")
    winner = Result.objects.get(grand_prix=gp, position=1)
    champion = DriverStanding.objects.filter(grand_prix=gp, table="drivers", position=1).first()
    assert winner.entry.driver.name in text
    assert champion.driver.name in text
    for heading in ("Grid", "Classification", "Drivers' standings", "Constructors' standings"):
        assert heading in text
    assert "Bob Racing" in text  # the league team of its cars
    # The championship's end, once its last round is out.
    for number in (2, 3):
        round_resolved(season, number)
        with committed():
            lifecycle.round_publish(round=season.rounds.get(number=number))
    response = Client().get(reverse("season-sheet", args=["f1-friends"]))
    text = _text(response)
    _look(response, "championship")
    last = season.rounds.get(number=3).grand_prix
    champion = DriverStanding.objects.get(grand_prix=last, table="drivers", position=1)
    assert "The end of the championship" in text
    assert champion.driver.name in text
    assert "Bob Racing wins the league" in text
