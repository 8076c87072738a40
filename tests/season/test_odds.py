"""The odds of an open stage, as the league asks for them (eager Celery: the chord runs here)."""

import pytest

from season.models import Orders, Round, Season
from season.services import odds
from season.services.orders import OrdersInvalid, orders_submit

pytestmark = pytest.mark.django_db

RUNS = 10


@pytest.fixture
def demo():
    from season.demo import demo_load

    return demo_load()


@pytest.fixture(autouse=True)
def _fresh_cache():
    odds.odds_cache().clear()


def stage(season, number):
    return Round.objects.select_related("stage", "season").get(season=season, number=number)


def player_team(season):
    return season.teams.filter(owner__isnull=False).order_by("pk").first()


def breakaway_orders(team):
    """Orders for every rider of the team: the first one in the breakaway, the others as
    the defaults have them."""
    members = list(team.seats.order_by("number").values_list("rider_id", "role"))
    first = members[0][0]
    return {rider: {"role": "breakaway" if rider == first else role} for rider, role in members}


def test_odds_of_an_open_stage_count_every_run_once(demo):
    state = odds.odds_request(round=stage(demo, 1), runs=RUNS)
    assert state.done
    assert (state.runs, state.percent) == (RUNS, 100)
    entrants = state.counts.entrants.values()
    assert len(state.counts.entrants) == 176
    assert sum(c.wins for c in entrants) == RUNS
    assert sum(c.leads for c in entrants) == RUNS
    assert all(c.finishes + c.outs == RUNS for c in entrants)
    assert state.chunks_total == 2  # at least CHUNK_RUNS_MIN runs a chunk


def test_the_merged_chunks_equal_one_process_with_the_same_seeds(demo):
    round = stage(demo, 1)
    state = odds.odds_request(round=round, runs=RUNS)
    plan = odds.odds_plan(round=round, runs=RUNS)
    assert plan.key == state.key
    assert odds.plan_count(plan).to_data() == state.counts.to_data()


def test_the_same_orders_read_the_counted_table_back(demo, monkeypatch):
    round = stage(demo, 1)
    first = odds.odds_request(round=round, runs=RUNS)

    def no_second_run(plan):
        raise AssertionError("counted again")

    monkeypatch.setattr(odds, "odds_send", no_second_run)
    again = odds.odds_request(round=round, runs=RUNS)
    assert again.key == first.key
    assert again.counts.to_data() == first.counts.to_data()


def test_a_players_changed_orders_give_him_new_odds(demo):
    round = stage(demo, 1)
    team = player_team(demo)
    before = odds.odds_plan(round=round, runs=RUNS, team=team)
    orders_submit(team=team, round=round, orders=breakaway_orders(team), user=team.owner)
    after = odds.odds_plan(round=round, runs=RUNS, team=team)
    assert after.key != before.key
    assert (after.team_id, after.draft_team_id) == (team.pk, None)
    assert odds.odds_plan(round=round, runs=20, team=team).key != after.key


def test_a_draft_of_orders_gives_its_own_odds_and_saves_nothing(demo):
    round = stage(demo, 1)
    team = player_team(demo)
    first = team.seats.order_by("number").first()
    draft = odds.draft_orders_check(team=team, round=round, orders=breakaway_orders(team))
    assert draft[str(first.rider_id)]["role"] == "breakaway"
    saved = odds.odds_plan(round=round, runs=RUNS, team=team)
    drafted = odds.odds_request(round=round, runs=RUNS, team=team, draft=draft)
    assert drafted.done
    assert drafted.key != saved.key
    assert not Orders.objects.filter(round=round).exists()
    assert drafted.draft_team_id == team.pk
    # The draft's inputs hold the breakaway: the same orders saved count the same runs.
    orders_submit(team=team, round=round, orders=breakaway_orders(team), user=team.owner)
    saved_now = odds.odds_request(round=round, runs=RUNS, team=team)
    assert saved_now.key != drafted.key
    assert (saved_now.draft_team_id, saved_now.team_id) == (None, team.pk)
    assert saved_now.counts.to_data() == drafted.counts.to_data()


def test_a_drafts_every_order_goes_to_the_engine_not_only_the_role(demo):
    round = stage(demo, 1)
    team = player_team(demo)
    orders = breakaway_orders(team)
    first = next(iter(orders))
    plain = odds.draft_orders_check(team=team, round=round, orders=orders)
    held = odds.draft_orders_check(
        team=team, round=round, orders=orders | {first: orders[first] | {"no_breakaway": True}}
    )
    assert (
        odds.odds_plan(round=round, runs=RUNS, team=team, draft=plain).inputs
        != odds.odds_plan(round=round, runs=RUNS, team=team, draft=held).inputs
    )


def test_a_draft_with_a_rider_not_in_the_team_is_refused_by_name(demo):
    round = stage(demo, 1)
    team, other = demo.teams.filter(owner__isnull=False).order_by("pk")[:2]
    stranger = other.seats.first()
    with pytest.raises(OrdersInvalid):
        odds.draft_orders_check(team=team, round=round, orders={stranger.rider_id: {}})


def test_progress_counts_the_chunks_back(demo, monkeypatch):
    round = stage(demo, 1)
    monkeypatch.setattr(odds, "odds_send", lambda plan: None)
    state = odds.odds_request(round=round, runs=20)
    assert (state.chunks_total, state.chunks_done, state.percent, state.done) == (4, 0, 0, False)
    part = odds.odds_chunk(key=state.key, index=2, worker="w1")
    assert odds.odds_state(key=state.key).chunks_done == 1
    assert odds.odds_state(key=state.key).percent == 25
    assert part["counts"]["runs"] == 5


def test_the_merge_refuses_a_missing_chunk(demo, monkeypatch):
    round = stage(demo, 1)
    monkeypatch.setattr(odds, "odds_send", lambda plan: None)
    state = odds.odds_request(round=round, runs=RUNS)
    part = odds.odds_chunk(key=state.key, index=0)
    with pytest.raises(odds.OddsError, match="chunks"):
        odds.odds_merge(key=state.key, parts=[part])
    assert not odds.odds_state(key=state.key).done


def test_a_failed_chunk_is_reported_and_a_new_request_counts_again(demo, monkeypatch):
    round = stage(demo, 1)

    def broken(plan, **kwargs):
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(odds, "plan_count", broken)
    with pytest.raises(RuntimeError, match="engine exploded"):
        odds.odds_request(round=round, runs=RUNS)
    state = odds.odds_state(key=odds.odds_plan(round=round, runs=RUNS).key)
    assert state.failed == "RuntimeError: engine exploded"
    monkeypatch.undo()
    assert odds.odds_request(round=round, runs=RUNS).done


def test_odds_are_refused_once_orders_are_closed(demo):
    round = stage(demo, 1)
    Round.objects.filter(pk=round.pk).update(status=Round.Status.LOCKED)
    with pytest.raises(odds.OddsError, match="while orders are open"):
        odds.odds_request(round=stage(demo, 1), runs=RUNS)


@pytest.mark.parametrize("runs", [odds.RUNS_MIN - 1, odds.RUNS_MAX + 1])
def test_runs_out_of_bounds_are_refused(demo, runs):
    with pytest.raises(odds.OddsError, match="runs"):
        odds.odds_request(round=stage(demo, 1), runs=runs)


def test_the_table_names_each_rider_with_his_team(demo):
    round = stage(demo, 1)
    state = odds.odds_request(round=round, runs=RUNS)
    lines = odds.odds_lines(round=round, state=state)
    assert len(lines) == 176
    assert sum(line.win for line in lines) == pytest.approx(100)
    assert all(line.name and line.team for line in lines)
    assert lines[0].win >= lines[-1].win


def test_the_progress_is_read_without_decoding_the_inputs(demo, monkeypatch):
    """A page or the command polls the progress often: it reads the plan's few numbers, not
    the plan with its inputs (tens of kilobytes for a 176-rider stage)."""
    monkeypatch.setattr(odds, "odds_send", lambda plan: None)
    state = odds.odds_request(round=stage(demo, 1), runs=RUNS)
    assert (state.done, state.chunks_done, state.chunks_total) == (False, 0, 2)
    odds.odds_cache().set(f"odds:{state.key}:plan", {"not": "a plan"})
    again = odds.odds_state(key=state.key)
    assert (again.runs, again.chunks_total, again.round_id) == (RUNS, 2, state.round_id)


# --- what the odds may know (issue 28, case 2) -------------------------------------------


def test_a_rivals_saved_orders_do_not_move_my_odds(demo):
    """My odds count my orders and the defaults of everyone else: a rival saving his orders
    tells me nothing of them."""
    round = stage(demo, 1)
    mine, rival = demo.teams.filter(owner__isnull=False).order_by("pk")[:2]
    before = odds.odds_plan(round=round, runs=RUNS, team=mine)
    nobody_before = odds.odds_plan(round=round, runs=RUNS)
    orders_submit(team=rival, round=round, orders=breakaway_orders(rival), user=rival.owner)
    after = odds.odds_plan(round=round, runs=RUNS, team=mine)
    assert after.key == before.key
    assert after.inputs == before.inputs
    # Nor the organiser's (no team: the defaults for everyone).
    assert odds.odds_plan(round=round, runs=RUNS).key == nobody_before.key
    # The rival's own odds do count his orders.
    assert odds.odds_plan(round=round, runs=RUNS, team=rival).inputs != before.inputs


def resolved_unpublished(demo, number):
    from season.services.lifecycle import rounds_force_lock
    from season.services.resolution import round_resolve

    Season.objects.filter(pk=demo.pk).update(auto_publish=False)
    rounds_force_lock(season=demo, numbers=[number])
    round_resolve(round_id=stage(demo, number).pk)
    assert stage(demo, number).status == Round.Status.RESOLVED


def test_odds_wait_for_the_previous_stage_to_be_published(demo):
    """Stage 1 resolved but its results held by the organiser: stage 2's odds would start from
    the hidden GC (its leader), so they are refused until stage 1 is published."""
    resolved_unpublished(demo, 1)
    round = stage(demo, 2)
    assert round.status == Round.Status.OPEN
    with pytest.raises(odds.OddsError, match="when the results of stage 1 are published"):
        odds.odds_plan(round=round, runs=RUNS)
    with pytest.raises(odds.OddsError, match="when the results of stage 1 are published"):
        odds.odds_request(round=round, runs=RUNS, team=player_team(demo))
    from season.services.lifecycle import round_publish

    round_publish(round=stage(demo, 1))
    assert odds.odds_request(round=stage(demo, 2), runs=RUNS).done


# --- the budget and the superseded requests (issue 28, case 1) ----------------------------


def test_a_member_beyond_his_hours_runs_is_told_when_to_try_again_and_nothing_is_sent(
    demo, settings, monkeypatch
):
    settings.ODDS_MEMBER_RUNS_PER_HOUR = 3 * RUNS
    round = stage(demo, 1)
    team = player_team(demo)
    sent = []
    monkeypatch.setattr(odds, "odds_send", sent.append)
    odds.odds_request(round=round, runs=RUNS, team=team, user=team.owner)
    odds.odds_request(round=round, runs=RUNS + 1, team=team, user=team.owner)
    # The same inputs as the running request: joined, nothing spent.
    odds.odds_request(round=round, runs=RUNS + 1, team=team, user=team.owner)
    assert len(sent) == 2
    with pytest.raises(odds.OddsError, match=r"try again in \d+ minutes?\.") as refused:
        odds.odds_request(round=round, runs=RUNS + 2, team=team, user=team.owner)
    assert f"{3 * RUNS} runs an hour for each member" in str(refused.value)
    assert len(sent) == 2
    assert odds.odds_state(key=odds.odds_plan(round=round, runs=RUNS + 2, team=team).key) is None
    # Another member still has his own hour.
    other = demo.teams.filter(owner__isnull=False).order_by("pk")[1]
    odds.odds_request(round=round, runs=RUNS, team=other, user=other.owner)
    assert len(sent) == 3


def test_a_season_beyond_its_hours_runs_refuses_every_member(demo, settings, monkeypatch):
    settings.ODDS_SEASON_RUNS_PER_HOUR = 2 * RUNS
    round = stage(demo, 1)
    monkeypatch.setattr(odds, "odds_send", lambda plan: None)
    first, second, third = demo.teams.filter(owner__isnull=False).order_by("pk")[:3]
    odds.odds_request(round=round, runs=RUNS, team=first, user=first.owner)
    odds.odds_request(round=round, runs=RUNS, team=second, user=second.owner)
    with pytest.raises(odds.OddsError, match=r"for the whole season: try again in"):
        odds.odds_request(round=round, runs=RUNS, team=third, user=third.owner)


def test_a_counted_table_is_read_back_without_spending_the_budget(demo, settings):
    settings.ODDS_MEMBER_RUNS_PER_HOUR = RUNS
    round = stage(demo, 1)
    team = player_team(demo)
    first = odds.odds_request(round=round, runs=RUNS, team=team, user=team.owner)
    assert first.done
    for _ in range(3):
        assert odds.odds_request(round=round, runs=RUNS, team=team, user=team.owner).done


def test_a_new_draft_cancels_the_running_one_whose_chunks_then_count_nothing(demo, monkeypatch):
    round = stage(demo, 1)
    team = player_team(demo)
    monkeypatch.setattr(odds, "odds_send", lambda plan: None)
    orders = breakaway_orders(team)
    draft = odds.draft_orders_check(team=team, round=round, orders=orders)
    earlier = odds.odds_request(round=round, runs=RUNS, team=team, draft=draft, user=team.owner)
    saved = odds.odds_request(round=round, runs=RUNS, team=team, user=team.owner)
    first = next(iter(orders))
    newer_draft = odds.draft_orders_check(
        team=team, round=round, orders=orders | {first: orders[first] | {"no_breakaway": True}}
    )
    newer = odds.odds_request(round=round, runs=RUNS, team=team, draft=newer_draft, user=team.owner)
    assert newer.key != earlier.key
    assert odds.odds_state(key=earlier.key).cancelled
    # The saved orders' odds, asked with the draft, are not the draft's to cancel.
    assert not odds.odds_state(key=saved.key).cancelled
    assert not odds.odds_state(key=newer.key).cancelled

    def counted(plan, **kwargs):
        raise AssertionError("a cancelled chunk was counted")

    monkeypatch.setattr(odds, "plan_count", counted)
    parts = [odds.odds_chunk(key=earlier.key, index=i) for i in range(earlier.chunks_total)]
    assert all(part["cancelled"] and part["counts"] is None for part in parts)
    assert odds.odds_state(key=earlier.key).chunks_done == 0
    assert odds.odds_merge(key=earlier.key, parts=parts) is None
    assert not odds.odds_state(key=earlier.key).done
    monkeypatch.undo()
    # The newer one counts as ever.
    assert odds.odds_chunk(key=newer.key, index=0)["counts"]["runs"] == 5
