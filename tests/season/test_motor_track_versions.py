"""A track edited in the admin (issue 31 item 5): a new version for new leagues; a running
league's Grands Prix, raced or not, keep the version they were created on, and a raced round
still replays identically on it."""

import copy

import pytest

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
