"""The odds pages from a player's, a visitor's and another player's side (eager Celery)."""

import re

import pytest
from django.urls import reverse

from season.models import Orders, Round, Season
from season.services import odds
from tests.season.test_game_settings import posted

pytestmark = pytest.mark.django_db

RUNS = 10


@pytest.fixture
def demo():
    from season.demo import demo_load

    season = demo_load()
    rules = season.rules.to_data() | {"odds_runs": RUNS}
    Season.objects.filter(pk=season.pk).update(rule_settings=rules)
    odds.odds_cache().clear()
    season.refresh_from_db()
    return season


def login(client, username):
    client.login(username=username, password=f"{username}-demo")
    return client


def odds_url(season, number=1):
    return reverse("season-round-odds", args=[season.slug, number])


def test_a_player_asks_for_the_odds_and_reads_the_table(demo, client):
    login(client, "alice")
    page = client.get(odds_url(demo))
    assert page.status_code == 200
    assert b'id="odds-ask"' in page.content
    assert f"Ask for the odds ({RUNS} runs)".encode() in page.content

    asked = client.post(odds_url(demo))
    assert asked.status_code == 302
    table = client.get(asked["Location"])
    html = table.content.decode()
    assert 'id="odds-table"' in html
    mine = demo.teams.get(owner__username="alice").seats.count()
    assert len(re.findall(r'<tr class="mine[ "]', html)) == mine
    assert len(re.findall(r"<tr[ >]", html)) == 176 + 1  # the riders and the header
    # Asked again later, the page finds the counted table of the orders as they stand.
    assert 'id="odds-table"' in client.get(odds_url(demo)).content.decode()


def test_the_progress_polls_until_the_chunks_are_back(demo, client, monkeypatch):
    monkeypatch.setattr(odds, "odds_send", lambda plan: None)
    login(client, "alice")
    asked = client.post(odds_url(demo))
    key = asked["Location"].split("run=")[1]
    page = client.get(asked["Location"]).content.decode()
    progress = reverse("season-round-odds-progress", args=[demo.slug, 1, key])
    assert f'hx-get="{progress}"' in page
    assert 'id="odds-progress"' in page
    assert "0 of 2 chunks" in page
    odds.odds_chunk(key=key, index=0)
    partial = client.get(progress, HTTP_HX_REQUEST="true").content.decode()
    assert "1 of 2 chunks" in partial
    assert 'value="50"' in partial


def test_a_draft_of_orders_shows_the_players_chances_with_both_and_saves_nothing(demo, client):
    login(client, "alice")
    team = demo.teams.get(owner__username="alice")
    orders_url = reverse("player-orders", args=[demo.slug, team.pk])
    form = client.get(orders_url).content.decode()
    assert 'id="draft-odds"' in form
    members = list(team.seats.order_by("number"))
    data = {"stage": "1"}
    for member in members:
        data[f"{member.rider_id}-role"] = member.role
    data[f"{members[0].rider_id}-role"] = "breakaway"
    asked = client.post(reverse("player-orders-odds", args=[demo.slug, team.pk]), data)
    assert asked.status_code == 302
    assert "run=" in asked["Location"]
    assert "compare=" in asked["Location"]
    html = client.get(asked["Location"]).content.decode()
    assert 'id="odds-draft"' in html
    assert "Win with saved orders" in html
    assert len(re.findall(r"<strong>[^<]+</strong>", html)) == len(members)
    # Each of the player's riders: the chance with the draft, then with the saved orders.
    chance = r'<span class="chance" title="95 % interval: [\d.]+ % to [\d.]+ %">[\d.]+ %'
    both = re.compile(
        r'<tr class="mine[^>]*>(?:\s*<td[^>]*>[^<]*(?:<strong>[^<]*</strong>)?</td>){3}'
        rf'\s*<td class="num">{chance}.*?</td>\s*<td class="num">{chance}.*?</td>'
    )
    assert len(both.findall(html)) == len(members)
    assert not Orders.objects.filter(team=team).exists()


def test_another_player_cannot_read_a_draft(demo, client):
    login(client, "alice")
    team = demo.teams.get(owner__username="alice")
    data = {"stage": "1"} | {f"{m.rider_id}-role": m.role for m in team.seats.all()}
    asked = client.post(reverse("player-orders-odds", args=[demo.slug, team.pk]), data)
    draft = asked["Location"].split("run=")[1].split("&")[0]
    client.logout()
    login(client, "bob")
    assert client.get(odds_url(demo) + f"?run={draft}").status_code == 404


def test_a_visitor_is_refused_the_odds(demo, client, django_user_model):
    django_user_model.objects.create_user("visitor", password="visitor-demo")
    login(client, "visitor")
    assert client.get(odds_url(demo)).status_code == 403
    assert client.post(odds_url(demo)).status_code == 403


def test_odds_of_a_stage_not_open_say_when_they_are_given(demo, client):
    login(client, "alice")
    page = client.get(odds_url(demo, 2))
    assert "Odds are given while the orders of a round are open." in page.content.decode()
    asked = client.post(odds_url(demo, 2), follow=True)
    assert "while orders are open" in asked.content.decode()
    assert Round.objects.get(season=demo, number=2).status == Round.Status.SCHEDULED


def test_the_stage_page_links_the_odds(demo, client):
    login(client, "alice")
    page = client.get(reverse("season-stage", args=[demo.slug, 1])).content.decode()
    assert f'href="{odds_url(demo)}"' in page


def game_settings_url(season):
    return reverse("organiser-game-settings", kwargs={"slug": season.slug})


def test_the_organiser_sets_the_runs_of_the_odds_in_the_game_settings(demo, client):
    login(client, "olivia")
    form = client.get(game_settings_url(demo)).content.decode()
    assert 'name="odds_runs"' in form
    assert f'value="{RUNS}"' in form
    response = client.post(game_settings_url(demo), posted(demo) | {"odds_runs": "250"})
    assert response.status_code == 302
    demo.refresh_from_db()
    assert odds.runs_of(demo) == 250
    assert "250 runs" in client.get(odds_url(demo, 1)).content.decode()


@pytest.mark.parametrize("runs", ["9", "10001"])
def test_runs_of_the_odds_out_of_bounds_are_refused_with_the_bounds(demo, client, runs):
    login(client, "olivia")
    response = client.post(game_settings_url(demo), posted(demo) | {"odds_runs": runs})
    assert response.status_code == 200
    assert "The odds take 10 to 10,000 runs." in response.content.decode()
    demo.refresh_from_db()
    assert odds.runs_of(demo) == RUNS


def test_the_runs_of_the_odds_still_change_once_a_round_is_resolved(demo, client):
    from season.services.game_settings import game_settings_update

    Round.objects.filter(season=demo, number=1).update(status=Round.Status.RESOLVED)
    login(client, "olivia")
    fields = client.get(game_settings_url(demo)).context["form"].fields
    assert not fields["odds_runs"].disabled
    assert all(field.disabled for name, field in fields.items() if name != "odds_runs")
    game_settings_update(season=demo, values={"odds_runs": 40})
    demo.refresh_from_db()
    assert odds.runs_of(demo) == 40


def test_a_player_cannot_set_the_runs_of_the_odds(demo, client):
    login(client, "alice")
    response = client.post(game_settings_url(demo), posted(demo) | {"odds_runs": "20"})
    assert response.status_code in (403, 404)
    demo.refresh_from_db()
    assert odds.runs_of(demo) == RUNS


def test_a_player_beyond_his_budget_reads_when_to_try_again(demo, client, settings, monkeypatch):
    settings.ODDS_MEMBER_RUNS_PER_HOUR = RUNS
    sent = []
    monkeypatch.setattr(odds, "odds_send", sent.append)
    login(client, "alice")
    client.post(odds_url(demo))
    Season.objects.filter(pk=demo.pk).update(
        rule_settings=demo.rules.to_data() | {"odds_runs": RUNS + 1}
    )
    refused = client.post(odds_url(demo), follow=True)
    assert re.search(r"try again in \d+ minutes?\.", refused.content.decode())
    assert len(sent) == 1


def test_another_player_cannot_read_my_odds_with_my_saved_orders(demo, client):
    login(client, "alice")
    mine = client.post(odds_url(demo))["Location"].split("run=")[1]
    client.logout()
    login(client, "bob")
    assert client.get(odds_url(demo) + f"?run={mine}").status_code == 404


def test_odds_replaced_by_a_newer_request_say_so_and_stop_polling(demo, client, monkeypatch):
    monkeypatch.setattr(odds, "odds_send", lambda plan: None)
    login(client, "alice")
    earlier = client.post(odds_url(demo))["Location"]
    Season.objects.filter(pk=demo.pk).update(
        rule_settings=demo.rules.to_data() | {"odds_runs": RUNS + 5}
    )
    newer = client.post(odds_url(demo))["Location"]
    assert newer != earlier
    page = client.get(earlier).content.decode()
    assert 'id="odds-cancelled"' in page
    assert "hx-get" not in page.split('id="odds"')[1].split(">")[0]
    assert 'id="odds-progress"' in client.get(newer).content.decode()


@pytest.mark.parametrize("stage", ["", "9", "²", "1" * 5000, "-1"])
def test_a_draft_for_no_open_round_is_refused_in_words(demo, client, stage):
    login(client, "alice")
    team = demo.teams.get(owner__username="alice")
    asked = client.post(reverse("player-orders-odds", args=[demo.slug, team.pk]), {"stage": stage})
    assert asked.status_code == 302
    assert asked["Location"] == reverse("player-orders", args=[demo.slug, team.pk])
    page = client.get(asked["Location"]).content.decode()
    assert "These orders are closed: no odds for a draft." in page


def test_the_table_shows_each_chances_interval_and_where_the_count_settled(demo, client, settings):
    """A bound every interval meets (100 points): the count stops after its first chunk, and
    the page says so; each chance comes with the half-width of its 95 % interval, spelled out
    in its title."""
    settings.ODDS_SETTLED_POINTS = 100
    login(client, "alice")
    asked = client.post(odds_url(demo))
    html = client.get(asked["Location"]).content.decode()
    assert "Over 5 runs." in html
    assert "Settled at 5 runs of the 10 asked" in html
    cell = re.search(
        r'<span class="chance" title="95 % interval: ([\d.]+) % to ([\d.]+) %">([\d.]+) %'
        r'<span class="pm" aria-hidden="true"> ± ([\d.]+)</span>'
        r'<span class="visually-hidden"> \(95 % interval: [\d.]+ % to [\d.]+ %\)</span></span>',
        html,
    )
    assert cell is not None
    low, high, chance, half = (float(value) for value in cell.groups())
    assert low <= chance <= high
    assert half == pytest.approx((high - low) / 2, abs=0.06)


def test_the_progress_counts_runs_and_says_when_it_stops(demo, client, monkeypatch):
    monkeypatch.setattr(odds, "odds_send", lambda plan: None)
    login(client, "alice")
    asked = client.post(odds_url(demo))
    key = asked["Location"].split("run=")[1]
    odds.odds_chunk(key=key, index=1)
    progress = reverse("season-round-odds-progress", args=[demo.slug, 1, key])
    partial = client.get(progress, HTTP_HX_REQUEST="true").content.decode()
    assert f"Counting {RUNS} runs: 5 done, 1 of 2 chunks" in partial
    assert "The count stops early once no chance's 95 % interval is wider than ± 1." in partial
