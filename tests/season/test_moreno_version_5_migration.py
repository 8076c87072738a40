"""Season migration 0033: a Moréno season that has raced a round keeps version 4's rules (the
groups at the line, sprint_free_cases 0; one confirm die for a crash, crash_confirm_faces 6),
a season still to race takes version 5's (engine/rulesets/moreno/finish.py, rules.py)."""

import importlib

import pytest
from django.apps import apps

from plugins import adapter_for
from season.models import Round
from tests.season.builders import league, stage

pytestmark = pytest.mark.django_db

migration = importlib.import_module(
    "season.migrations.0033_moreno_version_5_kept_for_raced_seasons"
)


def _version_5_settings(season) -> tuple[int, int]:
    season.refresh_from_db()
    settings = adapter_for(season.ruleset).engine_settings(season.rules)
    return settings.sprint_free_cases, settings.crash_confirm_faces


def test_a_moreno_season_that_raced_keeps_version_4_and_one_to_race_takes_version_5(alice):
    raced = league(organiser=alice, slug="raced")
    to_race = league(organiser=alice, slug="to-race")
    other = league(organiser=alice, slug="cyclosim", ruleset="cyclosim")
    for season in (raced, other):
        Round.objects.filter(pk=stage(season, 1).pk).update(status=Round.Status.RESOLVED)

    migration.keep_version_4(apps, None)

    assert _version_5_settings(raced) == (0, 6)
    assert _version_5_settings(to_race) == (6, 2)
    other.refresh_from_db()
    assert not {"sprint_free_cases", "crash_confirm_faces"} & set(
        other.rule_settings.get("engine") or {}
    )
    # Run twice, it changes nothing more (an organiser's own value stays).
    migration.keep_version_4(apps, None)
    assert _version_5_settings(raced) == (0, 6)
