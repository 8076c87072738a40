"""Moréno version 5 gives one time to riders who both sprinted up to 6 free cases apart
(sprint_free_cases) and confirms a crash with a second d6 (crash_confirm_faces, issue 32). A
Moréno season that has already resolved a round keeps the rules it was raced with (0: only the
free cases inside a group; 6: no second die), so its rules do not change mid-race and its
rounds replay as they were resolved."""

from django.db import migrations

RACED = ("resolved", "published")
#: Version 5's new settings at the values that give version 4's races.
VERSION_4 = {"sprint_free_cases": 0, "crash_confirm_faces": 6}


def keep_version_4(apps, schema_editor):
    Season = apps.get_model("season", "Season")
    for season in Season.objects.filter(ruleset="moreno", rounds__status__in=RACED).distinct():
        rules = dict(season.rule_settings or {})
        engine = dict(rules.get("engine") or {})
        kept = {name: value for name, value in VERSION_4.items() if name not in engine}
        if kept:
            rules["engine"] = engine | kept
            season.rule_settings = rules
            season.save(update_fields=["rule_settings"])


class Migration(migrations.Migration):
    dependencies = [("season", "0032_history_of_a_track")]

    operations = [migrations.RunPython(keep_version_4, migrations.RunPython.noop)]
