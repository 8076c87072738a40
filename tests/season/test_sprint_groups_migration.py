"""Season migration 0033: a Moréno season that has raced a round keeps the groups at the line
it was raced with (sprint_free_cases 0, version 4's groups), a season still to race takes
version 5's one time for a bunch sprint (engine/rulesets/moreno/finish.py)."""

import importlib

import pytest
from django.apps import apps

from plugins import adapter_for
from season.models import Round
from tests.season.builders import league, stage

pytestmark = pytest.mark.django_db

migration = importlib.import_module(
    "season.migrations.0033_moreno_sprint_groups_kept_for_raced_seasons"
)


def _sprint_free_cases(season) -> int:
    season.refresh_from_db()
    return adapter_for(season.ruleset).engine_settings(season.rules).sprint_free_cases


def test_a_moreno_season_that_raced_keeps_its_groups_and_one_to_race_takes_version_5(alice):
    raced = league(organiser=alice, slug="raced")
    to_race = league(organiser=alice, slug="to-race")
    other = league(organiser=alice, slug="cyclosim", ruleset="cyclosim")
    for season in (raced, other):
        Round.objects.filter(pk=stage(season, 1).pk).update(status=Round.Status.RESOLVED)

    migration.keep_the_old_groups(apps, None)

    assert _sprint_free_cases(raced) == 0
    assert _sprint_free_cases(to_race) == 6
    other.refresh_from_db()
    assert "sprint_free_cases" not in (other.rule_settings.get("engine") or {})
    # Run twice, it changes nothing more (an organiser's own value stays).
    migration.keep_the_old_groups(apps, None)
    assert _sprint_free_cases(raced) == 0
