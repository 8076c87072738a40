"""The draft page (issue 17): the board of free riders as a sortable table with its filters, the
Pick buttons the rules forbid, the pick history, the clock, and the wish list, seen and changed
only by its team's player."""

import random
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from season import formation
from season.models import DraftPick, Season, WishListEntry
from tests.factories import RiderFactory, TeamFactory
from tests.season.builders import free_riders, joined, league, template_race

pytestmark = pytest.mark.django_db


def team_url(team):
    return reverse("player-team", kwargs={"slug": team.season.slug, "team_id": team.pk})


def wish_url(team):
    return reverse("player-wishlist", kwargs={"slug": team.season.slug, "team_id": team.pk})


def pick_url(team):
    return reverse("player-draft-pick", kwargs={"slug": team.season.slug, "team_id": team.pk})


@pytest.fixture
def drafting(alice, bob, charlie):
    """Alice and Bob draft two riders each, at most one per real team; Jumbo-Visma has three
    riders, one of them a climber rated 4."""
    template = template_race(real_teams=3, riders_per_team=3)
    jumbo = TeamFactory(name="Jumbo-Visma", year=2023)
    climber = RiderFactory(name="Jonas Vingegaard", team=jumbo, climber=4, time_trialist=3)
    RiderFactory(name="Wout van Aert", team=jumbo, sprinter=3, rouleur=3)
    RiderFactory(name="Sepp Kuss", team=jumbo, climber=3)
    season = league(organiser=charlie, template=template, roster_size=2, max_per_real_team=1)
    Season.objects.filter(pk=season.pk).update(draft_pick_minutes=10)
    teams = joined(season, alice, bob)
    formation.draft_start(season=season, rng=random.Random(1))
    for team in teams:
        team.refresh_from_db()
    first, second = sorted(teams, key=lambda t: t.draft_position)
    return season.__class__.objects.get(pk=season.pk), first, second, climber


def test_the_board_lists_the_free_riders_sorted_and_filtered(client, drafting):
    season, first, _second, climber = drafting
    client.force_login(first.owner)
    page = client.get(team_url(first)).content.decode()
    assert page.count('name="pick"') == 12  # 3 teams of 3 and Jumbo-Visma's 3
    assert "?board-sort=price" in page  # the headers sort
    # The ratings say what they mean (H, 0 ... 4) and the board has the scale's legend.
    assert '<abbr title="mythical">4</abbr>' in page
    assert 'id="ratings-legend"' in page.split('id="board"')[1]
    by_name = client.get(team_url(first), {"board-sort": "name"}).content.decode()
    names = sorted(r.name for r in free_riders(season))
    assert by_name.index(names[0]) < by_name.index(names[-1])
    climbers = client.get(team_url(first), {"speciality": "climber"}).content.decode()
    assert climbers.count('name="pick"') == 2  # Vingegaard (4) and Kuss (3)
    assert climbers.index("Jonas Vingegaard") < climbers.index("Sepp Kuss")
    jumbo = client.get(team_url(first), {"q": "jumbo"}).content.decode()
    assert jumbo.count('name="pick"') == 3
    assert client.get(team_url(first), {"speciality": "nonsense"}).status_code == 200
    assert climber.name in page


def test_the_board_pages_through_a_big_start_list(client, alice, bob, charlie):
    season = league(
        organiser=charlie, template=template_race(real_teams=22, riders_per_team=8), roster_size=8
    )
    first, *_ = joined(season, alice, bob)
    formation.draft_start(season=season, rng=random.Random(1))
    on_turn = formation.draft_status(season=season).on_turn
    client.force_login(on_turn.owner)
    page = client.get(team_url(on_turn)).content.decode()
    assert page.count('name="pick"') == 50
    last = client.get(team_url(on_turn), {"board-page": 4}).content.decode()
    assert last.count('name="pick"') == 176 - 150
    assert first.season_id == season.pk


def _three_picks(season, first, second, climber):
    """The first team takes the climber of Jumbo-Visma; the second, riders of two other real
    teams; the first is on turn again."""
    formation.draft_pick(season=season, team=first, pickable=climber, user=first.owner)
    others = [r for r in free_riders(season) if r.team_id != climber.team_id]
    formation.draft_pick(season=season, team=second, pickable=others[0], user=second.owner)
    other = next(r for r in others if r.team_id != others[0].team_id)
    formation.draft_pick(season=season, team=second, pickable=other, user=second.owner)


def test_a_rider_the_limit_per_real_team_forbids_has_his_pick_button_disabled_with_the_reason(
    client, drafting
):
    season, first, second, climber = drafting
    _three_picks(season, first, second, climber)
    client.force_login(first.owner)
    page = client.get(team_url(first), {"q": "jumbo"}).content.decode()
    reason = "1 rider of Jumbo-Visma already: limit 1"
    assert page.count(reason) == 2  # van Aert and Kuss
    assert page.count("disabled") == 2
    assert page.count('name="pick"') == 0


def test_a_forbidden_rider_posted_by_hand_is_refused_with_the_rule(client, drafting):
    season, first, second, climber = drafting
    _three_picks(season, first, second, climber)
    kuss_rider = next(r for r in free_riders(season) if r.name == "Sepp Kuss")
    client.force_login(first.owner)
    response = client.post(pick_url(first), {"pick": kuss_rider.pk}, follow=True)
    assert "At most 1 rider from one real team: 2 from Jumbo-Visma." in response.content.decode()
    assert first.seats.count() == 1


def test_the_pick_history_lists_every_pick_with_the_automatic_ones_marked(
    client, drafting, charlie
):
    season, first, second, climber = drafting
    formation.draft_pick(season=season, team=first, pickable=climber, user=first.owner)
    formation.draft_autopick(season=season, user=charlie)
    client.force_login(second.owner)
    page = client.get(team_url(second)).content.decode()
    history = page[page.index('id="picks"') :]
    assert climber.name in history
    assert first.owner.username in history
    assert "the organiser (automatic)" in history
    assert "picks-sort=number" in history
    assert DraftPick.objects.count() == 2


def test_the_page_shows_whose_turn_it_is_and_the_time_left(client, drafting):
    season, first, second, _climber = drafting
    started = timezone.now() - timedelta(minutes=3)
    Season.objects.filter(pk=season.pk).update(draft_started_at=started)
    client.force_login(second.owner)
    before = timezone.now()
    page = client.get(team_url(second)).content.decode()
    after = timezone.now()
    assert f"Time left for {first.name}:" in page
    assert 'data-seconds-left="' in page
    seconds = int(page.split('data-seconds-left="')[1].split('"')[0])
    # Ten minutes a pick, three gone, and however long the request took (a loaded machine).
    assert 600 - (after - started).total_seconds() - 1 <= seconds
    assert seconds <= 600 - (before - started).total_seconds()
    client.force_login(first.owner)
    assert "Your time left:" in client.get(team_url(first)).content.decode()


def test_no_clock_is_shown_without_minutes_per_pick(client, drafting):
    season, first, _second, _climber = drafting
    Season.objects.filter(pk=season.pk).update(draft_pick_minutes=0)
    client.force_login(first.owner)
    assert "data-pick-clock" not in client.get(team_url(first)).content.decode()


# --- the wish list ---------------------------------------------------------------------------


def test_a_player_builds_his_wish_list_from_the_board(client, drafting):
    season, first, _second, climber = drafting
    kuss = next(r for r in free_riders(season) if r.name == "Sepp Kuss")
    client.force_login(first.owner)
    client.post(wish_url(first), {"add": climber.pk})
    response = client.post(wish_url(first), {"add": kuss.pk}, follow=True)
    assert "Sepp Kuss is on your wish list." in response.content.decode()
    client.post(wish_url(first), {"up": kuss.pk})
    assert [w.rider for w in formation.wish_list(team=first)] == [kuss, climber]
    client.post(wish_url(first), {"down": kuss.pk})
    assert [w.rider for w in formation.wish_list(team=first)] == [climber, kuss]
    client.post(wish_url(first), {"remove": climber.pk})
    assert [w.rider for w in formation.wish_list(team=first)] == [kuss]
    page = client.get(team_url(first)).content.decode()
    wish_list = page[page.index('id="wishlist"') : page.index('id="board"')]
    assert "Sepp Kuss" in wish_list
    assert "Jonas Vingegaard" not in wish_list


def test_a_wish_list_goes_back_to_the_board_as_it_was(client, drafting):
    _season, first, _second, climber = drafting
    client.force_login(first.owner)
    back = team_url(first) + "?q=jumbo&board-sort=name"
    response = client.post(wish_url(first), {"add": climber.pk, "next": back})
    assert response.url == back + "#wishlist"
    elsewhere = client.post(
        wish_url(first), {"remove": climber.pk, "next": "https://evil.example/"}
    )
    assert elsewhere.url == team_url(first) + "#wishlist"


def test_another_player_neither_sees_nor_changes_my_wish_list(client, drafting):
    season, first, second, climber = drafting
    formation.wish_add(team=first, pickable=climber)
    client.force_login(second.owner)
    assert client.post(wish_url(first), {"remove": climber.pk}).status_code == 403
    assert client.post(wish_url(first), {"add": free_riders(season)[1].pk}).status_code == 403
    assert client.get(team_url(first)).status_code == 403
    page = client.get(team_url(second)).content.decode()
    wish_list = page[page.index('id="wishlist"') : page.index('id="board"')]
    assert climber.name not in wish_list
    assert [w.rider for w in formation.wish_list(team=first)] == [climber]


def test_the_organiser_cannot_change_a_players_wish_list(client, drafting, charlie):
    _season, first, _second, climber = drafting
    client.force_login(charlie)
    assert client.post(wish_url(first), {"add": climber.pk}).status_code == 403
    assert not WishListEntry.objects.exists()


def test_a_visitor_is_sent_to_log_in(client, drafting):
    _season, first, _second, climber = drafting
    response = client.post(wish_url(first), {"add": climber.pk})
    assert response.status_code == 302
    assert "/login" in response.url
    assert not WishListEntry.objects.exists()


@pytest.mark.parametrize(
    "data",
    [{}, {"add": ""}, {"add": "abc"}, {"add": "99999999999999999999"}, {"up": "-1"}, {"add": "0"}],
)
def test_bad_wish_list_input_gets_a_message_not_an_error(client, drafting, data):
    _season, first, _second, _climber = drafting
    client.force_login(first.owner)
    response = client.post(wish_url(first), data, follow=True)
    assert response.status_code == 200
    assert "Choose a rider for your wish list." in response.content.decode()


def test_a_rider_already_picked_cannot_be_wished_and_leaves_every_list(client, drafting):
    season, first, second, climber = drafting
    formation.wish_add(team=second, pickable=climber)
    formation.draft_pick(season=season, team=first, pickable=climber, user=first.owner)
    assert not WishListEntry.objects.exists()
    client.force_login(second.owner)
    response = client.post(wish_url(second), {"add": climber.pk}, follow=True)
    assert "Jonas Vingegaard has already been picked." in response.content.decode()


def test_a_rider_of_another_race_cannot_be_wished(client, drafting):
    _season, first, _second, _climber = drafting
    stranger = RiderFactory(name="Tadej Pogačar", team=TeamFactory(year=2019))
    client.force_login(first.owner)
    response = client.post(wish_url(first), {"add": stranger.pk}, follow=True)
    assert "Tadej Pogačar is not in this race." in response.content.decode()


def test_a_wish_list_is_kept_short(drafting, monkeypatch):
    season, first, _second, _climber = drafting
    monkeypatch.setattr(formation, "WISH_LIST_MAX", 2)
    riders = free_riders(season)
    formation.wish_add(team=first, pickable=riders[0])
    formation.wish_add(team=first, pickable=riders[1])
    with pytest.raises(formation.FormationError, match="at most 2 riders"):
        formation.wish_add(team=first, pickable=riders[2])


def test_a_rider_is_wished_once(drafting):
    _season, first, _second, climber = drafting
    formation.wish_add(team=first, pickable=climber)
    with pytest.raises(formation.FormationError, match="already on your wish list"):
        formation.wish_add(team=first, pickable=climber)


def test_no_wish_list_once_the_team_is_complete(drafting):
    season, first, second, climber = drafting
    _three_picks(season, first, second, climber)
    formation.draft_autopick(season=season, user=None)
    with pytest.raises(formation.FormationError, match="The draft is over"):
        formation.wish_add(team=first, pickable=free_riders(season)[0])


def test_a_budget_season_has_no_wish_list(alice, charlie):
    season = league(organiser=charlie, formation_mode=Season.FormationMode.BUDGET)
    (team,) = joined(season, alice)
    with pytest.raises(
        formation.FormationError, match="This season has no draft: there is no wish list"
    ):
        formation.wish_add(team=team, pickable=free_riders(season)[0])


def test_the_wish_list_can_be_prepared_before_the_draft_starts(alice, bob, charlie):
    season = league(organiser=charlie)
    team, _other = joined(season, alice, bob)
    rider = free_riders(season)[0]
    formation.wish_add(team=team, pickable=rider)
    assert [w.rider for w in formation.wish_list(team=team)] == [rider]


# --- the settings ------------------------------------------------------------------------------


def test_the_organiser_sets_the_minutes_per_pick_in_the_settings(client, drafting, charlie):
    season, *_rest = drafting
    client.force_login(charlie)
    url = reverse("organiser-settings", kwargs={"slug": season.slug})
    page = client.get(url).content.decode()
    assert 'name="draft_pick_minutes"' in page
    assert 'value="10"' in page


def test_the_organiser_sees_when_the_team_on_turn_runs_out_of_time(client, drafting, charlie):
    season, first, _second, _climber = drafting
    client.force_login(charlie)
    page = client.get(reverse("organiser-season", kwargs={"slug": season.slug})).content.decode()
    assert "Its time runs out at" in page
    assert f"Pick for {first.name} (its wish list first" in page
    Season.objects.filter(pk=season.pk).update(draft_pick_minutes=0)
    page = client.get(reverse("organiser-season", kwargs={"slug": season.slug})).content.decode()
    assert "Its time runs out at" not in page
