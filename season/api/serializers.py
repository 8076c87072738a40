"""The shapes of the API's answers (their OpenAPI schema; the data is built in season/api/reads).
One shape for every game: what differs is in ``detail`` and ``values`` (the game's own fields)."""

from typing import Any

from rest_framework import serializers

from season.models import RoundStatus


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="What went wrong, in words.")
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="A bad parameter's messages, by parameter.",
    )


class SeasonSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    game = serializers.CharField(help_text="The game's name (its ruleset's label).")
    ruleset = serializers.CharField()
    discipline = serializers.CharField(help_text='"cycling" or "motor".')
    round_noun = serializers.CharField(help_text='What a round is called: "stage", "round".')
    is_public = serializers.BooleanField()
    auto_publish = serializers.BooleanField()
    time_zone = serializers.CharField()
    organiser = serializers.CharField()
    created_at = serializers.DateTimeField()


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The round's number across the season.")
    name = serializers.CharField()
    event = serializers.IntegerField(help_text="The number of its event in the calendar.")
    status = serializers.ChoiceField(choices=RoundStatus.choices)
    orders_deadline = serializers.DateTimeField(allow_null=True)
    resolved_at = serializers.DateTimeField(allow_null=True)
    results_visible = serializers.BooleanField(
        help_text="Its results are published (every resolved round of an auto-publish season)."
    )
    commitment = serializers.CharField(help_text="SHA-256 of the seed, given before the orders.")
    seed = serializers.IntegerField(
        allow_null=True, help_text="The seed, once the results are visible (never before)."
    )


class TableSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    unit = serializers.CharField(help_text='What a line\'s value counts: "seconds", "points".')


class RoundDetailSerializer(RoundSerializer):
    tables = TableSerializer(many=True, help_text="The standings after the round, when visible.")


class EventSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    starters = serializers.IntegerField(
        allow_null=True, help_text="How many of its squad each team starts (null: all)."
    )
    rounds = RoundSerializer(many=True)


class LineSerializer(serializers.Serializer):
    place = serializers.IntegerField(allow_null=True)
    competitor_id = serializers.IntegerField(
        allow_null=True, help_text="The rider's id, or the car's (see /competitors/)."
    )
    name = serializers.CharField(allow_blank=True)
    team_id = serializers.IntegerField(allow_null=True, help_text="The league team's id.")
    team = serializers.CharField(allow_blank=True)
    value = serializers.FloatField(
        allow_null=True, help_text="A time in seconds, or points (the table's unit)."
    )
    gap = serializers.FloatField(allow_null=True, help_text="Behind the first, in that unit.")
    status = serializers.CharField(allow_blank=True)
    detail = serializers.DictField(child=serializers.JSONField(), help_text="The game's own.")


class RaceEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    turn = serializers.IntegerField()
    kind = serializers.CharField()
    competitor_ids = serializers.ListField(child=serializers.IntegerField())
    detail = serializers.DictField(child=serializers.JSONField())


class DiceRollSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    row = serializers.ListField(child=serializers.JSONField(), help_text="The ruleset's row.")


class SeasonLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    key = serializers.IntegerField(
        allow_null=True, help_text="The league team's id, or the rider's (driver's)."
    )
    name = serializers.CharField()
    points = serializers.FloatField()
    wins = serializers.IntegerField()
    detail = serializers.DictField(child=serializers.JSONField())


class ValueColumnSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    rating = serializers.BooleanField(help_text="A rating: -1 (H) to 4.")


class CompetitorSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The rider's id, or the car's (its entry).")
    name = serializers.CharField()
    number = serializers.IntegerField(allow_null=True)
    role = serializers.CharField(allow_blank=True)
    team_id = serializers.IntegerField()
    team = serializers.CharField()
    values = serializers.DictField(
        child=serializers.JSONField(), help_text="By key of the answer's columns."
    )


def page_of(name: str, item: type[serializers.Serializer], **extra: Any) -> type:
    """A page of ``item``s: count, limit, offset, next, previous, results (and ``extra``)."""
    fields: dict[str, Any] = {
        "count": serializers.IntegerField(),
        "limit": serializers.IntegerField(),
        "offset": serializers.IntegerField(),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        **extra,
        "results": item(many=True),
    }
    return type(name, (serializers.Serializer,), fields)


SeasonPage = page_of("SeasonPage", SeasonSerializer)
CalendarPage = page_of("CalendarPage", EventSerializer, season=SeasonSerializer())
LinePage = page_of("LinePage", LineSerializer, round=serializers.IntegerField())
StandingPage = page_of(
    "StandingPage", LineSerializer, round=serializers.IntegerField(), table=serializers.CharField()
)
RaceEventPage = page_of("RaceEventPage", RaceEventSerializer, round=serializers.IntegerField())
DicePage = page_of(
    "DicePage",
    DiceRollSerializer,
    round=serializers.IntegerField(),
    ruleset=serializers.CharField(),
    seed=serializers.IntegerField(),
    rolls=serializers.IntegerField(help_text="How many rolls the log holds."),
    sha256=serializers.CharField(),
)
SeasonTablePage = page_of(
    "SeasonTablePage",
    SeasonLineSerializer,
    table=serializers.CharField(),
    after=serializers.IntegerField(help_text="The round it stands after (0: none yet)."),
)
CompetitorPage = page_of(
    "CompetitorPage", CompetitorSerializer, columns=ValueColumnSerializer(many=True)
)
