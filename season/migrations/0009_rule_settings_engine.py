"""A season's rule settings name no ruleset (issue 12): Moréno's four settings move to
``engine`` (the values of the ruleset's own settings spec), each ruleset's gap scale moves to its
adapter, and a season keeps only the values that differ from its ruleset's."""

from django.db import migrations

# The values as they were before this migration (historic: the adapters own them now).
MORENO_FIELDS = {
    "group_free_cases": 2,
    "final_km_neutralisation_cases": 6,
    "tt_multiplier": 3,
    "ttt_counting_rider": 4,
}
GAP_SCALES = {
    "moreno": ("gap_scale", {"flat": 1.0, "hilly": 1.5, "mountain": 3.0, "ITT": 1.0, "TTT": 1.0}),
    "cyclosim": (
        "cyclosim_gap_scale",
        {"flat": 1.0, "hilly": 1.0, "mountain": 1.0, "ITT": 0.75, "TTT": 1.0},
    ),
}


def forwards(apps, schema_editor):
    Season = apps.get_model("season", "Season")
    for season in Season.objects.all():
        data = dict(season.rule_settings or {})
        moreno = {k: data.pop(k) for k in MORENO_FIELDS if k in data}
        old_scales = {key: data.pop(key, None) for key, _ in GAP_SCALES.values()}
        engine = dict(data.get("engine") or {})
        gap_scale = {}
        if season.ruleset == "moreno":
            engine.update({k: v for k, v in moreno.items() if v != MORENO_FIELDS[k]})
        if season.ruleset in GAP_SCALES:
            key, default = GAP_SCALES[season.ruleset]
            stored = old_scales.get(key) or {}
            gap_scale = {t: v for t, v in stored.items() if default.get(t) != v}
        data["engine"] = engine
        data["gap_scale"] = gap_scale
        season.rule_settings = data
        season.save(update_fields=["rule_settings"])


def backwards(apps, schema_editor):
    Season = apps.get_model("season", "Season")
    for season in Season.objects.all():
        data = dict(season.rule_settings or {})
        engine = data.pop("engine", None) or {}
        own = data.pop("gap_scale", None) or {}
        for name, default in MORENO_FIELDS.items():
            data[name] = engine.get(name, default) if season.ruleset == "moreno" else default
        for ruleset, (key, default) in GAP_SCALES.items():
            data[key] = {**default, **own} if season.ruleset == ruleset else dict(default)
        season.rule_settings = data
        season.save(update_fields=["rule_settings"])


class Migration(migrations.Migration):
    dependencies = [("season", "0008_ruleset_from_registry")]

    operations = [migrations.RunPython(forwards, backwards)]
