"""Team formation: prices, the draft in turns and picks within a budget."""

import itertools
import random

import pytest

from races.team_rules import PRICE_BASE, price_of, rider_price
from riders.models import RATING_AXES
from season import formation
from season.formation import Candidate, FormationError, roster_errors, snake_team_index
from season.models import DraftPick, Round, Season, Seat
from season.orders import default_roles
from tests.factories import RiderFactory, TeamFactory
from tests.season.builders import free_riders, joined, league, stage, template_race

# --- prices (pure) --------------------------------------------------------------------------


def test_a_rider_rated_0_everywhere_costs_the_base_price():
    assert price_of(dict.fromkeys(RATING_AXES, 0)) == PRICE_BASE


def test_every_step_up_a_rating_costs_more_than_the_step_before():
    for axis in RATING_AXES:
        prices = [price_of({axis: rating}) for rating in (0, 1, 2, 3, 4)]
        steps = [b - a for a, b in itertools.pairwise(prices)]
        assert all(step > 0 for step in steps), axis
        assert steps == sorted(steps), axis


def test_one_champion_climber_costs_more_than_two_strong_ones():
    champion = price_of({"climber": 3})
    strong = price_of({"climber": 1})
    assert champion > 2 * strong


def test_climbing_weighs_more_than_descending():
    assert price_of({"climber": 2}) > price_of({"descender": 2})


def test_a_handicap_costs_nothing_extra():
    assert price_of({"sprinter": -1}) == PRICE_BASE


# --- the rules of a roster (pure) -----------------------------------------------------------


def test_the_snake_order_reverses_every_round():
    order = [snake_team_index(pick, 3) for pick in range(1, 10)]
    assert order == [0, 1, 2, 2, 1, 0, 0, 1, 2]


def candidate(rider_id, team_id=1, price=10, team="Jumbo-Visma"):
    return Candidate(rider_id, f"Rider {rider_id}", team_id, team, price, person_id=rider_id)


def test_a_roster_over_the_limit_of_one_real_team_names_the_team_and_the_rule():
    roster = [candidate(1), candidate(2), candidate(3)]
    errors = roster_errors(roster=roster, roster_size=8, max_per_real_team=2)
    assert errors == ["At most 2 riders from one real team: 3 from Jumbo-Visma."]


def test_a_budget_roster_must_be_complete_and_within_the_budget():
    roster = [candidate(1, 1, 60), candidate(2, 2, 50)]
    errors = roster_errors(
        roster=roster, roster_size=3, max_per_real_team=None, budget=100, complete=True
    )
    assert errors == [
        "Choose exactly 3 riders (2 chosen).",
        "The riders cost 110, over the budget of 100.",
    ]


def test_no_limit_per_real_team_when_the_season_sets_none():
    roster = [candidate(n) for n in range(1, 6)]
    assert roster_errors(roster=roster, roster_size=8, max_per_real_team=None) == []


# --- the draft -------------------------------------------------------------------------------


@pytest.fixture
def drafting(alice, bob, charlie):
    season = league(organiser=charlie, roster_size=2, max_per_real_team=1)
    alice_team, bob_team = joined(season, alice, bob)
    formation.draft_start(season=season, rng=random.Random(1))
    alice_team.refresh_from_db()
    bob_team.refresh_from_db()
    first, second = sorted([alice_team, bob_team], key=lambda t: t.draft_position)
    return season, first, second


@pytest.mark.django_db
def test_starting_the_draft_draws_an_order_over_every_team(alice, bob, charlie):
    season = league(organiser=charlie)
    teams = joined(season, alice, bob, charlie)
    formation.draft_start(season=season, rng=random.Random(7))
    positions = sorted(season.teams.values_list("draft_position", flat=True))
    assert positions == [1, 2, 3]
    assert len(teams) == 3
    season.refresh_from_db()
    assert season.draft_started_at is not None


@pytest.mark.django_db
def test_a_draft_starts_once(drafting):
    season, _first, _second = drafting
    with pytest.raises(FormationError, match="already started"):
        formation.draft_start(season=season)


@pytest.mark.django_db
def test_a_draft_needs_two_teams(alice, charlie):
    season = league(organiser=charlie)
    joined(season, alice)
    with pytest.raises(FormationError, match="at least two teams"):
        formation.draft_start(season=season)


@pytest.mark.django_db
def test_a_draft_without_teams_is_refused_with_the_count(charlie):
    season = league(organiser=charlie)
    assert formation.draft_start_refusal(season) == (
        "A draft needs at least two teams: 0 have joined. Invite the players first."
    )
    with pytest.raises(FormationError, match="0 have joined"):
        formation.draft_start(season=season)
    season.refresh_from_db()
    assert season.draft_started_at is None


@pytest.mark.django_db
def test_a_budget_season_has_no_draft(alice, bob, charlie):
    season = league(organiser=charlie, formation_mode=Season.FormationMode.BUDGET)
    joined(season, alice, bob)
    with pytest.raises(FormationError, match="budget, not a draft"):
        formation.draft_start(season=season)


@pytest.mark.django_db
def test_the_team_on_turn_picks_a_free_rider(drafting):
    season, first, _second = drafting
    rider = free_riders(season)[0]
    pick = formation.draft_pick(season=season, team=first, pickable=rider, user=first.owner)
    assert pick.number == 1
    assert list(first.seats.values_list("rider_id", flat=True)) == [rider.pk]


@pytest.mark.django_db
def test_a_team_off_turn_is_told_whose_turn_it_is(drafting):
    season, first, second = drafting
    rider = free_riders(season)[0]
    with pytest.raises(FormationError, match=f"It is {first.name}'s turn \\(pick 1\\)"):
        formation.draft_pick(season=season, team=second, pickable=rider, user=second.owner)
    assert not DraftPick.objects.exists()
    assert not Seat.objects.exists()


@pytest.mark.django_db
def test_a_rider_is_picked_once(drafting):
    season, first, second = drafting
    rider = free_riders(season)[0]
    formation.draft_pick(season=season, team=first, pickable=rider, user=first.owner)
    with pytest.raises(FormationError, match="already been picked"):
        formation.draft_pick(season=season, team=second, pickable=rider, user=second.owner)


@pytest.mark.django_db
def test_a_pick_over_the_limit_of_one_real_team_is_refused_naming_the_rule(drafting):
    season, first, second = drafting
    riders = free_riders(season)
    same_team = [r for r in riders if r.team_id == riders[0].team_id]
    formation.draft_pick(season=season, team=first, pickable=same_team[0], user=first.owner)
    formation.draft_pick(season=season, team=second, pickable=same_team[1], user=second.owner)
    with pytest.raises(FormationError, match="At most 1 rider from one real team: 2 from"):
        formation.draft_pick(season=season, team=second, pickable=same_team[2], user=second.owner)
    assert second.seats.count() == 1


@pytest.mark.django_db
def test_the_snake_gives_the_last_team_of_a_round_two_picks_in_a_row(drafting):
    season, first, second = drafting
    one_per_real_team = {}
    for rider in free_riders(season):
        one_per_real_team.setdefault(rider.team_id, rider)
    riders = iter(one_per_real_team.values())
    assert formation.draft_status(season=season).on_turn == first
    formation.draft_pick(season=season, team=first, pickable=next(riders), user=None)
    assert formation.draft_status(season=season).on_turn == second
    formation.draft_pick(season=season, team=second, pickable=next(riders), user=None)
    assert formation.draft_status(season=season).on_turn == second
    formation.draft_pick(season=season, team=second, pickable=next(riders), user=None)
    assert formation.draft_status(season=season).on_turn == first


@pytest.mark.django_db
def test_a_complete_team_gets_default_roles_and_bibs_and_the_last_pick_opens_stage_1(drafting):
    season, first, second = drafting
    for _pick in range(4):
        formation.draft_autopick(season=season, user=season.organiser)
    assert formation.draft_status(season=season).complete
    for team in (first, second):
        members = list(team.seats.select_related("rider").order_by("number"))
        assert len(members) == 2
        expected = default_roles(m.rider for m in members)
        assert {m.rider_id: m.role for m in members} == expected
        assert members[0].role == "gc_leader"
    assert sorted(first.seats.values_list("number", flat=True)) == [1, 2]
    assert sorted(second.seats.values_list("number", flat=True)) == [11, 12]
    assert stage(season, 1).status == Round.Status.OPEN
    assert stage(season, 2).status == Round.Status.SCHEDULED


@pytest.mark.django_db
def test_the_organiser_picks_the_dearest_free_rider_that_fits(drafting):
    season, first, _second = drafting
    dearest = max(free_riders(season), key=lambda r: (rider_price(r), -r.pk))
    pick = formation.draft_autopick(season=season, user=season.organiser)
    assert (pick.team, pick.rider) == (first, dearest)


@pytest.mark.django_db
def test_no_pick_after_the_draft(drafting):
    season, first, _second = drafting
    for _pick in range(4):
        formation.draft_autopick(season=season, user=None)
    rider = free_riders(season)[0]
    with pytest.raises(FormationError, match="The draft is over"):
        formation.draft_pick(season=season, team=first, pickable=rider, user=None)


@pytest.mark.django_db
def test_a_draft_needs_enough_riders_for_every_team(alice, bob, charlie):
    season = league(organiser=charlie, template=template_race(real_teams=1, riders_per_team=3))
    joined(season, alice)
    # One team fits the start list of three riders at two per team; a second one would not.
    from season.models import SeasonTeam

    SeasonTeam.objects.create(season=season, name="Computer", owner=None)
    season.roster_size = 2
    season.save()
    with pytest.raises(FormationError, match="The pool has 3 riders; 2 teams of 2 need 4"):
        formation.draft_start(season=season)


# --- picks within a budget --------------------------------------------------------------------


@pytest.fixture
def budget_league(alice, bob, charlie):
    template = template_race(real_teams=0)
    jumbo, uae = TeamFactory(name="Jumbo-Visma", year=2023), TeamFactory(name="UAE", year=2023)
    riders = {
        "star": RiderFactory(team=uae, climber=4, time_trialist=3),  # 5 + 30 + 12 = 47
        "climber": RiderFactory(team=jumbo, climber=3),  # 5 + 18 = 23
        "sprinter": RiderFactory(team=jumbo, sprinter=3),  # 5 + 12 = 17
        "rouleur": RiderFactory(team=uae, rouleur=2),  # 5 + 3 = 8
        "domestique": RiderFactory(team=jumbo),  # 5
    }
    season = league(
        organiser=charlie,
        template=template,
        formation_mode=Season.FormationMode.BUDGET,
        roster_size=2,
        budget=55,
        max_per_real_team=1,
    )
    alice_team, bob_team = joined(season, alice, bob)
    return season, alice_team, bob_team, riders


@pytest.mark.django_db
def test_the_prices_in_the_budget_league_are_as_documented(budget_league):
    _season, _a, _b, riders = budget_league
    prices = {name: rider_price(r) for name, r in riders.items()}
    assert prices == {"star": 47, "climber": 23, "sprinter": 17, "rouleur": 8, "domestique": 5}


@pytest.mark.django_db
def test_a_player_picks_his_riders_within_the_budget(budget_league):
    _season, alice_team, _b, riders = budget_league
    members = formation.team_select(
        team=alice_team, pickable_ids=[riders["climber"].pk, riders["rouleur"].pk]
    )
    assert {m.rider_id for m in members} == {riders["climber"].pk, riders["rouleur"].pk}
    roles = {m.rider_id: m.role for m in members}
    assert roles[riders["climber"].pk] == "gc_leader"
    assert [m.number for m in members] == [1, 2]


@pytest.mark.django_db
def test_a_selection_over_the_budget_is_refused_and_changes_nothing(budget_league):
    _season, alice_team, _b, riders = budget_league
    with pytest.raises(FormationError, match="The riders cost 70, over the budget of 55"):
        formation.team_select(
            team=alice_team, pickable_ids=[riders["star"].pk, riders["climber"].pk]
        )
    assert not alice_team.seats.exists()


@pytest.mark.django_db
def test_a_selection_respects_the_limit_per_real_team(budget_league):
    _season, alice_team, _b, riders = budget_league
    with pytest.raises(FormationError, match="At most 1 rider from one real team: 2 from Jumbo"):
        formation.team_select(
            team=alice_team, pickable_ids=[riders["sprinter"].pk, riders["domestique"].pk]
        )


@pytest.mark.django_db
def test_a_selection_has_exactly_the_roster_size(budget_league):
    _season, alice_team, _b, riders = budget_league
    with pytest.raises(FormationError, match="Choose exactly 2 riders \\(1 chosen\\)"):
        formation.team_select(team=alice_team, pickable_ids=[riders["domestique"].pk])


@pytest.mark.django_db
def test_a_rider_in_another_team_cannot_be_selected(budget_league):
    _season, alice_team, bob_team, riders = budget_league
    formation.team_select(team=bob_team, pickable_ids=[riders["climber"].pk, riders["rouleur"].pk])
    with pytest.raises(FormationError, match="Already in another team"):
        formation.team_select(
            team=alice_team, pickable_ids=[riders["climber"].pk, riders["star"].pk]
        )


@pytest.mark.django_db
def test_a_player_may_change_his_selection_until_the_race_starts(budget_league):
    season, alice_team, _b, riders = budget_league
    formation.team_select(
        team=alice_team, pickable_ids=[riders["climber"].pk, riders["rouleur"].pk]
    )
    formation.team_select(
        team=alice_team, pickable_ids=[riders["star"].pk, riders["domestique"].pk]
    )
    assert set(alice_team.seats.values_list("rider_id", flat=True)) == {
        riders["star"].pk,
        riders["domestique"].pk,
    }
    Round.objects.filter(season=season, number=1).update(status=Round.Status.OPEN)
    with pytest.raises(FormationError, match="The race has started"):
        formation.team_select(
            team=alice_team, pickable_ids=[riders["climber"].pk, riders["rouleur"].pk]
        )


@pytest.mark.django_db
def test_the_pool_is_the_start_list_when_one_was_imported(alice, charlie):
    from races.models import RaceEntry

    template = template_race(real_teams=2, riders_per_team=2)
    listed = RiderFactory()
    RaceEntry.objects.create(race=template, rider=listed)
    season = league(organiser=charlie, template=template)
    assert list(formation.pool(season=season)) == [listed]
