"""Reads the imported results of real races and asks riders.profiles for suggested profiles."""

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import QuerySet

from races.models import Race, RaceEntry, Stage, StageResult, Standing
from riders.profiles import (
    FinalPlace,
    ProfileSuggestion,
    RiderRecord,
    StagePlace,
    profile_suggest,
    rider_suggestions_store,
)

# ProCyclingStats icons p3 and p5 are uphill finishes; p2 and p4 are not.
SUMMIT_FINISH = {"p3": True, "p5": True, "p1": False, "p2": False, "p4": False}


@dataclass
class DerivationReport:
    races: list[str] = field(default_factory=list)
    riders: int = 0
    suggested: int = 0
    flagged: int = 0
    applied: int = 0
    suggestions: dict[int, ProfileSuggestion] = field(default_factory=dict)


def profile_records_collect(*, races: Iterable[Race]) -> dict[int, RiderRecord]:
    """Each rider's stage places and final classification places in the given races."""
    races = list(races)
    slugs = {race.pk: race.slug for race in races}
    stages = {
        stage["pk"]: stage
        for stage in Stage.objects.filter(race__in=races).values(
            "pk", "race_id", "number", "stage_type", "profile_icon"
        )
    }
    results = list(
        StageResult.objects.filter(stage_id__in=stages).values(
            "stage_id", "rider_id", "rank", "status", "breakaway_km"
        )
    )
    ranked = Counter(result["stage_id"] for result in results if result["rank"] is not None)
    stage_places: dict[int, list[StagePlace]] = defaultdict(list)
    for result in results:
        stage = stages[result["stage_id"]]
        size = ranked[stage["pk"]]
        stage_places[result["rider_id"]].append(
            StagePlace(
                race=slugs[stage["race_id"]],
                stage=stage["number"],
                stage_type=stage["stage_type"],
                rank=result["rank"],
                status=result["status"],
                field_size=size if size > 1 else 0,
                breakaway_km=result["breakaway_km"],
                summit_finish=SUMMIT_FINISH.get(stage["profile_icon"]),
            )
        )
    last_stages: dict[int, int] = {}
    for stage in stages.values():
        known = last_stages.get(stage["race_id"])
        if known is None or stage["number"] > stages[known]["number"]:
            last_stages[stage["race_id"]] = stage["pk"]
    lines = list(
        # Unranked lines (a rider listed without a place) are no final place.
        Standing.objects.filter(
            stage_id__in=last_stages.values(), rider__isnull=False, rank__isnull=False
        ).values("stage_id", "rider_id", "classification", "rank")
    )
    classified = Counter((line["stage_id"], line["classification"]) for line in lines)
    final_places: dict[int, list[FinalPlace]] = defaultdict(list)
    for line in lines:
        assert line["rank"] is not None  # unranked lines are filtered out above
        final_places[line["rider_id"]].append(
            FinalPlace(
                race=slugs[stages[line["stage_id"]]["race_id"]],
                classification=line["classification"],
                rank=line["rank"],
                classified=classified[(line["stage_id"], line["classification"])],
            )
        )
    starters = set(RaceEntry.objects.filter(race__in=races).values_list("rider_id", flat=True))
    return {
        rider_id: RiderRecord(
            stage_places=tuple(stage_places.get(rider_id, ())),
            final_places=tuple(final_places.get(rider_id, ())),
        )
        for rider_id in starters | set(stage_places) | set(final_places)
    }


@transaction.atomic
def profiles_derive(
    *, races: QuerySet[Race] | None = None, apply: bool = False
) -> DerivationReport:
    """Suggest profiles from the results of real races (all of them by default).

    Every rider of those races gets a suggestion kept beside his ratings, or the flag "too
    little data" (his ratings stay). With apply, the suggestions become the ratings.
    """
    chosen = list((races if races is not None else Race.objects.all()).filter(kind=Race.Kind.REAL))
    records = profile_records_collect(races=chosen)
    suggestions = {rider_id: profile_suggest(record=record) for rider_id, record in records.items()}
    suggested, flagged, applied = rider_suggestions_store(suggestions=suggestions, apply=apply)
    return DerivationReport(
        races=[race.slug for race in chosen],
        riders=len(records),
        suggested=suggested,
        flagged=flagged,
        applied=applied,
        suggestions=suggestions,
    )


def profiles_suggest_for_import(*, race_ids: Iterable[int], rider_ids: Iterable[int]) -> int:
    """The import's last step: a suggestion for every rider the import touched.

    Each rider's suggestion reads every real race he rode (his start lists, results and
    standings), not only the races of this import, so a new race adds to what earlier ones
    showed. Nothing becomes a rating here: an admin approves (docs/profiles.md "Reviewing").
    Runs in the import's transaction; returns the riders given a suggestion or a flag.
    """
    riders = set(rider_ids)
    if not riders:
        return 0
    ridden = (
        set(race_ids)
        | set(RaceEntry.objects.filter(rider_id__in=riders).values_list("race_id", flat=True))
        | set(
            StageResult.objects.filter(rider_id__in=riders).values_list("stage__race_id", flat=True)
        )
    )
    races = Race.objects.filter(pk__in=ridden, kind=Race.Kind.REAL)
    records = profile_records_collect(races=races)
    suggestions = {
        rider_id: profile_suggest(record=record)
        for rider_id, record in records.items()
        if rider_id in riders
    }
    # A rider of the file with no line in any real race yet (a start list of a race not
    # raced) gets the "too little data" flag like any other.
    for rider_id in riders - set(suggestions):
        suggestions[rider_id] = ProfileSuggestion()
    rider_suggestions_store(suggestions=suggestions)
    return len(suggestions)
