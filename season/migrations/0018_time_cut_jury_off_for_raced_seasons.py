"""The jury's rule of the time cut (races.timing, time_cut_max_out_pct) is new: a season that
has already resolved a stage keeps the rule it was raced with (100 %: the limit always holds),
so its stages replay as they were resolved and its rules do not change mid-race."""

from django.db import migrations

RACED = ("resolved", "published")


def keep_the_old_cut(apps, schema_editor):
    Season = apps.get_model("season", "Season")
    for season in Season.objects.filter(
        race__isnull=False, rounds__status__in=RACED
    ).distinct():
        rules = dict(season.rule_settings or {})
        if "time_cut_max_out_pct" not in rules:
            rules["time_cut_max_out_pct"] = 100.0
            season.rule_settings = rules
            season.save(update_fields=["rule_settings"])


class Migration(migrations.Migration):
    dependencies = [("season", "0017_season_peloton")]

    operations = [migrations.RunPython(keep_the_old_cut, migrations.RunPython.noop)]
