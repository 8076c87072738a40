"""The checks across rows and files, and the plan of what the database should hold afterwards.

Rows are applied in memory in the order their contents need (start lists, stages, results,
stage winners, standings), each row only if it is valid, so a bad row leaves no trace. The
database is read once up front (dicts, no per-row query); the writer then compares and writes.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError

from races.importing.matching import Resolution, RiderIndex, RiderRef, TeamIndex, TeamRef
from races.importing.parsing import (
    AnyRow,
    RaceKey,
    ResultRow,
    RiderIn,
    Source,
    StageRow,
    StandingRow,
    StartListRow,
    WinnerRow,
)
from races.importing.report import MatchDoubt, RowError
from races.importing.values import display_name
from races.models import Race, RaceEntry, ResultStatus, Stage, StageResult
from riders.models import Rider, Team


@dataclass(eq=False)
class RaceRef:
    slug: str
    name: str
    year: int
    pk: int | None = None
    kind: str = Race.Kind.REAL


STAGE_FIELDS = (
    "date",
    "start",
    "finish",
    "distance_km",
    "stage_type",
    "profile_icon",
    "profile_score",
    "vertical_meters",
)


@dataclass(eq=False)
class StageRef:
    race: RaceRef
    number: int
    pk: int | None = None
    fields: dict[str, object] = field(default_factory=dict)
    db_fields: dict[str, object] | None = None
    src: Source | None = None  # the row of this call that set the fields

    def __str__(self) -> str:
        return f"stage {self.number} of {self.race.slug}"


@dataclass(eq=False)
class EntryPlan:
    rider: RiderRef
    team: TeamRef | None
    bib: int | None
    src: Source


@dataclass(eq=False)
class ResultPlan:
    rider: RiderRef
    team: TeamRef | None
    rank: int | None
    status: str
    time: int | None
    gap: int | None
    bonus: int
    breakaway_km: int | None
    src: Source


@dataclass(eq=False)
class StandingPlan:
    rider: RiderRef
    team: TeamRef | None
    rank: int | None  # None: listed without a rank (after a penalty, say)
    value: int
    gap: int
    src: Source


@dataclass(eq=False)
class Doubt:
    new: RiderRef | TeamRef
    candidate: RiderRef | TeamRef
    imported_name: str
    src: Source
    reason: str


@dataclass
class Plan:
    races: dict[str, RaceRef]
    stages: dict[tuple[str, int], StageRef]
    teams: TeamIndex
    riders: RiderIndex
    new_teams: list[TeamRef] = field(default_factory=list)
    new_riders: list[RiderRef] = field(default_factory=list)
    touched_teams: dict[int, TeamRef] = field(default_factory=dict)
    touched_riders: dict[int, RiderRef] = field(default_factory=dict)
    entries: dict[str, dict[RiderRef, EntryPlan]] = field(default_factory=dict)
    results: dict[StageRef, dict[RiderRef, ResultPlan]] = field(default_factory=dict)
    winners: dict[StageRef, ResultPlan] = field(default_factory=dict)
    standings: dict[tuple[StageRef, str], dict[RiderRef, StandingPlan]] = field(
        default_factory=dict
    )
    rider_doubts: list[Doubt] = field(default_factory=list)
    team_doubts: list[Doubt] = field(default_factory=list)
    # The rank-1 rider (or None) and the riders of each existing stage named by a winners file.
    db_stage_riders: dict[int, tuple[int | None, set[int]]] = field(default_factory=dict)


def plan_load(*, rows: Iterable[AnyRow]) -> Plan:
    """Everything the checks need from the database, in a handful of queries."""
    rows = list(rows)
    slugs = {row.race.slug for row in rows}
    races = {
        race.slug: RaceRef(
            slug=race.slug, name=race.name, year=race.year, pk=race.pk, kind=race.kind
        )
        for race in Race.objects.filter(slug__in=slugs).only("slug", "name", "year", "kind")
    }
    races_by_pk = {race.pk: race for race in races.values()}
    stages = {}
    for values in Stage.objects.filter(race_id__in=races_by_pk).values(
        "pk", "race_id", "number", *STAGE_FIELDS
    ):
        race = races_by_pk[values["race_id"]]
        fields = {name: values[name] for name in STAGE_FIELDS}
        stages[(race.slug, values["number"])] = StageRef(
            race=race,
            number=values["number"],
            pk=values["pk"],
            fields=fields,
            db_fields=dict(fields),
        )
    # All teams and riders: a few thousand rows at most, and fuzzy matching needs them all.
    teams = {
        values["pk"]: TeamRef(
            pk=values["pk"],
            name=values["name"],
            year=values["year"],
            code=values["code"],
            aliases=values["aliases"] or (),
        )
        for values in Team.objects.values("pk", "name", "year", "code", "aliases")
    }
    riders = {
        values["pk"]: RiderRef(
            pk=values["pk"],
            name=values["name"],
            aliases=values["aliases"] or (),
            pcs_slug=values["pcs_slug"],
            nationality=values["nationality"],
            birth_date=values["birth_date"],
            team=teams.get(values["team_id"]),
        )
        for values in Rider.objects.values(
            "pk", "name", "aliases", "pcs_slug", "nationality", "birth_date", "team_id"
        )
    }
    for rider_id, team_id, year in RaceEntry.objects.filter(
        race_id__in=races_by_pk, team__isnull=False
    ).values_list("rider_id", "team_id", "race__year"):
        if rider_id in riders and team_id in teams:
            riders[rider_id].teams_by_year.setdefault(year, teams[team_id])
    winner_slugs = {row.race.slug for row in rows if isinstance(row, WinnerRow)}
    db_stage_riders: dict[int, tuple[int | None, set[int]]] = {}
    winner_stage_pks = [ref.pk for key, ref in stages.items() if key[0] in winner_slugs]
    for stage_id, rider_id, rank in StageResult.objects.filter(
        stage_id__in=winner_stage_pks
    ).values_list("stage_id", "rider_id", "rank"):
        first, seen = db_stage_riders.get(stage_id, (None, set()))
        seen.add(rider_id)
        db_stage_riders[stage_id] = (rider_id if rank == 1 else first, seen)
    return Plan(
        races=races,
        stages=stages,
        teams=TeamIndex(teams.values()),
        riders=RiderIndex(riders.values()),
        db_stage_riders=db_stage_riders,
    )


ROW_ORDER = {StartListRow: 1, StageRow: 2, ResultRow: 3, WinnerRow: 4, StandingRow: 5}


def plan_build(*, plan: Plan, rows: list[AnyRow], file_order: dict[str, int]) -> list[RowError]:
    """Apply each valid row to the plan, in the order the contents need; return the bad rows."""

    def order(row: AnyRow) -> tuple[int, int, int, int]:
        general_first = 0 if getattr(row, "classification", "general") == "general" else 1
        return (ROW_ORDER[type(row)], general_first, file_order[row.src.file], row.src.line)

    builder = _Builder(plan)
    for row in sorted(rows, key=order):
        builder.apply(row)
    return builder.errors


class _RowError(Exception):
    def __init__(self, column: str, reason: str) -> None:
        super().__init__(reason)
        self.column = column
        self.reason = reason


@dataclass
class _Pending:
    """A rider and team resolved for a row, kept out of the indexes until the row is valid."""

    rider: Resolution
    team: Resolution | None
    rider_in: RiderIn
    year: int


class _Builder:
    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.errors: list[RowError] = []
        self.stage_rows: dict[StageRef, Source] = {}
        self.result_ranks: dict[StageRef, dict[int, Source]] = defaultdict(dict)
        self.standing_ranks: dict[tuple[StageRef, str], dict[int, Source]] = defaultdict(dict)
        self.winner_rows: dict[StageRef, Source] = {}
        self.bibs: dict[str, dict[int, Source]] = defaultdict(dict)

    def apply(self, row: AnyRow) -> None:
        try:
            if isinstance(row, StartListRow):
                self._start_list(row)
            elif isinstance(row, StageRow):
                self._stage(row)
            elif isinstance(row, ResultRow):
                self._result(row)
            elif isinstance(row, WinnerRow):
                self._winner(row)
            else:
                self._standing(row)
        except _RowError as error:
            self.errors.append(RowError(row.src.file, row.src.line, error.column, error.reason))

    # Lookups --------------------------------------------------------------------------------

    def _race(self, key: RaceKey) -> RaceRef:
        race = self.plan.races.get(key.slug)
        if race is None:
            candidate = Race(name=key.name, year=key.year, slug=key.slug, kind=Race.Kind.REAL)
            _clean(candidate, "race", exclude=["template"])
            race = RaceRef(slug=key.slug, name=key.name, year=key.year)
        elif race.kind != Race.Kind.REAL:
            raise _RowError("race", f"{key.slug} is a league race: real results cannot go into it")
        return race

    def _race_commit(self, race: RaceRef) -> None:
        self.plan.races.setdefault(race.slug, race)

    def _existing_stage(self, race: RaceRef, number: int, column: str = "stage") -> StageRef:
        stage = self.plan.stages.get((race.slug, number))
        if stage is None:
            raise _RowError(
                column,
                f"stage {number} of {race.slug} is unknown: import its stages (stages.csv) first "
                "or in the same call",
            )
        return stage

    def _resolve(self, row: AnyRow, rider_in: RiderIn, year: int) -> _Pending:
        team = None
        if rider_in.team:
            team = self.plan.teams.resolve(name=rider_in.team, year=year, code=rider_in.team_code)
        found = self.plan.riders.resolve(
            name=rider_in.name,
            pcs_slug=rider_in.pcs_slug,
            year=year,
            team=team.ref if team else None,  # type: ignore[arg-type]
        )
        if isinstance(found, str):
            raise _RowError(row.rider_column, found)
        if found.new:
            assert isinstance(found.ref, RiderRef)
            found.ref.name = display_name(rider_in.name)
            candidate = Rider(
                name=found.ref.name,
                pcs_slug=rider_in.pcs_slug,
                nationality=rider_in.nationality,
                birth_date=rider_in.birth_date,
            )
            _clean(candidate, row.rider_column, exclude=["team", "name_key"])
        if team is not None and team.new:
            _clean(
                Team(name=rider_in.team, year=year, code=rider_in.team_code),
                "team",
                exclude=["name_key"],
            )
        return _Pending(rider=found, team=team, rider_in=rider_in, year=year)

    def _commit(self, pending: _Pending, src: Source) -> tuple[RiderRef, TeamRef | None]:
        plan = self.plan
        team: TeamRef | None = None
        if pending.team is not None:
            team = pending.team.ref  # type: ignore[assignment]
            assert team is not None
            if pending.team.new:
                plan.teams.add(team)
                plan.new_teams.append(team)
                if pending.team.candidate is not None:
                    plan.team_doubts.append(
                        Doubt(
                            team,
                            pending.team.candidate,
                            pending.rider_in.team,
                            src,
                            pending.team.reason,
                        )
                    )
            elif pending.rider_in.team_code and not team.code:
                team.code = pending.rider_in.team_code
                plan.touched_teams[id(team)] = team
        rider = pending.rider.ref
        assert isinstance(rider, RiderRef)
        if pending.rider.new:
            plan.riders.add(rider)
            plan.new_riders.append(rider)
            if pending.rider.candidate is not None:
                plan.rider_doubts.append(
                    Doubt(
                        rider,
                        pending.rider.candidate,
                        pending.rider_in.name,
                        src,
                        pending.rider.reason,
                    )
                )
        self._learn(rider, pending.rider_in, team, pending.year)
        return rider, team

    def _learn(self, rider: RiderRef, rider_in: RiderIn, team: TeamRef | None, year: int) -> None:
        """Fill what the rider lacks; his team is the one of the latest year seen."""
        if rider_in.nationality and not rider.nationality:
            rider.nationality = rider_in.nationality
        if rider_in.birth_date and not rider.birth_date:
            rider.birth_date = rider_in.birth_date
        if rider_in.pcs_slug and not rider.pcs_slug:
            self.plan.riders.slug_learn(rider, rider_in.pcs_slug)
        if team is not None:
            rider.teams_by_year.setdefault(year, team)
            if rider.team_year is None or year >= rider.team_year:
                rider.team, rider.team_year = team, year
        if rider.pk is not None:
            self.plan.touched_riders[id(rider)] = rider

    # Rows -----------------------------------------------------------------------------------

    def _start_list(self, row: StartListRow) -> None:
        race = self._race(row.race)
        pending = self._resolve(row, row.rider, race.year)
        entries = self.plan.entries.get(race.slug, {})
        rider = pending.rider.ref
        assert isinstance(rider, RiderRef)
        if not pending.rider.new and rider in entries:
            first = entries[rider].src
            raise _RowError(row.rider_column, f"the same rider twice in the start list ({first})")
        if row.bib is not None and row.bib in self.bibs[race.slug]:
            raise _RowError(
                "bib", f"bib {row.bib} twice in the start list ({self.bibs[race.slug][row.bib]})"
            )
        self._race_commit(race)
        rider, team = self._commit(pending, row.src)
        self.plan.entries.setdefault(race.slug, {})[rider] = EntryPlan(
            rider, team, row.bib, row.src
        )
        if row.bib is not None:
            self.bibs[race.slug][row.bib] = row.src

    def _stage(self, row: StageRow) -> None:
        race = self._race(row.race)
        stage = self.plan.stages.get((race.slug, row.number))
        if stage is not None and stage in self.stage_rows:
            raise _RowError("stage", f"stage {row.number} twice ({self.stage_rows[stage]})")
        fields: dict[str, object] = {
            "date": row.date,
            "start": row.start,
            "finish": row.finish,
            "distance_km": row.distance_km,
            "stage_type": row.stage_type,
            "profile_icon": row.profile_icon,
            "profile_score": row.profile_score,
            "vertical_meters": row.vertical_meters,
        }
        candidate = Stage(number=row.number, **fields)
        _clean(candidate, "stage", exclude=["race"])
        self._race_commit(race)
        if stage is None:
            stage = StageRef(race=self.plan.races[race.slug], number=row.number)
            self.plan.stages[(race.slug, row.number)] = stage
        # Cells the row leaves empty keep what the database holds (another source may know).
        merged = dict(stage.fields)
        for name, value in fields.items():
            if value not in (None, "") or name not in merged:
                merged[name] = value
        stage.fields = merged
        stage.src = row.src
        self.stage_rows[stage] = row.src

    def _result(self, row: ResultRow) -> None:
        race = self._race(row.race)
        stage = self._existing_stage(race, row.stage)
        pending = self._resolve(row, row.rider, race.year)
        results = self.plan.results.get(stage, {})
        rider = pending.rider.ref
        assert isinstance(rider, RiderRef)
        if not pending.rider.new and rider in results:
            first = results[rider].src
            raise _RowError(row.rider_column, f"the same rider twice in {stage} ({first})")
        if row.rank is not None and row.rank in self.result_ranks[stage]:
            raise _RowError(
                "rank", f"rank {row.rank} twice in {stage} ({self.result_ranks[stage][row.rank]})"
            )
        rider, team = self._commit(pending, row.src)
        self.plan.results.setdefault(stage, {})[rider] = ResultPlan(
            rider=rider,
            team=team,
            rank=row.rank,
            status=row.status,
            time=row.time,
            gap=row.gap,
            bonus=row.bonus,
            breakaway_km=row.breakaway_km,
            src=row.src,
        )
        if row.rank is not None:
            self.result_ranks[stage][row.rank] = row.src

    def _winner(self, row: WinnerRow) -> None:
        """Stage winners check the results, or give the stage its rank 1 when it has none."""
        race = self._race(row.race)
        stage = self._existing_stage(race, row.stage)
        if stage in self.winner_rows:
            raise _RowError("stage", f"{stage} has two winners ({self.winner_rows[stage]})")
        pending = self._resolve(row, row.rider, race.year)
        rider = pending.rider.ref
        planned = self.plan.results.get(stage)
        if planned is not None:
            first = next((plan for plan in planned.values() if plan.rank == 1), None)
            if first is None:
                raise _RowError("stage", f"the results of {stage} have no rank 1")
            if first.rider is not rider:
                raise _RowError(
                    row.rider_column, f"the results ({first.src}) rank {first.rider.name} first"
                )
            self._commit(pending, row.src)
            self.winner_rows[stage] = row.src
            return
        if stage.pk is not None and stage.pk in self.plan.db_stage_riders:
            first_id, seen = self.plan.db_stage_riders[stage.pk]
            if first_id is not None and first_id == rider.pk:
                self._commit(pending, row.src)
                self.winner_rows[stage] = row.src
                return
            if first_id is not None:
                raise _RowError(row.rider_column, f"{stage} is already won by another rider")
            if rider.pk in seen:
                raise _RowError(row.rider_column, f"the rider already has a result in {stage}")
        rider, team = self._commit(pending, row.src)
        self.plan.winners[stage] = ResultPlan(
            rider=rider,
            team=team,
            rank=1,
            status=ResultStatus.FINISHED,
            time=None,
            gap=0,
            bonus=0,
            breakaway_km=None,
            src=row.src,
        )
        self.winner_rows[stage] = row.src

    def _standing(self, row: StandingRow) -> None:
        if row.struck:
            return  # not classified (struck out, abandoned): noted by the parser
        race = self._race(row.race)
        if row.after_stage is not None:
            stage = self._existing_stage(race, row.after_stage)
        else:
            numbers = [number for slug, number in self.plan.stages if slug == race.slug]
            if not numbers:
                raise _RowError(
                    "race", f"{race.slug} has no stages: import its stages (stages.csv) first"
                )
            stage = self.plan.stages[(race.slug, max(numbers))]
        key = (stage, row.classification)
        pending = self._resolve(row, row.rider, race.year)
        lines = self.plan.standings.get(key, {})
        rider = pending.rider.ref
        assert isinstance(rider, RiderRef)
        if not pending.rider.new and rider in lines:
            first = lines[rider].src
            raise _RowError(
                row.rider_column,
                f"the same rider twice in the {row.classification} classification ({first})",
            )
        if row.rank is not None and row.rank in self.standing_ranks[key]:
            raise _RowError(
                "rank",
                f"rank {row.rank} twice in the {row.classification} classification "
                f"({self.standing_ranks[key][row.rank]})",
            )
        value = row.value
        if value is None:
            general = self.plan.standings.get((stage, "general"), {})
            line = general.get(rider)
            value = line.value if line is not None else row.gap
        if value is None:
            raise _RowError(row.value_column, "time missing")
        rider, team = self._commit(pending, row.src)
        self.plan.standings.setdefault(key, {})[rider] = StandingPlan(
            rider=rider, team=team, rank=row.rank, value=value, gap=row.gap or 0, src=row.src
        )
        if row.rank is not None:
            self.standing_ranks[key][row.rank] = row.src


def _clean(instance: Race | Stage | Rider | Team, column: str, *, exclude: list[str]) -> None:
    """The model's own field validation, as a row error (the parsers should have caught it)."""
    try:
        instance.clean_fields(exclude=exclude)
    except ValidationError as error:
        reasons = "; ".join(
            f"{name}: {' '.join(messages)}" for name, messages in error.message_dict.items()
        )
        raise _RowError(column, reasons) from None


def doubts_report(plan: Plan) -> list[MatchDoubt]:
    return [
        MatchDoubt(
            kind=kind,
            file=doubt.src.file,
            line=doubt.src.line,
            imported_name=doubt.imported_name,
            candidate_name=str(doubt.candidate.name),
            reason=doubt.reason,
        )
        for kind, doubts in (("rider", plan.rider_doubts), ("team", plan.team_doubts))
        for doubt in doubts
    ]
