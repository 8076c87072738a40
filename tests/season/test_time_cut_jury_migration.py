"""Season migration 0018: a season that has raced a stage keeps the time cut it was raced with
(no jury's share), a season still to race takes the jury's rule (races.timing)."""

import importlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from season.models import Round
from tests.season.builders import league, stage

# Migrating back and forth inside the test's transaction: PostgreSQL's DDL.
pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

migration = importlib.import_module("season.migrations.0018_time_cut_jury_off_for_raced_seasons")


def _without_the_jurys_share(season):
    data = dict(season.rule_settings)
    del data["time_cut_max_out_pct"]
    season.rule_settings = data
    season.save(update_fields=["rule_settings"])


def test_a_season_that_raced_keeps_its_cut_and_one_to_race_takes_the_jury(alice):
    raced = league(organiser=alice, slug="raced")
    to_race = league(organiser=alice, slug="to-race")
    for season in (raced, to_race):
        _without_the_jurys_share(season)
    Round.objects.filter(pk=stage(raced, 1).pk).update(status=Round.Status.RESOLVED)
    with connection.cursor() as cursor:  # the rows above are checked before the ALTER TABLE
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    # The migration runs on the schema it was written for (a season's own race, before the
    # calendar of events), then the schema comes back to today's.
    executor = MigrationExecutor(connection)
    target = ("season", "0018_time_cut_jury_off_for_raced_seasons")
    executor.migrate([target])
    executor.loader.build_graph()
    migration.keep_the_old_cut(executor.loader.project_state(target).apps, None)
    executor.migrate(executor.loader.graph.leaf_nodes())

    raced.refresh_from_db()
    to_race.refresh_from_db()
    assert raced.rules.time_cut_max_out_pct == 100.0
    assert to_race.rules.time_cut_max_out_pct == 20.0
    assert "time_cut_max_out_pct" not in to_race.rule_settings
