"""A season becomes a calendar of events (issue 30): each season's stage race or championship
becomes the first and only event of its calendar, every round of it that event's round; then
the season's own race and championship fields go."""

import django.core.validators
import django.db.models.deletion
from django.db import migrations, models


def events_from_seasons(apps, schema_editor):
    Season = apps.get_model("season", "Season")
    SeasonEvent = apps.get_model("season", "SeasonEvent")
    Round = apps.get_model("season", "Round")
    for season in Season.objects.order_by("pk").iterator():
        event = SeasonEvent.objects.create(
            season_id=season.pk,
            number=1,
            race_id=season.race_id,
            championship_id=season.championship_id,
        )
        Round.objects.filter(season_id=season.pk).update(season_event_id=event.pk)


def seasons_from_events(apps, schema_editor):
    Season = apps.get_model("season", "Season")
    SeasonEvent = apps.get_model("season", "SeasonEvent")
    for event in SeasonEvent.objects.filter(number=1).iterator():
        Season.objects.filter(pk=event.season_id).update(
            race_id=event.race_id, championship_id=event.championship_id
        )


class Migration(migrations.Migration):
    dependencies = [
        ("motor", "0004_verbose_names"),
        ("races", "0010_result_reinstated"),
        ("season", "0025_small_things"),
    ]

    operations = [
        migrations.CreateModel(
            name="SeasonEvent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField(verbose_name="place in the calendar")),
                (
                    "starters",
                    models.PositiveSmallIntegerField(
                        blank=True,
                        help_text="How many riders of its squad each team starts; empty: the whole squad.",
                        null=True,
                        validators=[
                            django.core.validators.MinValueValidator(1),
                            django.core.validators.MaxValueValidator(12),
                        ],
                        verbose_name="starters per team",
                    ),
                ),
                (
                    "championship",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="season_event",
                        to="motor.championship",
                        verbose_name="championship",
                    ),
                ),
                (
                    "race",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="season_event",
                        to="races.race",
                        verbose_name="race",
                    ),
                ),
                (
                    "season",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="events",
                        to="season.season",
                        verbose_name="season",
                    ),
                ),
            ],
            options={
                "verbose_name": "event of the calendar",
                "verbose_name_plural": "events of the calendar",
                "ordering": ["season", "number"],
            },
        ),
        migrations.AddField(
            model_name="round",
            name="season_event",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rounds",
                to="season.seasonevent",
                verbose_name="event of the calendar",
            ),
        ),
        migrations.RemoveConstraint(
            model_name="season",
            name="season_race_or_championship",
        ),
        migrations.RunPython(events_from_seasons, seasons_from_events),
        migrations.AlterField(
            model_name="round",
            name="season_event",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rounds",
                to="season.seasonevent",
                verbose_name="event of the calendar",
            ),
        ),
        migrations.RemoveField(
            model_name="season",
            name="championship",
        ),
        migrations.RemoveField(
            model_name="season",
            name="race",
        ),
        migrations.AddConstraint(
            model_name="seasonevent",
            constraint=models.UniqueConstraint(
                fields=("season", "number"), name="season_event_unique_number"
            ),
        ),
        migrations.AddConstraint(
            model_name="seasonevent",
            constraint=models.CheckConstraint(
                condition=models.Q(("number__gte", 1), ("number__lte", 60)),
                name="season_event_number_range",
            ),
        ),
        migrations.AddConstraint(
            model_name="seasonevent",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("championship__isnull", True), ("race__isnull", False)),
                    models.Q(("championship__isnull", False), ("race__isnull", True)),
                    _connector="OR",
                ),
                name="season_event_race_or_championship",
            ),
        ),
        migrations.AddConstraint(
            model_name="seasonevent",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("starters__isnull", True),
                    models.Q(("starters__gte", 1), ("starters__lte", 12)),
                    _connector="OR",
                ),
                name="season_event_starters_range",
            ),
        ),
    ]
