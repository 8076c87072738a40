"""Moréno version 5 gives one time to riders who both sprinted up to 6 free cases apart
(sprint_free_cases, issue 32). A Moréno season that has already resolved a round keeps the
groups it was raced with (0: only the free cases inside a group), so its rules do not change
mid-race and its rounds replay as they were resolved."""

from django.db import migrations

RACED = ("resolved", "published")


def keep_the_old_groups(apps, schema_editor):
    Season = apps.get_model("season", "Season")
    for season in Season.objects.filter(ruleset="moreno", rounds__status__in=RACED).distinct():
        rules = dict(season.rule_settings or {})
        engine = dict(rules.get("engine") or {})
        if "sprint_free_cases" not in engine:
            engine["sprint_free_cases"] = 0
            rules["engine"] = engine
            season.rule_settings = rules
            season.save(update_fields=["rule_settings"])


class Migration(migrations.Migration):
    dependencies = [("season", "0032_history_of_a_track")]

    operations = [migrations.RunPython(keep_the_old_groups, migrations.RunPython.noop)]
