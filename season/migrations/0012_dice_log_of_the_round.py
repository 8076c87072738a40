"""The dice log belongs to the league's round (issue 12): season.DiceLog, filled from the
stages' races.DiceLog (races drops its own in 0008)."""

import django.db.models.deletion
from django.db import migrations, models


def copy_logs(apps, schema_editor):
    OldLog = apps.get_model("races", "DiceLog")
    NewLog = apps.get_model("season", "DiceLog")
    Round = apps.get_model("season", "Round")
    rounds = dict(Round.objects.filter(stage__isnull=False).values_list("stage_id", "pk"))
    NewLog.objects.bulk_create(
        NewLog(
            round_id=rounds[old.stage_id],
            seed=old.seed,
            ruleset=old.ruleset,
            count=old.count,
            sha256=old.sha256,
            rolls=old.rolls,
        )
        for old in OldLog.objects.all()
        if old.stage_id in rounds
    )


def copy_back(apps, schema_editor):
    OldLog = apps.get_model("races", "DiceLog")
    NewLog = apps.get_model("season", "DiceLog")
    OldLog.objects.bulk_create(
        OldLog(
            stage_id=new.round.stage_id,
            seed=new.seed,
            ruleset=new.ruleset,
            count=new.count,
            sha256=new.sha256,
            rolls=new.rolls,
        )
        for new in NewLog.objects.select_related("round").filter(round__stage__isnull=False)
    )


class Migration(migrations.Migration):
    dependencies = [
        ("season", "0011_auto_publish"),
        ("races", "0007_raceevent_data"),
    ]

    operations = [
        migrations.CreateModel(
            name="DiceLog",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seed", models.BigIntegerField(verbose_name="seed")),
                ("ruleset", models.CharField(max_length=20, verbose_name="ruleset")),
                ("count", models.PositiveIntegerField(verbose_name="rolls")),
                ("sha256", models.CharField(max_length=64)),
                (
                    "rolls",
                    models.JSONField(
                        help_text="The ruleset's rows, in the order drawn.", verbose_name="rolls"
                    ),
                ),
                (
                    "round",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="dice_log",
                        to="season.round",
                    ),
                ),
            ],
            options={
                "verbose_name": "dice log",
                "verbose_name_plural": "dice logs",
            },
        ),
        migrations.RunPython(copy_logs, copy_back),
    ]
