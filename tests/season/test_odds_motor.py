"""The odds of an open Grand Prix round (Grand Prix and Ludicitude), as the league asks for them
(eager Celery: the chord runs here). The motor adapter reads each run: places, retirements, a
points finish in the season's points system, the drivers' championship after the round."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from season.models import Orders, Round, Season
from season.services import odds
from season.services.lifecycle import round_open, round_publish
from season.services.orders import OrdersInvalid, orders_submit
from tests.season.motor_builders import joined, motor_league, round_resolved, two_cars_each

pytestmark = pytest.mark.django_db

RUNS = 10


@pytest.fixture(autouse=True)
def _fresh_cache():
    odds.odds_cache().clear()


def open_round(season, number=1):
    round_ = season.rounds.get(number=number)
    if round_.status == Round.Status.SCHEDULED:
        round_open(round=round_)
    return Round.objects.select_related("season", "grand_prix").get(pk=round_.pk)


def league(alice, bob, ruleset="grandprix"):
    season = motor_league(organiser=alice, ruleset=ruleset, points_system=ruleset)
    Season.objects.filter(pk=season.pk).update(
        rule_settings=season.rules.to_data() | {"odds_runs": RUNS}
    )
    season.refresh_from_db()
    (team,) = joined(season, bob)
    two_cars_each(season, team)
    return season, team


@pytest.mark.parametrize("ruleset", ["grandprix", "ludicitude"])
def test_odds_of_a_motor_round_count_every_car_in_every_run(alice, bob, ruleset):
    season, _team = league(alice, bob, ruleset)
    state = odds.odds_request(round=open_round(season), runs=RUNS)
    assert state.done
    cars = {str(n) for n in season.seats.values_list("number", flat=True)}
    assert set(state.counts.entrants) == cars
    entrants = state.counts.entrants.values()
    assert sum(c.wins for c in entrants) == RUNS
    assert sum(c.leads for c in entrants) == RUNS
    assert all(c.finishes + c.outs == RUNS for c in entrants)
    # Every run has as many points finishes as the season's points system scores places (or
    # fewer cars classified).
    scored = len(season.championship.points_system.table)
    assert 0 < sum(c.top10 for c in entrants) <= scored * RUNS
    assert sum(c.podiums for c in entrants) <= 3 * RUNS


def test_the_merged_chunks_equal_one_process_with_the_same_seeds(alice, bob):
    season, _team = league(alice, bob)
    round_ = open_round(season)
    state = odds.odds_request(round=round_, runs=RUNS)
    plan = odds.odds_plan(round=round_, runs=RUNS)
    assert plan.key == state.key
    assert odds.plan_count(plan).to_data() == state.counts.to_data()


def test_the_championship_lead_counts_the_points_before_the_round(alice, bob):
    """After round 1 its winner carries his points into round 2: giving every other driver
    nothing before, he leads in every run where no one outscores him by more."""
    season, _team = league(alice, bob)
    round_resolved(season, 1)
    round_publish(round=season.rounds.get(number=1))
    round_ = open_round(season, 2)
    adapter = season_adapter(season)
    before = adapter.points_before(grand_prix=round_.grand_prix)
    leader_entry = max(before, key=before.get)
    assert before[leader_entry] > 0
    car = str(season.seats.get(entry_id=leader_entry).number)
    run = odds.runner_for(round_, odds.odds_plan(round=round_, runs=RUNS).inputs)
    lines = {line.entrant: line for line in run(12345)}
    assert lines[car].standing <= -float(before[leader_entry])
    # A points finish: a place the season's points system scores.
    scored = len(season.championship.points_system.table)
    assert 0 < scored < len(lines)
    assert all(
        line.top == (line.place is not None and line.place <= scored) for line in lines.values()
    )
    # Without the points before, the standing is the round's points alone.
    lines_fresh = {
        line.entrant: line
        for line in odds.runner_for(
            open_round_without_history(season, round_),
            odds.odds_plan(round=round_, runs=RUNS).inputs,
        )(12345)
    }
    assert lines_fresh[car].standing == lines[car].standing + float(before[leader_entry])


@pytest.mark.parametrize("ruleset", ["grandprix", "ludicitude"])
def test_the_odds_runs_keep_no_log_and_count_as_the_whole_outcome(alice, bob, ruleset, monkeypatch):
    """The adapter's runs go through the ruleset's lean runs (``LeagueHooks.odds``: no events,
    dice log nor trace), never through the whole outcome, and read the same lines from them."""
    from dataclasses import replace

    season, _team = league(alice, bob, ruleset)
    round_ = open_round(season)
    inputs = odds.odds_plan(round=round_, runs=RUNS).inputs
    adapter_class = type(season_adapter(season))
    hooks = season_adapter(season).hooks
    assert hooks.league.odds is not None

    def hooks_with(**changes):
        return property(lambda self: replace(hooks, league=replace(hooks.league, **changes)))

    def no_whole_run(inputs, seed):
        raise AssertionError("the odds ran the whole outcome")

    seeds = (1, 2, 3, 12345)
    with monkeypatch.context() as patch:
        patch.setattr(adapter_class, "hooks", hooks_with(run=no_whole_run))
        run = odds.runner_for(round_, inputs)
        lean = [run(seed) for seed in seeds]
    with monkeypatch.context() as patch:
        patch.setattr(adapter_class, "hooks", hooks_with(odds=None))
        run = odds.runner_for(round_, inputs)
        whole = [run(seed) for seed in seeds]
    assert lean == whole
    assert len({tuple(line.place for line in lines) for lines in lean}) > 1


def season_adapter(season):
    from plugins import adapter_for

    return adapter_for(season.ruleset)


def open_round_without_history(season, round_):
    """Round 2 seen as if round 1 left no standings (its drivers' table removed)."""
    from motor.models import Standing

    Standing.objects.filter(
        grand_prix__championship=season.championship, grand_prix__round=1
    ).delete()
    return Round.objects.select_related("season", "grand_prix").get(pk=round_.pk)


def test_a_draft_of_car_orders_gives_its_own_odds_and_saves_nothing(alice, bob):
    season, team = league(alice, bob)
    round_ = open_round(season)
    car = str(team.seats.order_by("slot").first().number)
    draft = odds.draft_orders_check(team=team, round=round_, orders={car: {"risk": "aggressive"}})
    assert draft[car]["risk"] == "aggressive"
    drafted = odds.odds_request(round=round_, runs=RUNS, team=team, draft=draft)
    saved = odds.odds_plan(round=round_, runs=RUNS)
    assert drafted.done
    assert drafted.key != saved.key
    assert drafted.draft_team_id == team.pk
    assert not Orders.objects.filter(round=round_).exists()
    assert (
        odds.odds_plan(round=round_, runs=RUNS, team=team, draft=draft).inputs["orders"][car][
            "risk"
        ]
        == "aggressive"
    )


def test_a_draft_for_a_car_not_of_the_team_is_refused_by_number(alice, bob):
    season, team = league(alice, bob)
    round_ = open_round(season)
    with pytest.raises(OrdersInvalid) as refused:
        odds.draft_orders_check(team=team, round=round_, orders={"99": {"risk": "safe"}})
    assert "99" in refused.value.errors[0]


def test_the_motor_odds_page_names_cars_and_a_grand_prixs_columns(alice, bob, client):
    season, _team = league(alice, bob)
    round_ = open_round(season)
    client.force_login(bob)
    url = reverse("season-round-odds", args=[season.slug, round_.number])
    asked = client.post(url)
    assert asked.status_code == 302
    page = client.get(asked["Location"]).content.decode()
    assert "Odds of round 1" in page
    for words in (
        "Points finish",
        "Leads the championship",
        "Retires",
        "Expected place",
    ):
        assert words in page
    assert "Abandons" not in page
    assert "Expected gap" not in page
    driver = season.seats.select_related("entry__driver").first().entry.driver.name
    assert driver in page


def test_the_motor_round_page_links_its_odds(alice, bob, client):
    season, _team = league(alice, bob)
    round_ = open_round(season)
    client.force_login(bob)
    page = client.get(reverse("season-stage", args=[season.slug, round_.number])).content.decode()
    assert reverse("season-round-odds", args=[season.slug, round_.number]) in page
    assert round_.__class__.objects.get(pk=round_.pk).commitment in page


def test_round_odds_command_prints_a_motor_table(alice, bob, capsys):
    season, _team = league(alice, bob)
    open_round(season)
    call_command("round_odds", season.slug, "1", "--runs", str(RUNS), "--here", "--top", "0")
    out = capsys.readouterr().out
    assert f"{RUNS} runs" in out
    assert out.count("#") >= len(season.seats.all())


def test_a_player_asks_the_odds_of_a_draft_of_his_car_orders(alice, bob, client):
    season, team = league(alice, bob)
    round_ = open_round(season)
    car = team.seats.order_by("slot").first().number
    client.force_login(bob)
    page = client.get(reverse("player-orders", args=[season.slug, team.pk]))
    assert 'id="draft-odds"' in page.content.decode()
    form = page.context["form"]
    # The form as shown (every field at its current value), with one change.
    posted = {name: form[name].value() for name in form.fields}
    posted = {name: value for name, value in posted.items() if value not in (None, False)}
    posted[f"{car}-risk"] = "aggressive"
    asked = client.post(reverse("player-orders-odds", args=[season.slug, team.pk]), posted)
    assert asked.status_code == 302
    assert "compare=" in asked["Location"], asked["Location"]
    page = client.get(asked["Location"]).content.decode()
    assert 'id="odds-draft"' in page
    assert "Your cars&#x27; chance to win" in page  # the adapter's words, escaped
    assert "Win with saved orders" in page
    assert not Orders.objects.filter(round=round_).exists()


def test_another_player_cannot_ask_odds_with_bobs_car_orders(alice, bob, charlie, client):
    season, team = league(alice, bob)
    open_round(season)
    client.force_login(charlie)
    asked = client.post(reverse("player-orders-odds", args=[season.slug, team.pk]), {"stage": "1"})
    assert asked.status_code in (403, 404)


def test_a_rivals_saved_car_orders_do_not_move_my_odds(alice, bob, charlie):
    season = motor_league(organiser=alice, ruleset="grandprix", points_system="grandprix")
    mine, rival = joined(season, bob, charlie)
    two_cars_each(season, mine, rival)
    round_ = open_round(season)
    before = odds.odds_plan(round=round_, runs=RUNS, team=mine)
    rival_car = str(rival.seats.order_by("slot").first().number)
    orders_submit(
        team=rival, round=round_, orders={rival_car: {"risk": "aggressive"}}, user=charlie
    )
    after = odds.odds_plan(round=round_, runs=RUNS, team=mine)
    assert after.key == before.key
    assert after.inputs == before.inputs
    assert odds.odds_plan(round=round_, runs=RUNS, team=rival).inputs != before.inputs


def test_odds_wait_for_the_previous_round_to_be_published(alice, bob):
    season, _team = league(alice, bob)
    round_resolved(season, 1)
    assert season.rounds.get(number=1).status == Round.Status.RESOLVED
    round_ = open_round(season, 2)
    with pytest.raises(odds.OddsError, match="when the results of round 1 are published"):
        odds.odds_plan(round=round_, runs=RUNS)
    Season.objects.filter(pk=season.pk).update(auto_publish=True)
    assert odds.odds_request(round=open_round(season, 2), runs=RUNS).done
