"""Who is who: imported names -> riders and teams, and the admin's answer to doubtful matches.

Riders match by ProCyclingStats id, then by the normalised name key (accents, case, word order)
or a confirmed alias. Teams match by name key or alias within a year, then by the same key
without filler words ("Team", "Pro Cycling"). Anything looser (a missing middle name, a
diminutive, a one-letter typo) is doubtful: the import creates a record apart and lists the
pair for an admin to confirm or reject, never merging on its own.
"""

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from difflib import SequenceMatcher

from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone

from races.models import RaceEntry, RaceEvent, StageResult, Standing
from riders.models import MatchStatus, Rider, RiderMatch, Team, TeamMatch
from riders.names import name_key, strip_accents, team_key

# Letters that riders.names.strip_accents keeps apart from their plain form ("Rafał", "Rafal").
_FOLD = str.maketrans(
    {"ł": "l", "Ł": "L", "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe", "þ": "th", "Þ": "Th"}
    | {"ð": "d", "Ð": "D", "ı": "i", "ħ": "h", "Ħ": "H"}
)


def rider_key(name: str) -> str:
    return name_key(name.translate(_FOLD))


def team_match_key(name: str) -> str:
    return team_key(name.translate(_FOLD))


class TeamRef:
    """A team as the import sees it: an existing row (pk set) or one to create."""

    __slots__ = ("code", "db_code", "keys", "loose_keys", "name", "pk", "year")

    def __init__(
        self,
        *,
        name: str,
        year: int,
        pk: int | None = None,
        code: str = "",
        aliases: Iterable[str] = (),
    ) -> None:
        self.pk = pk
        self.name = name
        self.year = year
        self.code = code
        self.db_code = code if pk else None
        spellings = [name, *aliases]
        self.keys = {team_match_key(spelling) for spelling in spellings}
        self.loose_keys = {loose_team_key(spelling) for spelling in spellings}

    def __repr__(self) -> str:
        return f"TeamRef({self.name!r}, {self.year}, pk={self.pk})"


class RiderRef:
    """A rider as the import sees it: an existing row (pk set) or one to create."""

    __slots__ = (
        "birth_date",
        "db_values",
        "keys",
        "name",
        "nationality",
        "pcs_slug",
        "pk",
        "team",
        "team_year",
        "teams_by_year",
    )

    def __init__(
        self,
        *,
        name: str,
        pk: int | None = None,
        aliases: Iterable[str] = (),
        pcs_slug: str | None = None,
        nationality: str = "",
        birth_date: date | None = None,
        team: TeamRef | None = None,
    ) -> None:
        self.pk = pk
        self.name = name
        self.keys = {rider_key(name), *(rider_key(alias) for alias in aliases)}
        self.pcs_slug = pcs_slug
        self.nationality = nationality
        self.birth_date = birth_date
        self.team = team
        self.team_year = team.year if team else None
        self.teams_by_year: dict[int, TeamRef] = {team.year: team} if team else {}
        self.db_values = self.values() if pk else None

    def values(self) -> tuple[object, ...]:
        """The fields an import may change, to tell whether it did."""
        return (
            self.nationality,
            self.birth_date,
            self.pcs_slug,
            self.team.pk if self.team else None,
        )

    def __repr__(self) -> str:
        return f"RiderRef({self.name!r}, pk={self.pk})"


@dataclass(frozen=True)
class Resolution:
    """The answer for one imported name: the record, and a doubtful candidate if any."""

    ref: RiderRef | TeamRef
    new: bool
    candidate: RiderRef | TeamRef | None = None
    reason: str = ""


_FILLER_WORDS = {"team", "pro", "cycling", "procycling", "cyclingteam"}
_CLASS_SUFFIX = re.compile(r"\((wt|pro|pt|pct|ct|wtt)\)\s*$", re.IGNORECASE)
_WORDS = re.compile(r"[a-z0-9]+")


def loose_team_key(name: str) -> str:
    """ "UNO-X PRO CYCLING TEAM", "Uno-X" -> "unox"; "Movistar Team", "Movistar" -> "movistar"."""
    words = _WORDS.findall(strip_accents(_CLASS_SUFFIX.sub("", name).translate(_FOLD)).lower())
    kept = [word for word in words if word not in _FILLER_WORDS]
    return "".join(kept or words)


def _similar(a: str, b: str) -> float:
    return SequenceMatcher(None, a, b).ratio()


class TeamIndex:
    def __init__(self, teams: Iterable[TeamRef]) -> None:
        self._by_key: dict[tuple[int, str], TeamRef] = {}
        self._by_loose: dict[tuple[int, str], list[TeamRef]] = defaultdict(list)
        self._by_year: dict[int, list[TeamRef]] = defaultdict(list)
        for team in teams:
            self.add(team)

    def add(self, team: TeamRef) -> None:
        for key in team.keys:
            self._by_key.setdefault((team.year, key), team)
        for key in team.loose_keys:
            if team not in self._by_loose[(team.year, key)]:
                self._by_loose[(team.year, key)].append(team)
        self._by_year[team.year].append(team)

    def resolve(self, *, name: str, year: int, code: str = "") -> Resolution:
        key = team_match_key(name)
        found = self._by_key.get((year, key))
        if found:
            return Resolution(ref=found, new=False)
        loose = loose_team_key(name)
        same_loose = self._by_loose.get((year, loose), [])
        if len(same_loose) == 1:
            return Resolution(ref=same_loose[0], new=False)
        new = TeamRef(name=name, year=year, code=code)
        best, best_score = None, 0.0
        for team in self._by_year.get(year, []):
            for other in team.loose_keys:
                score = _similar(loose, other)
                if min(len(loose), len(other)) >= 5 and (loose in other or other in loose):
                    score = max(score, 0.9)
                if score > best_score:
                    best, best_score = team, score
        if best is not None and best_score >= 0.8:
            return Resolution(ref=new, new=True, candidate=best, reason=f"similar name in {year}")
        return Resolution(ref=new, new=True)


# Given names and their usual short forms that share no three first letters.
_SHORT_FORMS = {
    frozenset(pair)
    for pair in (
        ("tom", "thomas"),
        ("bob", "robert"),
        ("rob", "robert"),
        ("bill", "william"),
        ("will", "william"),
        ("jim", "james"),
        ("mike", "michael"),
        ("dick", "richard"),
        ("ted", "edward"),
        ("fred", "frederik"),
        ("jack", "john"),
        ("sasha", "aleksandr"),
    )
}


def _token_match(a: str, b: str) -> str:
    """How two name words match: "same", "close" (Chris/Christopher, a typo), "weak" or ""."""
    if a == b:
        return "same"
    if frozenset((a, b)) in _SHORT_FORMS:
        return "close"
    if min(len(a), len(b)) >= 3 and (a.startswith(b) or b.startswith(a)):
        return "close"
    if min(len(a), len(b)) >= 4 and (a in b or b in a):
        return "close"
    if min(len(a), len(b)) >= 4 and _similar(a, b) >= 0.8:
        return "close"
    if min(len(a), len(b)) >= 3 and a[:3] == b[:3]:
        return "weak"
    return ""


_MATCH_STRENGTH = {"same": 3, "close": 2, "weak": 1, "": 0}


def name_likeness(a: str, b: str) -> str:
    """Why two name keys may be one rider ("Jonas Vingegaard" in "Jonas Vingegaard Hansen"), or "".

    Every word of the shorter name must match a word of the longer one, one of them exactly,
    at most one only by its first three letters (Nick, Nicholas).
    """
    short, long = sorted((a.split(), b.split()), key=len)
    if len(short) < 2:
        return ""
    unused = list(long)
    kinds = []
    for word in short:
        if not unused:
            return ""
        kind, other = max(
            ((_token_match(word, other), other) for other in unused),
            key=lambda pair: _MATCH_STRENGTH[pair[0]],
        )
        if not kind:
            return ""
        unused.remove(other)
        kinds.append(kind)
    if "same" not in kinds or kinds.count("weak") > 1:
        return ""
    if len(long) > len(short) and all(kind == "same" for kind in kinds):
        return "one name has more words"
    return "similar spelling"


class RiderIndex:
    def __init__(self, riders: Iterable[RiderRef]) -> None:
        self._by_slug: dict[str, RiderRef] = {}
        self._by_key: dict[str, list[RiderRef]] = defaultdict(list)
        self._by_word: dict[str, list[RiderRef]] = defaultdict(list)
        for rider in riders:
            self.add(rider)

    def add(self, rider: RiderRef) -> None:
        if rider.pcs_slug:
            self._by_slug.setdefault(rider.pcs_slug, rider)
        for key in rider.keys:
            if rider not in self._by_key[key]:
                self._by_key[key].append(rider)
            for word in key.split():
                if len(word) >= 3 and rider not in self._by_word[word]:
                    self._by_word[word].append(rider)

    def slug_learn(self, rider: RiderRef, slug: str) -> None:
        rider.pcs_slug = slug
        self._by_slug.setdefault(slug, rider)

    def resolve(
        self, *, name: str, pcs_slug: str | None, year: int, team: TeamRef | None
    ) -> Resolution | str:
        """The rider for an imported name, or a reason why the row cannot be matched."""
        if pcs_slug and pcs_slug in self._by_slug:
            return Resolution(ref=self._by_slug[pcs_slug], new=False)
        key = rider_key(name)
        if not key:
            return "the rider name has no letters"
        same_key = self._by_key.get(key, [])
        namesakes = [r for r in same_key if pcs_slug and r.pcs_slug and r.pcs_slug != pcs_slug]
        same_key = [r for r in same_key if r not in namesakes]
        if len(same_key) > 1:
            same_key = [r for r in same_key if _compatible(r, year, team, strict=True)]
            if len(same_key) != 1:
                return (
                    f"several riders are named {name!r}: add the ProCyclingStats id "
                    "(rider_url), or merge them in the admin"
                )
        if len(same_key) == 1:
            return Resolution(ref=same_key[0], new=False)
        new = RiderRef(name=name, pcs_slug=pcs_slug)
        if namesakes:
            return Resolution(
                ref=new,
                new=True,
                candidate=namesakes[0],
                reason="same name, other ProCyclingStats id",
            )
        best, best_reason, best_score = None, "", -1
        seen: set[int] = set()
        for word in key.split():
            for rider in self._by_word.get(word, []):
                if id(rider) in seen:
                    continue
                seen.add(id(rider))
                if not _compatible(rider, year, team, strict=False):
                    continue
                for other_key in rider.keys:
                    reason = name_likeness(key, other_key)
                    score = len(set(key.split()) & set(other_key.split()))
                    if reason and score > best_score:
                        best, best_reason, best_score = rider, reason, score
        if best is not None:
            if team is not None and best.teams_by_year.get(year) is team:
                best_reason += f", same team in {year}"
            return Resolution(ref=new, new=True, candidate=best, reason=best_reason)
        return Resolution(ref=new, new=True)


def _compatible(rider: RiderRef, year: int, team: TeamRef | None, *, strict: bool) -> bool:
    """Riders of another team the same year are other riders; strict also wants the same team."""
    known = rider.teams_by_year.get(year)
    if team is None or known is None:
        return not strict
    return known is team


# The admin's answers ---------------------------------------------------------------------------


class MergeError(Exception):
    """A confirmed match that cannot be merged (the new record is used elsewhere)."""


@transaction.atomic
def rider_match_confirm(*, match: RiderMatch) -> Rider:
    """Same rider: move the new rider's start lists, results and standings to the existing one,
    keep the imported spelling as an alias, and delete the new rider.

    Where both have a line for the same stage (or classification, or start list), the existing
    rider's line is kept.
    """
    match = (
        RiderMatch.objects.select_for_update(of=("self",))
        .select_related("rider__team", "candidate__team")
        .get(pk=match.pk)
    )
    keep = match.candidate
    duplicate = match.rider
    if match.status != MatchStatus.PENDING or duplicate is None:
        return keep
    kept_stages = StageResult.objects.filter(rider=keep).values("stage_id")
    StageResult.objects.filter(rider=duplicate, stage_id__in=kept_stages).delete()
    StageResult.objects.filter(rider=duplicate).update(rider=keep)
    kept_lines = set(Standing.objects.filter(rider=keep).values_list("stage_id", "classification"))
    for line in Standing.objects.filter(rider=duplicate):
        if (line.stage_id, line.classification) in kept_lines:
            line.delete()
    Standing.objects.filter(rider=duplicate).update(rider=keep)
    kept_races = RaceEntry.objects.filter(rider=keep).values("race_id")
    RaceEntry.objects.filter(rider=duplicate, race_id__in=kept_races).delete()
    RaceEntry.objects.filter(rider=duplicate).update(rider=keep)
    RaceEvent.objects.filter(rider=duplicate).update(rider=keep)

    spellings = [duplicate.name, *duplicate.aliases]
    keys = keep.all_keys()
    keep.aliases = [*keep.aliases, *(s for s in spellings if name_key(s) not in keys)]
    for field in ("nationality", "birth_date"):
        if not getattr(keep, field):
            setattr(keep, field, getattr(duplicate, field))
    if duplicate.team and (keep.team is None or duplicate.team.year > keep.team.year):
        keep.team = duplicate.team  # his team is the one of the latest year, as on import
    slug = duplicate.pcs_slug
    # Questions about the duplicate now concern the kept rider; the answered one stays as a record.
    RiderMatch.objects.filter(rider=duplicate).exclude(pk=match.pk).delete()
    asked = RiderMatch.objects.filter(candidate=keep).values("rider_id")
    RiderMatch.objects.filter(candidate=duplicate, rider_id__in=asked).delete()
    RiderMatch.objects.filter(candidate=duplicate).update(candidate=keep)
    try:
        duplicate.delete()
    except ProtectedError as error:
        raise MergeError(
            f"{duplicate} is used elsewhere (e.g. a league team): merge by hand"
        ) from error
    if slug and not keep.pcs_slug:
        keep.pcs_slug = slug
    keep.save()
    type(match).objects.filter(pk=match.pk).update(
        status=MatchStatus.CONFIRMED, decided_at=timezone.now()
    )
    return keep


def rider_match_reject(*, match: RiderMatch) -> None:
    """Different riders: both records stay; the question is not asked again."""
    RiderMatch.objects.filter(pk=match.pk, status=MatchStatus.PENDING).update(
        status=MatchStatus.REJECTED, decided_at=timezone.now()
    )


@transaction.atomic
def team_match_confirm(*, match: TeamMatch) -> Team:
    """Same team: repoint riders, results, standings, start lists; keep the spelling as alias."""
    match = (
        TeamMatch.objects.select_for_update(of=("self",))
        .select_related("team", "candidate")
        .get(pk=match.pk)
    )
    keep = match.candidate
    duplicate = match.team
    if match.status != MatchStatus.PENDING or duplicate is None:
        return keep
    Rider.objects.filter(team=duplicate).update(team=keep)
    StageResult.objects.filter(team=duplicate).update(team=keep)
    Standing.objects.filter(team=duplicate).update(team=keep)
    RaceEntry.objects.filter(team=duplicate).update(team=keep)
    keys = keep.all_keys()
    spellings = [duplicate.name, *duplicate.aliases]
    keep.aliases = [*keep.aliases, *(s for s in spellings if team_key(s) not in keys)]
    if not keep.code:
        keep.code = duplicate.code
    TeamMatch.objects.filter(team=duplicate).exclude(pk=match.pk).delete()
    asked = TeamMatch.objects.filter(candidate=keep).values("team_id")
    TeamMatch.objects.filter(candidate=duplicate, team_id__in=asked).delete()
    TeamMatch.objects.filter(candidate=duplicate).update(candidate=keep)
    duplicate.delete()
    keep.save()
    type(match).objects.filter(pk=match.pk).update(
        status=MatchStatus.CONFIRMED, decided_at=timezone.now()
    )
    return keep


def team_match_reject(*, match: TeamMatch) -> None:
    TeamMatch.objects.filter(pk=match.pk, status=MatchStatus.PENDING).update(
        status=MatchStatus.REJECTED, decided_at=timezone.now()
    )
