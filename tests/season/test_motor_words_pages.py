"""A new player reads a Grand Prix of a league in words: retirements, incidents and no-time
qualifying runs are said, never shown as the engine's codes (issue 29)."""

import csv
import io
import re

import pytest
from django.urls import reverse

from motor.models import GrandPrix, GrandPrixEvent, Result, ResultStatus
from season.models import Round
from season.services.lifecycle import round_publish
from tests.commits import committed
from tests.season.motor_builders import joined, motor_league, round_resolved, two_cars_each

pytestmark = pytest.mark.django_db

CODES = re.compile(r"\b(OUT_OF_FUEL|ENGINE|WRONG_TYRES|TRACK_EXIT|TURNS|ACCIDENT|PUNCTURE)\b")


def _raced_with_a_retirement(alice, bob):
    season = motor_league(organiser=alice)
    (team,) = joined(season, bob)
    two_cars_each(season, team)
    resolved = round_resolved(season)
    grand_prix = GrandPrix.objects.get(championship=season.championship, round=1)
    # Whatever the seed did, one car ran out of fuel, one drew the wrong tyres, one set no time.
    first, second, third = Result.objects.filter(grand_prix=grand_prix).order_by("pk")[:3]
    Result.objects.filter(pk=first.pk).update(
        status=ResultStatus.DNF, position=None, reason="OUT_OF_FUEL", retired_lap=2
    )
    seq = grand_prix.events.count() + 1
    GrandPrixEvent.objects.create(
        grand_prix=grand_prix,
        seq=seq,
        phase="race",
        round=3,
        kind="incident",
        entry_id=second.entry_id,
        data={"card": "WRONG_TYRES", "lap": 1},
    )
    GrandPrixEvent.objects.create(
        grand_prix=grand_prix,
        seq=seq + 1,
        phase="qualifying",
        round=1,
        kind="qualifying",
        entry_id=third.entry_id,
        data={"slot": 1, "no_time": "ENGINE"},
    )
    with committed():
        round_publish(round=resolved)
    return season


def test_a_grand_prix_of_a_league_says_its_retirements_in_words(client, alice, bob):
    season = _raced_with_a_retirement(alice, bob)
    url = reverse("season-grand-prix", args=[season.slug, 1])
    html = client.get(url).content.decode()
    assert "retired (out of fuel, lap 2)" in html
    assert "incident card: wrong tyres" in html
    assert "no time: engine failure" in html
    assert CODES.findall(html) == []
    rows = list(
        csv.reader(
            io.StringIO(client.get(url + "?_export=csv&_table=retirements-").content.decode())
        )
    )
    assert any("out of fuel" in row for row in rows), rows
    assert CODES.findall(str(rows)) == []


def test_the_orders_form_links_the_rules_it_cites_to_their_line_on_the_rules_page(
    client, alice, bob
):
    season = motor_league(organiser=alice)
    (team,) = joined(season, bob)
    two_cars_each(season, team)
    Round.objects.filter(season=season, number=1).update(status=Round.Status.OPEN)
    client.force_login(bob)
    html = client.get(reverse("player-orders", args=[season.slug, team.pk])).content.decode()
    links = re.findall(r'<a class="rule-ref" href="([^"#]+)#([^"]+)"[^>]*>([^<]+)</a>', html)
    assert ("§7.1 The orders of a car") in [text for _url, _anchor, text in links]
    assert "§7.1:" not in html
    for url, anchor, _text in links:
        assert url == reverse("ruleset-rules", args=[season.ruleset])
        assert f'id="{anchor}"' in client.get(url).content.decode()
