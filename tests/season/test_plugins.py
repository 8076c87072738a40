"""The season layer takes any game as a plugin: a ruleset it has never heard of, registered with
one line, is offered, validated, resolved and replayed through its adapter alone."""

from typing import Any

import pytest
from django.urls import reverse

from plugins import adapter_for, register, ruleset_choices, unregister
from races.adapters.moreno import ADAPTER as MORENO
from races.adapters.moreno import MorenoAdapter
from races.models import StageResult
from season.demo import demo_load
from season.forms import SeasonSettingsForm
from season.models import Round, Season
from season.replay import stage_replay
from season.services import resolution

pytestmark = pytest.mark.django_db


class FakeAdapter(MorenoAdapter):
    """A game the season layer was never told about; it races with Moréno's engine underneath
    and counts the times the season asked it to."""

    name = "fakegame"
    label = "Fake game"
    how_it_works = "A game made up for this test."

    def __init__(self) -> None:
        self.simulated = 0

    @property
    def ruleset(self) -> Any:
        return MORENO.ruleset

    @property
    def hooks(self) -> Any:
        return MORENO.hooks

    def simulate(self, inputs: Any, *, seed: int) -> Any:
        self.simulated += 1
        return MORENO.simulate(inputs, seed=seed)

    def inputs_to_data(self, inputs: Any) -> dict[str, Any]:
        return MORENO.inputs_to_data(inputs)

    def inputs_from_data(self, data: Any) -> Any:
        return MORENO.inputs_from_data(data)


@pytest.fixture
def fake():
    adapter = register(FakeAdapter())
    yield adapter
    unregister(adapter.name)


def test_a_registered_game_is_offered_and_accepted_without_a_migration(fake):
    assert ("fakegame", "Fake game") in ruleset_choices()
    assert ("fakegame", "Fake game") in SeasonSettingsForm().fields["ruleset"].choices
    season = demo_load()
    season.ruleset = "fakegame"
    season.full_clean()


def test_an_unregistered_game_is_refused_by_name():
    season = demo_load()
    season.ruleset = "fakegame"
    with pytest.raises(Exception, match="fakegame"):
        season.full_clean()


def test_a_round_of_that_game_is_resolved_and_replayed_through_its_adapter(fake, client):
    season = demo_load()
    Season.objects.filter(pk=season.pk).update(ruleset="fakegame")
    first = Round.objects.get(season=season, number=1)
    resolved = resolution.round_resolve(round_id=first.pk)
    assert fake.simulated == 1
    assert resolved.status == Round.Status.RESOLVED
    assert StageResult.objects.filter(stage=resolved.stage).count() == 176
    assert stage_replay(round=resolved) == []
    assert fake.simulated == 2
    assert adapter_for("fakegame") is fake
    # Its rules page and its settings form come from the adapter too.
    page = client.get(reverse("ruleset-rules", kwargs={"ruleset": "fakegame"}))
    assert page.status_code == 200
    assert "A game made up for this test." in page.content.decode()
