"""Issue 17, Layout and language: plural forms through gettext, roles while drafting, the
ratings named in the reader's language."""

import random
import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

from season import formation
from season.leagues import JoinRefused, season_join
from season.models import Season
from season.orders import orders_errors, role_count_text
from tests.factories import RiderFactory, TeamFactory
from tests.season.builders import joined, league, template_race

pytestmark = pytest.mark.django_db


def test_a_number_of_riders_of_a_role_takes_the_plural_its_number_needs():
    assert role_count_text("gc_leader", 1) == "1 GC leader"
    assert role_count_text("breakaway", 2) == "2 riders in the breakaways"
    assert role_count_text("sprinter", 2) == "2 sprinters"
    with translation.override("fr"):
        assert role_count_text("breakaway", 1) == "1 coureur dans les échappées"
        assert role_count_text("breakaway", 2) == "2 coureurs dans les échappées"
        assert role_count_text("gc_leader", 2) == "2 leaders"


def test_too_many_riders_in_the_breakaways_are_refused_in_plain_words():
    riders = {pk: {"role": "breakaway"} for pk in (1, 2, 3)}
    assert orders_errors(orders=riders, rider_ids={1, 2, 3}) == [
        "At most 2 riders in the breakaways per team (3 given)."
    ]


def test_while_drafting_the_team_page_shows_the_roles_the_riders_will_get(
    client, alice, bob, charlie
):
    template = template_race(real_teams=0)
    team = TeamFactory(year=2023)
    climber = RiderFactory(team=team, climber=4, name="Best Climber")
    RiderFactory.create_batch(3, team=team)
    season = league(organiser=charlie, template=template, roster_size=2)
    joined(season, alice, bob)
    formation.draft_start(season=season, rng=random.Random(1))
    on_turn = formation.draft_status(season=season).on_turn
    formation.draft_pick(season=season, team=on_turn, pickable=climber, user=on_turn.owner)
    client.force_login(on_turn.owner)
    url = reverse("player-team", kwargs={"slug": season.slug, "team_id": on_turn.pk})
    page = client.get(url).content.decode()
    row = page.split("Best Climber", 1)[1].split("</tr>", 1)[0]
    assert "GC leader" in row
    assert "domestique" not in row
    assert "Roles as they will be when the team is complete" in page


def test_the_rating_columns_are_named_in_the_readers_language_never_by_their_key(
    client, alice, bob, charlie
):
    season = league(organiser=charlie, formation_mode=Season.FormationMode.BUDGET)
    (team,) = joined(season, alice)
    client.force_login(alice)
    url = reverse("player-team", kwargs={"slug": season.slug, "team_id": team.pk})
    # The speciality filter's options carry the key as their value (the query's), never as text.
    page = re.sub(r'value="[a-z_]+"', "", client.get(url).content.decode())
    assert 'title="Time trial"' in page
    assert "time_trialist" not in page
    with translation.override("en"):  # the middleware leaves French active otherwise
        page = client.get(url, headers={"accept-language": "fr"}).content.decode()
    page = re.sub(r'value="[a-z_]+"', "", page)
    assert 'title="Chrono"' in page
    assert "time_trialist" not in page


def test_short_dates_read_as_each_language_writes_them():
    when = datetime(2023, 7, 1, 20, 0, tzinfo=UTC)
    with translation.override("en"):
        assert date_format(when, "SHORT_DATE_FORMAT") == "Sat 1 Jul"
        assert date_format(when, "SHORT_DATETIME_FORMAT") == "Sat 1 Jul 20:00"
    with translation.override("fr"):
        assert date_format(when, "SHORT_DATE_FORMAT") == "sam. 1 juil."
        assert date_format(when, "SHORT_DATETIME_FORMAT") == "sam. 1 juil. 20:00"


def test_a_team_name_differing_only_by_case_or_accents_is_taken(alice, bob, charlie):
    season = league(organiser=charlie)
    season_join(season=season, user=alice, team_name="Les Échappés")
    for name in ("les échappés", "LES ECHAPPES", "Les  Echappés"):
        with pytest.raises(JoinRefused, match="already called"):
            season_join(season=season, user=bob, team_name=name)
    assert season_join(season=season, user=bob, team_name="Les Échappées").name == "Les Échappées"
