"""The shipped points systems (motor/points_presets.py): the real eras and the games' defaults."""

from django.db import migrations


def presets_create(apps, schema_editor):
    from motor.points_presets import PRESETS

    PointsSystem = apps.get_model("motor", "PointsSystem")
    for preset in PRESETS:
        fields = dict(preset)
        slug = fields.pop("slug")
        split = fields.pop("split_shared_drives", False)
        fields["shared_drives"] = "split" if split else "none"
        PointsSystem.objects.update_or_create(slug=slug, defaults=fields)


class Migration(migrations.Migration):
    dependencies = [("motor", "0001_initial")]
    operations = [migrations.RunPython(presets_create, migrations.RunPython.noop)]
