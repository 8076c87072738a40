"""A track edited in the admin (issue 31 item 5): a new version for new leagues; a running
league's Grands Prix, raced or not, keep the version they were created on, and a raced round
still replays identically on it."""

import copy

import pytest
from django.utils.html import escape

from motor.models import GrandPrix, Track
from motor.track_files import track_edit_store
from season.replay import stage_replay
from tests.season.motor_builders import (
    joined,
    motor_league,
    real_championship,
    round_resolved,
    two_cars_each,
)

pytestmark = pytest.mark.django_db


def edited(track: Track) -> Track:
    """The admin's edit of the track's first corner (one gear more), a new version."""
    content = copy.deepcopy(track.content)
    content["corners"][0]["max_gear"] += 1
    new, created = track_edit_store(track=track, content=content)
    assert created
    return new


def test_a_raced_round_keeps_its_version_and_replays_identically(alice, bob):
    season = motor_league(organiser=alice)
    (team,) = joined(season, bob)
    two_cars_each(season, team)
    raced = round_resolved(season, 1)
    old = raced.grand_prix.track
    new = edited(old)
    assert (new.slug, new.version) == (old.slug, old.version + 1)
    raced.grand_prix.refresh_from_db()
    assert raced.grand_prix.track_id == old.pk
    assert raced.engine_inputs["track"]["hash"] == old.content_hash
    assert stage_replay(round=raced) == []


def test_unraced_rounds_of_a_running_league_keep_their_version_new_leagues_take_the_new(alice, bob):
    real = real_championship()
    season = motor_league(organiser=alice, championship=real)
    second = season.rounds.get(number=2).grand_prix
    new = edited(second.track)
    second.refresh_from_db()
    assert second.track.version == new.version - 1  # what the players saw when they joined
    later = motor_league(organiser=alice, championship=real, slug="later-friends")
    assert later.rounds.get(number=2).grand_prix.track_id == new.pk
    # The real championship's own row is not moved either.
    assert GrandPrix.objects.get(championship=real, round=2).track.version == new.version - 1


def test_an_admin_applies_the_new_version_to_unraced_rounds_explicitly(alice, bob, client):
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.create_superuser("root", "r@example.org", "pw"))
    real = real_championship()
    season = motor_league(organiser=alice, championship=real)
    (team,) = joined(season, bob)
    two_cars_each(season, team)
    raced = round_resolved(season, 1)
    old = raced.grand_prix.track
    # Round 1 and a round of the same circuit still to race: the real calendar has one Monza,
    # so the league's round 3 is put on Monza for the test.
    unraced = season.rounds.get(number=3).grand_prix
    GrandPrix.objects.filter(pk=unraced.pk).update(track=old)
    new = edited(old)
    page = client.get(f"/admin/motor/track/{new.pk}/change/").content.decode()
    assert "One unraced Grand Prix of a running league is on another version" in page
    confirm = client.get(f"/admin/motor/track/{new.pk}/apply/").content.decode()
    assert escape(season.championship.name) in confirm
    assert unraced.name in confirm
    assert raced.grand_prix.name not in confirm
    response = client.post(
        f"/admin/motor/track/{new.pk}/apply/",
        {"grand_prix": [unraced.pk, raced.grand_prix_id]},  # a raced one posted is not moved
    )
    assert response.status_code == 302
    unraced.refresh_from_db()
    raced.grand_prix.refresh_from_db()
    assert (unraced.track_id, raced.grand_prix.track_id) == (new.pk, old.pk)
    assert stage_replay(round=raced) == []
    # The league's players read it in the season's history, on its page.
    entry = season.history.get()
    assert (entry.kind, entry.from_round) == ("track", 3)
    assert entry.params["grands_prix"] == [unraced.name]
    client.force_login(bob)
    season_page = client.get(f"/seasons/{season.slug}/").content.decode()
    assert 'id="history"' in season_page
    assert escape(new.name) in season_page
    assert escape(unraced.name) in season_page
