"""SeasonStage becomes Round (issue 12): the same table and rows under the generic name.

Renames only, so every stage, orders row and job survives, and each step reverses; the
constraints and indexes take names that say what they hold.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("races", "0006_standing_unranked"),
        ("season", "0006_job_failure_and_retry"),
    ]

    operations = [
        # Indexes and constraints on a renamed field are dropped and made again on the new one:
        # RenameField leaves their state naming the old field.
        migrations.RemoveIndex(model_name="job", name="job_latest_per_stage"),
        migrations.RemoveConstraint(model_name="orders", name="orders_one_per_team_per_stage"),
        migrations.RenameModel(old_name="SeasonStage", new_name="Round"),
        migrations.RenameField(model_name="orders", old_name="season_stage", new_name="round"),
        migrations.RenameField(model_name="job", old_name="season_stage", new_name="round"),
        migrations.AddIndex(
            model_name="job",
            index=models.Index(fields=["round", "-created_at"], name="job_latest_per_round"),
        ),
        migrations.AlterField(
            model_name="round",
            name="season",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rounds",
                to="season.season",
            ),
        ),
        migrations.AlterField(
            model_name="round",
            name="stage",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="round",
                to="races.stage",
            ),
        ),
        migrations.RenameIndex(
            model_name="round", new_name="round_due", old_name="season_stage_due"
        ),
        migrations.RemoveConstraint(model_name="round", name="season_stage_unique_number"),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.UniqueConstraint(
                fields=("season", "number"), name="round_unique_number"
            ),
        ),
        migrations.RemoveConstraint(model_name="round", name="season_stage_status_valid"),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "status__in",
                        ["scheduled", "open", "locked", "resolving", "resolved", "published"],
                    )
                ),
                name="round_status_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="orders",
            constraint=models.UniqueConstraint(
                fields=("team", "round"), name="orders_one_per_team_per_round"
            ),
        ),
    ]
