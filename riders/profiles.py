"""Suggested 8-axis profiles from real results (docs/profiles.md), and applying the approved ones.

`profile_suggest` is a pure function of plain data: races/profile_derivation.py reads the
results and classifications and calls it, so this app never imports the races app.

Each piece of evidence (a GC place, a stage win on a flat stage, an ITT place, kilometres in
breakaways...) justifies a level on one axis; an axis gets the highest level justified, 0
("normal") without evidence, and H only from evidence against it (near the end of the GC).
"""

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from riders.models import RATING_AXES, Rating, Rider

FLAT, HILLY, MOUNTAIN, ITT, TTT = "flat", "hilly", "mountain", "ITT", "TTT"
FINISHED = "finished"
#: The reason of an axis no result speaks of (rated 0, "normal").
NO_EVIDENCE = "no result tells"
# Below this share of the classified riders (the last quarter), a place counts against an axis.
LAST_QUARTER = 0.75


@dataclass(frozen=True)
class StagePlace:
    """One stage of one rider: its type, his place (None if not ranked) and how many were ranked."""

    race: str
    stage: int
    stage_type: str
    rank: int | None
    status: str = FINISHED
    field_size: int = 0  # riders ranked in the stage; 0 when only the winner is known
    breakaway_km: int | None = None
    summit_finish: bool | None = None  # None when unknown


@dataclass(frozen=True)
class FinalPlace:
    """A final classification place: general, points, mountains or youth."""

    race: str
    classification: str
    rank: int
    classified: int


@dataclass(frozen=True)
class RiderRecord:
    stage_places: tuple[StagePlace, ...] = ()
    final_places: tuple[FinalPlace, ...] = ()


@dataclass(frozen=True)
class ProfileSuggestion:
    """All 8 axes when the data suffice; otherwise no ratings and enough_data False."""

    ratings: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    enough_data: bool = False


def _place_level(rank: int, steps: tuple[tuple[int, int], ...]) -> int:
    """The level of a place from (last place of the step, level) pairs, best step first."""
    for last, level in steps:
        if rank <= last:
            return level
    return 0


GC_CLIMBER = ((2, 4), (10, 3), (25, 2), (50, 1))
MOUNTAINS_CLIMBER = ((1, 4), (3, 3), (10, 2), (20, 1))
POINTS_SPRINTER = ((1, 3), (3, 2), (10, 1))
ITT_TIME_TRIALIST = ((1, 3), (3, 3), (10, 2), (25, 1))
ITT_ROULEUR = ((1, 3), (10, 2), (25, 1))
GC_TIME_TRIALIST = ((3, 2), (10, 1))
GC_PUNCHEUR = ((3, 2), (10, 1))
GC_DESCENDER = ((10, 2), (25, 1))
STAGE_PLACES = ((1, 3), (3, 2), (10, 1))  # a road stage: win, podium, top 10
BREAKAWAY_KM = ((300, 4), (150, 3), (60, 2), (1, 1))  # total km in breakaways, one race


class _Evidence:
    def __init__(self) -> None:
        self.levels: dict[str, tuple[int, str]] = {}
        self.against: dict[str, str] = {}

    def add(self, axis: str, level: int, reason: str) -> None:
        if level > 0 and level > self.levels.get(axis, (0, ""))[0]:
            self.levels[axis] = (level, reason)

    def add_against(self, axis: str, reason: str) -> None:
        self.against.setdefault(axis, reason)

    def rating(self, axis: str) -> tuple[int, str]:
        if axis in self.levels:
            return self.levels[axis]
        if axis in self.against:
            return Rating.H, self.against[axis]
        return Rating.ZERO, NO_EVIDENCE


def _ordinal(rank: int) -> str:
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def profile_suggest(*, record: RiderRecord) -> ProfileSuggestion:
    """Suggested ratings H..4 on the 8 axes from one rider's real results (docs/profiles.md)."""
    ranked = [place for place in record.stage_places if place.rank is not None]
    wins = [place for place in ranked if place.rank == 1]
    general = [place for place in record.final_places if place.classification == "general"]
    if not (general or wins or len(ranked) >= 3):
        return ProfileSuggestion()
    evidence = _Evidence()
    gc_by_race = {place.race: place for place in general}
    for final in record.final_places:
        _final_place(evidence, final, gc_by_race)
    for stage in ranked:
        _stage_place(evidence, stage, gc_by_race)
    wins_by_type: dict[str, list[StagePlace]] = {}
    for win in wins:
        wins_by_type.setdefault(win.stage_type, []).append(win)
    for stage_type, axis in ((FLAT, "sprinter"), (HILLY, "puncheur"), (MOUNTAIN, "climber")):
        if len(wins_by_type.get(stage_type, [])) >= 2:
            evidence.add(axis, 4, f"won {len(wins_by_type[stage_type])} {stage_type} stages")
    itt_wins = wins_by_type.get(ITT, [])
    if len(itt_wins) >= 2:
        evidence.add("time_trialist", 4, f"won {len(itt_wins)} time trials")
    for win in itt_wins:
        gc = gc_by_race.get(win.race)
        if gc is not None and gc.rank <= 5:
            evidence.add(
                "time_trialist", 4, f"won a time trial and finished {_ordinal(gc.rank)} on GC"
            )
    breakaway_km: dict[str, int] = {}
    for stage in record.stage_places:
        if stage.breakaway_km:
            breakaway_km[stage.race] = breakaway_km.get(stage.race, 0) + stage.breakaway_km
    for race, km in breakaway_km.items():
        level = next((level for least, level in BREAKAWAY_KM if km >= least), 0)
        evidence.add("baroudeur", level, f"{km} km in breakaways, {race}")
        if km >= 150:
            evidence.add("rouleur", 2, f"{km} km in breakaways, {race}")
    points = [final for final in record.final_places if final.classification == "points"]
    if (
        "sprinter" not in evidence.levels
        and any(final.rank <= 10 for final in general)
        and not any(final.rank <= 10 for final in points)
    ):
        evidence.add_against("sprinter", "a GC contender without sprint results")
    ratings, reasons = {}, {}
    for axis in RATING_AXES:
        ratings[axis], reasons[axis] = evidence.rating(axis)
    return ProfileSuggestion(ratings=ratings, reasons=reasons, enough_data=True)


def _final_place(evidence: _Evidence, place: FinalPlace, gc_by_race: dict[str, FinalPlace]) -> None:
    where = f"{_ordinal(place.rank)} of {place.classified}, {place.race}"
    if place.classification == "general":
        reason = f"GC {where}"
        evidence.add("climber", _place_level(place.rank, GC_CLIMBER), reason)
        evidence.add("time_trialist", _place_level(place.rank, GC_TIME_TRIALIST), reason)
        evidence.add("puncheur", _place_level(place.rank, GC_PUNCHEUR), reason)
        evidence.add("descender", _place_level(place.rank, GC_DESCENDER), reason)
        # Three weeks to the finish take an engine on the flat, whatever the place.
        evidence.add("rouleur", 1, reason)
        if place.classified and place.rank > LAST_QUARTER * place.classified:
            evidence.add_against("climber", f"{reason}: in the last quarter")
    elif place.classification == "mountains":
        reason = f"mountains classification {where}"
        evidence.add("climber", _place_level(place.rank, MOUNTAINS_CLIMBER), reason)
        gc = gc_by_race.get(place.race)
        if place.rank <= 10 and (gc is None or gc.rank > 10):
            # Mountains points away from the GC fight are won in breakaways.
            evidence.add("baroudeur", 3 if place.rank <= 3 else 2, reason)
    elif place.classification == "points":
        reason = f"points classification {where}"
        gc = gc_by_race.get(place.race)
        if place.rank == 1 or gc is None or gc.rank > 10:
            # A GC contender's points come from mountain finishes, not sprints.
            evidence.add("sprinter", _place_level(place.rank, POINTS_SPRINTER), reason)
            evidence.add("finisseur", 1 if place.rank <= 10 else 0, reason)


def _stage_place(evidence: _Evidence, place: StagePlace, gc_by_race: dict[str, FinalPlace]) -> None:
    assert place.rank is not None
    rank = place.rank
    verb = "won" if rank == 1 else f"{_ordinal(rank)} in"
    reason = f"{verb} stage {place.stage} ({place.stage_type}), {place.race}"
    level = _place_level(rank, STAGE_PLACES)
    gc = gc_by_race.get(place.race)
    if place.stage_type == FLAT:
        evidence.add("sprinter", level, reason)
        evidence.add("finisseur", min(level, 2), reason)
        if rank == 1:
            evidence.add("rouleur", 1, reason)
    elif place.stage_type == HILLY:
        evidence.add("puncheur", level, reason)
        evidence.add("finisseur", level, reason)
        evidence.add("descender", min(level, 2), reason)
        if rank == 1 and gc is not None and gc.rank > 10:
            evidence.add("baroudeur", 3, f"{reason}, far from the GC fight")
            evidence.add("rouleur", 2, f"{reason}, far from the GC fight")
    elif place.stage_type == MOUNTAIN:
        evidence.add("climber", level, reason)
        evidence.add("puncheur", min(level, 2), reason)
        descent_finish = place.summit_finish is False
        evidence.add("descender", level if descent_finish else min(level, 2), reason)
        if rank == 1 and gc is not None and gc.rank > 10:
            evidence.add("baroudeur", 3, f"{reason}, far from the GC fight")
    elif place.stage_type == ITT:
        evidence.add("time_trialist", _place_level(rank, ITT_TIME_TRIALIST), reason)
        evidence.add("rouleur", _place_level(rank, ITT_ROULEUR), reason)
        if place.field_size and rank > LAST_QUARTER * place.field_size:
            evidence.add_against("time_trialist", f"{reason}: in the last quarter")


# Applying what the admin approves -------------------------------------------------------------


@transaction.atomic
def rider_suggestion_apply(*, rider: Rider, axes: Iterable[str]) -> list[str]:
    """Copy the approved axes of the rider's suggestion into his ratings; return those changed.

    The admin has looked at the rider: he counts as reviewed, whatever axes were approved.
    """
    rider = Rider.objects.select_for_update().get(pk=rider.pk)
    changed = []
    for axis in axes:
        if axis not in RATING_AXES or axis not in rider.suggested_ratings:
            continue
        value = int(rider.suggested_ratings[axis])
        if getattr(rider, axis) != value:
            setattr(rider, axis, value)
            changed.append(axis)
    if changed:
        rider.full_clean(exclude=["team"], validate_unique=False, validate_constraints=False)
    rider.ratings_reviewed_at = timezone.now()
    rider.save(update_fields=[*changed, "ratings_reviewed_at"])
    return changed


def rider_ratings_reviewed(*, rider: Rider, changed: Iterable[str]) -> bool:
    """An admin's own edit of a rider's ratings is a review: the rider leaves the queue when
    any rating of his form changed. Returns whether he was marked."""
    if not set(changed) & set(RATING_AXES):
        return False
    rider.ratings_reviewed_at = timezone.now()
    Rider.objects.filter(pk=rider.pk).update(ratings_reviewed_at=rider.ratings_reviewed_at)
    return True


MAX_APPROVED = 5000  # riders one "approve all" may touch (a few Grand Tours' start lists)


@transaction.atomic
def riders_ratings_approve(*, riders: Iterable[int]) -> tuple[int, int]:
    """Approve each rider's whole suggestion (a rider without one keeps his ratings) and mark
    him reviewed. Returns (riders approved, ratings changed). At most MAX_APPROVED riders:
    more is a ValueError, so no click starts unbounded work."""
    ids = list(dict.fromkeys(riders))
    if len(ids) > MAX_APPROVED:
        raise ValueError(
            f"{len(ids)} riders to approve: at most {MAX_APPROVED} at once; filter the list"
        )
    now = timezone.now()
    chosen = list(Rider.objects.select_for_update().filter(pk__in=ids).order_by("pk"))
    changed = 0
    for rider in chosen:
        for axis in RATING_AXES:
            if axis in rider.suggested_ratings:
                value = int(rider.suggested_ratings[axis])
                if value not in Rating.values:
                    raise ValueError(f"{rider.name}: {axis} {value!r} is not a rating")
                if getattr(rider, axis) != value:
                    setattr(rider, axis, value)
                    changed += 1
        rider.ratings_reviewed_at = now
    Rider.objects.bulk_update(chosen, [*RATING_AXES, "ratings_reviewed_at"], batch_size=500)
    return len(chosen), changed


def rider_suggestions_store(
    *, suggestions: dict[int, ProfileSuggestion], apply: bool = False
) -> tuple[int, int, int]:
    """Keep each rider's suggestion beside his ratings; flag those with too little data.

    A reviewed rider goes back to the review queue when the new suggestion differs both from
    the one he was reviewed with and from his ratings. With apply (the command's --apply, an
    admin's explicit choice), every suggestion also becomes the rider's ratings and the rider
    counts as reviewed. Returns (suggested, flagged, ratings changed).
    """
    now = timezone.now()
    riders = Rider.objects.in_bulk(list(suggestions))
    fields = [
        "suggested_ratings",
        "suggestion_reasons",
        "suggested_at",
        "profile_flagged",
        "ratings_reviewed_at",
    ]
    suggested = flagged = applied = 0
    for rider_id, suggestion in suggestions.items():
        rider = riders[rider_id]
        new = dict(suggestion.ratings)
        if new and new != rider.suggested_ratings and new != rider.ratings:
            rider.ratings_reviewed_at = None
        rider.suggested_at = now
        rider.profile_flagged = not suggestion.enough_data
        rider.suggested_ratings = dict(suggestion.ratings)
        rider.suggestion_reasons = dict(suggestion.reasons)
        if not suggestion.enough_data:
            flagged += 1
            continue
        suggested += 1
        if apply:
            rider.ratings_reviewed_at = now
            for axis, value in suggestion.ratings.items():
                if getattr(rider, axis) != value:
                    setattr(rider, axis, value)
                    applied += 1
    Rider.objects.bulk_update(
        riders.values(), fields + (list(RATING_AXES) if apply else []), batch_size=500
    )
    return suggested, flagged, applied
