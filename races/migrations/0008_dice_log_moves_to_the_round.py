"""The dice log belongs to the league's round (season.DiceLog, filled by season 0012 from this
table before it goes)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("races", "0007_raceevent_data"),
        ("season", "0012_dice_log_of_the_round"),
    ]

    operations = [migrations.DeleteModel(name="DiceLog")]
