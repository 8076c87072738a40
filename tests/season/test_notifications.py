"""Players are emailed when orders open, 24 h before a deadline they have not met, and when
results are published; each notice goes out once."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import translation

from season.demo import demo_load
from season.models import Notification, Round, Season
from season.notifications import notifications_send
from season.results import players_ranking
from season.services import lifecycle, resolution
from season.services.notices import notice_text
from season.services.orders import orders_submit
from tests.season.builders import only_results_due

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    return demo_load()


def stage(season, number):
    return Round.objects.select_related("stage", "season").get(season=season, number=number)


def recipients():
    return sorted(address for message in mail.outbox for address in message.to)


def test_players_hear_that_orders_are_open_once(demo):
    first = stage(demo, 1)
    sent = notifications_send(now=first.orders_deadline - timedelta(days=3))
    assert sent == 3
    assert recipients() == ["alice@example.com", "bob@example.com", "charlie@example.com"]
    assert "orders open for stage 1" in mail.outbox[0].subject
    # The link leads to the player's orders form (issue 17), built from SITE_URL.
    alice_team = demo.teams.get(owner__username="alice")
    by_address = {message.to[0]: message for message in mail.outbox}
    assert f"http://127.0.0.1:8000/seasons/demo/teams/{alice_team.pk}/orders/" in (
        by_address["alice@example.com"].body
    )
    mail.outbox.clear()
    assert notifications_send(now=first.orders_deadline - timedelta(days=3)) == 0


def test_only_players_without_orders_are_reminded_24_hours_before(demo):
    first = stage(demo, 1)
    notifications_send(now=first.orders_deadline - timedelta(days=3))
    mail.outbox.clear()
    team = demo.teams.get(owner__username="alice")
    orders = {m.rider_id: {"role": m.role} for m in team.seats.all()}
    orders_submit(
        team=team,
        round=first,
        orders=orders,
        user=team.owner,
        now=first.orders_deadline - timedelta(days=2),
    )

    assert notifications_send(now=first.orders_deadline - timedelta(hours=30)) == 0
    assert notifications_send(now=first.orders_deadline - timedelta(hours=20)) == 2
    assert recipients() == ["bob@example.com", "charlie@example.com"]
    assert "orders for stage 1 are missing" in mail.outbox[0].subject
    mail.outbox.clear()
    assert notifications_send(now=first.orders_deadline - timedelta(hours=10)) == 0


def test_players_hear_when_results_are_published(demo):
    # A season that publishes by hand (an auto-publishing one: tests/season/test_auto_publish.py).
    Season.objects.filter(pk=demo.pk).update(auto_publish=False)
    first = stage(demo, 1)
    notifications_send(now=first.orders_deadline - timedelta(days=3))
    resolution.round_resolve(round_id=first.pk)
    mail.outbox.clear()
    only_results_due(demo, at=first.orders_deadline)
    assert notifications_send(now=first.orders_deadline) == 0
    lifecycle.round_publish(round=stage(demo, 1))
    assert notifications_send(now=first.orders_deadline) == 3
    assert "results of stage 1" in mail.outbox[0].subject
    # The news in a line: who leads the players after the stage, and where the player's team is.
    ranking = [line for line in players_ranking(season=demo, number=1) if line.rank]
    leader = ranking[0]
    by_address = {m.to[0]: m.body for m in mail.outbox}
    for line in ranking:
        body = by_address[f"{line.player}@example.com"]
        if line.rank == 1:
            news = f"Stage 1 of Demo Tour 2023: your team {line.team} leads the players."
        else:
            news = (
                f"Stage 1 of Demo Tour 2023: {leader.team} ({leader.player}) leads the players. "
                f"Your team {line.team} is number {line.rank}."
            )
        assert news in body
        # The notice in the app says the same.
        notice = Notification.objects.get(user__username=line.player, kind="results")
        with translation.override("en"):
            said = notice_text(notice)
        assert said.endswith(
            "Your team leads the players."
            if line.rank == 1
            else f"Your team is number {line.rank}."
        )
    assert "http://127.0.0.1:8000/seasons/demo/stages/1/" in body


def test_each_player_is_told_in_the_language_of_his_pages(client, demo):
    client.login(username="bob", password="bob-demo")
    client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    first = stage(demo, 1)
    notifications_send(now=first.orders_deadline - timedelta(days=3))
    by_address = {message.to[0]: message for message in mail.outbox}
    assert "ordres" in by_address["bob@example.com"].subject.lower()
    assert "orders open" in by_address["alice@example.com"].subject
