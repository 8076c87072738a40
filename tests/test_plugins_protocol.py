"""One typed adapter for every game (issue 27): each registered adapter answers every member
of plugins.GameAdapter, whatever its discipline; one that lacks a member is refused at
registration, naming it; a discipline's own member is reached only by narrowing."""

import pytest

from plugins import (
    CYCLING,
    MOTOR,
    GameAdapter,
    Starter,
    WrongDiscipline,
    adapter_for,
    adapter_names,
    cycling_adapter,
    motor_adapter,
    register,
)
from plugins.registry import PROTOCOL_MEMBERS, protocol_missing

pytestmark = pytest.mark.django_db


def test_every_registered_game_answers_the_whole_protocol():
    assert set(adapter_names()) >= {"moreno", "cyclosim", "grandprix", "ludicitude"}
    for name in adapter_names():
        adapter = adapter_for(name)
        assert protocol_missing(adapter) == [], name
        assert isinstance(adapter, GameAdapter)
        assert adapter.discipline in (CYCLING, MOTOR)


def test_the_protocol_holds_what_both_disciplines_share():
    for member in ("orders_errors", "order_fields", "odds_runner", "simulate", "dice_seed"):
        assert member in PROTOCOL_MEMBERS
    # A round's whole path: its event, its starters' inputs, its rows, its replay.
    for member in ("round_event", "starters_racing", "round_inputs", "inputs_stored"):
        assert member in PROTOCOL_MEMBERS
    for member in ("round_write", "round_replay", "seat_label", "unknown_seats"):
        assert member in PROTOCOL_MEMBERS
    # Creating a league is the same call for every game (issue 27): its event and rounds.
    for member in (
        "league_events",
        "league_event_get",
        "league_event_fits",
        "league_event_problems",
        "league_event",
        "league_season_fields",
        "league_rounds",
        "league_settings_changed",
        "league_settings_unused",
    ):
        assert member in PROTOCOL_MEMBERS
    # One orders page for every game (issue 27): its fragment, its context, its checks.
    for member in ("orders_template", "orders_context", "orders_title", "seat_clean"):
        assert member in PROTOCOL_MEMBERS
    assert "rider_clean" not in PROTOCOL_MEMBERS
    # A discipline's own member is not in it: the season layer narrows to reach it.
    assert "inputs_build" not in PROTOCOL_MEMBERS
    assert "max_cars" not in PROTOCOL_MEMBERS


def test_an_adapter_lacking_a_member_is_refused_by_name():
    class HalfAGame:
        name = "half-a-game"
        label = "Half a game"

    with pytest.raises(
        TypeError,
        match="adapter 'half-a-game' lacks api_events, api_results, api_standing, api_tables, "
        "candidate, commitment_of",
    ):
        register(HalfAGame())
    assert "half-a-game" not in adapter_names()


def test_a_disciplines_own_members_are_reached_by_narrowing():
    assert cycling_adapter("moreno").discipline == CYCLING
    assert motor_adapter("grandprix").discipline == MOTOR
    with pytest.raises(WrongDiscipline, match="'grandprix' is a motor game, not a cycling one"):
        cycling_adapter("grandprix")
    with pytest.raises(WrongDiscipline, match="'cyclosim' is a cycling game, not a motor one"):
        motor_adapter("cyclosim")


def test_both_disciplines_check_orders_with_the_same_call():
    from season.demo import demo_load, motor_demo_load

    # Cyclo Sim's attack window beyond the demo's first finish; a risk the F1 game lacks.
    cases = [
        ("cyclosim", demo_load(), {1: {"attack_from_km": 500.0, "attack_to_km": 510.0}}, "Attack"),
        ("grandprix", motor_demo_load(), {"1": {"risk": "reckless"}}, "Car 1, risk"),
    ]
    for name, season, orders, named in cases:
        round = season.rounds.get(number=1)
        errors = adapter_for(name).orders_errors(orders=orders, round=round)
        assert named in errors[0], errors


def test_both_disciplines_race_a_round_from_the_same_plain_starters():
    """The season hands every game the same Starter values (its seats and their orders); the
    adapter makes its engine's inputs of them, and those are what the resolution stores."""
    from season.demo import demo_load, motor_demo_load
    from season.services.resolution import round_resolve, round_starters

    for season in (demo_load(), motor_demo_load()):
        adapter = adapter_for(season.ruleset)
        first = season.rounds.get(number=1)
        starters = round_starters(round=first)
        assert starters
        assert all(isinstance(starter, Starter) for starter in starters)
        inputs = adapter.round_inputs(
            event=adapter.round_event(first), starters=starters, rules=season.rules
        )
        stored = adapter.inputs_stored(inputs)
        assert round_resolve(round_id=first.pk).engine_inputs == stored, season.ruleset


def test_both_disciplines_refuse_a_seat_not_the_teams_by_the_same_check():
    """A team's orders for a seat of another team are refused, naming the seat, in each game's
    words, by one check (season.services.orders.team_orders_check)."""
    from season.demo import demo_load, motor_demo_load
    from season.selectors import season_seats
    from season.services.orders import OrdersInvalid, team_orders_check

    for season, words in (
        (demo_load(), "Riders [{seat}] are not in this team's starting riders."),
        (motor_demo_load(), "Cars {seat} are not this team's."),
    ):
        team, rival = season.teams.order_by("pk")[:2]
        seat = season_seats(season=season, team=rival)[0].key
        with pytest.raises(OrdersInvalid) as refused:
            team_orders_check(team=team, round=season.rounds.get(number=1), orders={seat: {}})
        assert refused.value.errors == [words.format(seat=seat)]


def test_each_game_says_which_events_it_races():
    from motor.models import Championship
    from season.demo import demo_load, motor_demo_load

    race = demo_load().event
    championship = motor_demo_load().championship
    assert isinstance(championship, Championship)
    for name in adapter_names():
        adapter = adapter_for(name)
        cycling = adapter.discipline == CYCLING
        assert adapter.league_event_fits(race) is cycling, name
        # The demo's Grands Prix are on the Grand Prix game's tracks: no other game races them.
        assert adapter.league_event_fits(championship) is (name == "grandprix"), name
        assert adapter.league_event_get("no-such-event") is None


LEAGUE_PAGES = ("season", "round", "team", "dice", "players", "route")


def test_every_game_names_its_league_pages_and_each_extends_the_seasons_shell():
    from django.template.loader import get_template
    from django.template.loader_tags import ExtendsNode

    for member in ("league_templates", "league_season", "league_round", "league_end"):
        assert member in PROTOCOL_MEMBERS
    for name in adapter_names():
        templates = adapter_for(name).league_templates
        assert set(templates) >= set(LEAGUE_PAGES), name
        for page in LEAGUE_PAGES:
            # A game's page is its own app's template; the season's shell is generic.
            assert not templates[page].startswith("season/"), (name, page)
            if page == "route":
                continue
            extends = get_template(templates[page]).template.nodelist.get_nodes_by_type(ExtendsNode)
            assert extends[0].parent_name.var == f"season/league/{page}.html", (name, page)


def test_a_round_and_a_season_say_what_they_play_without_being_asked_which_game():
    from motor.models import Championship, GrandPrix
    from races.models import Race, Stage
    from season.demo import demo_load, motor_demo_load

    cycling, motor = demo_load(), motor_demo_load()
    assert isinstance(cycling.event, Race)
    assert isinstance(cycling.rounds.get(number=1).event, Stage)
    assert isinstance(motor.event, Championship)
    assert isinstance(motor.rounds.get(number=1).event, GrandPrix)


def test_only_a_championship_serves_pages_of_its_own_under_the_season():
    assert adapter_for("moreno").league_event_pages == ()
    assert set(adapter_for("grandprix").league_event_pages) >= {"round", "standings"}
