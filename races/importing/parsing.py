"""Rows of a table -> typed records, each bad cell named; then the checks within one file."""

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import TypeVar

from races.importing import values
from races.importing.layouts import Kind, Layout, file_context
from races.importing.limits import MAX_CELL_CHARS
from races.importing.readers import Table
from races.importing.report import RowError, RowNote
from races.importing.values import CellError
from races.models import ResultStatus

T = TypeVar("T")


@dataclass(frozen=True)
class Source:
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file} line {self.line}"


@dataclass(frozen=True)
class RaceKey:
    slug: str
    name: str
    year: int


@dataclass
class RiderIn:
    name: str
    pcs_slug: str | None = None
    nationality: str = ""
    birth_date: date | None = None
    team: str = ""
    team_code: str = ""


@dataclass
class Row:
    src: Source
    race: RaceKey
    rider_column: str = field(default="rider", kw_only=True)


@dataclass
class StartListRow(Row):
    rider: RiderIn
    bib: int | None


@dataclass
class StageRow(Row):
    number: int
    date: date | None
    start: str
    finish: str
    distance_km: Decimal
    stage_type: str
    profile_icon: str
    profile_score: int | None = None
    vertical_meters: int | None = None


@dataclass
class ResultRow(Row):
    stage: int
    rank: int | None
    status: str
    time: int | None
    gap: int | None
    bonus: int
    breakaway_km: int | None
    rider: RiderIn
    time_column: str = "time_seconds"


@dataclass
class WinnerRow(Row):
    stage: int
    rider: RiderIn


@dataclass
class StandingRow(Row):
    classification: str
    rank: int | None
    status: str
    value: int | None
    value_kind: str  # "time", "gap" or "points"
    gap: int | None
    rider: RiderIn
    after_stage: int | None = None
    value_column: str = "value"
    # Not in the classification at all (DNF, DSQ...): noted, not stored. A finished rider
    # without a rank is "unranked": stored without a rank, listed after the ranked ones.
    struck: bool = False


AnyRow = StartListRow | StageRow | ResultRow | WinnerRow | StandingRow


@dataclass
class ParsedTable:
    layout: Layout
    rows: list[AnyRow]
    errors: list[RowError]
    notes: list[RowNote]


# Characters no name, place or number holds: control characters (NUL, which no PostgreSQL text
# column can hold, line breaks inside a cell, escape sequences) and the invisible marks that
# turn text around on screen (U+202E shows "gnp.exe" for "exe.png").
_HOSTILE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# Names and places: a spreadsheet runs a cell that starts with one of these as a formula
# (OWASP, "CSV injection"); no rider, team or town starts so.
_FREE_TEXT = frozenset(
    [
        "rider",
        "rider_name",
        "team",
        "team_name",
        "race",
        "start",
        "finish",
        "departure",
        "arrival",
        "stage_name",
    ]
)
_FORMULA_PREFIXES = ("=", "+", "-", "@")


def _hostile_reason(text: str) -> str:
    found = _HOSTILE.search(text)
    assert found is not None
    char = found.group()
    if char == "\x00":
        return "the cell holds a NUL character"
    return f"the cell holds the invisible character U+{ord(char):04X}: retype it"


class _Cells:
    """One row's cells by column, collecting an error per bad cell."""

    def __init__(
        self, table: Table, line: int, cells: list[str], free_text: tuple[str, ...] = ()
    ) -> None:
        self.file = table.name
        self.line = line
        self.cells = dict(zip(table.header, cells, strict=True))
        self.errors: list[RowError] = []
        # One look at the whole row first: real rows hold none of these.
        if _HOSTILE.search("".join(cells)) or max(map(len, cells), default=0) > MAX_CELL_CHARS:
            self._hostile_cells()
        for column in free_text:
            text = self.cells[column]
            if text.startswith(_FORMULA_PREFIXES) and text not in {"-", "–"}:
                self.error(
                    column,
                    f"{column} starts with {text[0]!r}, as a spreadsheet formula does: not a name",
                )

    def _hostile_cells(self) -> None:
        for column, text in self.cells.items():
            if len(text) > MAX_CELL_CHARS:
                self.error(
                    column, f"the cell holds {len(text):,} characters: at most {MAX_CELL_CHARS}"
                )
                self.cells[column] = ""
            elif _HOSTILE.search(text):
                self.error(column, _hostile_reason(text))
                self.cells[column] = _HOSTILE.sub("", text)

    def __getitem__(self, column: str) -> str:
        return self.cells.get(column, "")

    def error(self, column: str, reason: str) -> None:
        self.errors.append(RowError(file=self.file, line=self.line, column=column, reason=reason))

    def parse(
        self, column: str, parser: Callable[..., T], *args: object, **kwargs: object
    ) -> T | None:
        try:
            return parser(self[column], *args, **kwargs)
        except CellError as error:
            self.error(column, str(error))
            return None


def table_parse(*, table: Table, layout: Layout) -> ParsedTable:
    parsed = ParsedTable(layout=layout, rows=[], errors=[], notes=[])
    ignored = sorted(set(table.header) - layout.columns)
    if ignored:
        parsed.notes.append(
            RowNote(file=table.name, line=1, text=f"column(s) not read: {', '.join(ignored)}")
        )
    row_parser = _ROW_PARSERS[layout.kind]
    free_text = tuple(column for column in table.header if column in _FREE_TEXT)
    for line, cell_list in table.rows:
        cells = _Cells(table, line, cell_list, free_text)
        row = row_parser(cells, layout, parsed.notes)
        if cells.errors:
            parsed.errors.extend(cells.errors)
        elif row is not None:
            parsed.rows.append(row)
    if layout.kind == Kind.RESULTS:
        _results_times_resolve(parsed, timed=bool(_TIME_COLUMNS.intersection(table.header)))
    elif layout.kind == Kind.STANDINGS:
        _standings_values_resolve(parsed)
    return parsed


def _race(cells: _Cells, layout: Layout) -> RaceKey | None:
    race_text, year_text = cells["race"], cells["year"]
    if layout.pcs and not (race_text and year_text):
        url = _url_parts(cells["stage_url"])
        context = file_context(cells.file)
        race_text = race_text or url.get("race", "") or context.race
        year_text = year_text or url.get("year", "") or context.year
        if not (race_text and year_text):
            cells.error(
                "race",
                "race and year unknown: add race and year columns, or name the file "
                "<race>-<year>-....csv (e.g. tour-de-france-2023-stage-5.csv)",
            )
            return None
    if not race_text:
        cells.error("race", "race is missing")
        return None
    try:
        year = values.year_parse(year_text)
    except CellError as error:
        cells.error("year", str(error))
        return None
    try:
        slug, name = values.race_key_parse(race_text, year=year)
    except CellError as error:
        cells.error("race", str(error))
        return None
    return RaceKey(slug=slug, name=name, year=year)


_STAGE_URL = re.compile(r"race/(?P<race>[^/]+)/(?P<year>\d{4})(?:/(?P<part>[^/?#]+))?")


def _url_parts(url: str) -> dict[str, str]:
    match = _STAGE_URL.search(url)
    if not match:
        return {}
    parts = {"race": match["race"], "year": match["year"]}
    part = match["part"] or ""
    if part.startswith("stage-") or part == "prologue":
        parts["stage"] = part
    return parts


def _stage(cells: _Cells, layout: Layout) -> int | None:
    text = cells["stage"]
    if layout.pcs and not text:
        text = _url_parts(cells["stage_url"]).get("stage", "") or file_context(cells.file).stage
        if not text:
            cells.error(
                "stage",
                "stage unknown: add a stage column, or name the file <race>-<year>-stage-<n>.csv",
            )
            return None
        try:
            return values.stage_number_parse(text)
        except CellError as error:
            cells.error("stage", str(error))
            return None
    return cells.parse("stage", values.stage_number_parse)


def _rider(cells: _Cells, layout: Layout) -> RiderIn | None:
    column = "rider_name" if layout.pcs else "rider"
    name = cells.parse(column, values.text_required, what="rider name")
    slug_column = "rider_url" if cells["rider_url"] else "pcs_slug"
    slug = cells.parse(slug_column, values.pcs_slug_parse)
    nationality = cells.parse("nationality", values.nationality_parse)
    birth_date = cells.parse("birth_date", values.date_parse)
    team = cells["team_name" if layout.pcs else "team"]
    if len(team) > 120:
        cells.error("team", "team name is longer than 120 characters")
    team_code = cells["team_code"].upper()
    if len(team_code) > 3:
        cells.error("team_code", f"team code {team_code!r} is longer than 3 letters")
    if name is None:
        return None
    return RiderIn(
        name=" ".join(name.split()),
        pcs_slug=slug,
        nationality=nationality or "",
        birth_date=birth_date,
        team=team,
        team_code=team_code,
    )


def _start_list_row(cells: _Cells, layout: Layout, notes: list[RowNote]) -> StartListRow | None:
    race = _race(cells, layout)
    rider = _rider(cells, layout)
    bib = cells.parse("rider_number" if layout.pcs else "bib", values.bib_parse)
    if race is None or rider is None or cells.errors:
        return None
    return StartListRow(src=Source(cells.file, cells.line), race=race, rider=rider, bib=bib)


def _stage_row(cells: _Cells, layout: Layout, notes: list[RowNote]) -> StageRow | None:
    race = _race(cells, layout)
    number = _stage(cells, layout)
    icon = cells.parse("profile_icon", values.profile_icon_parse) or ""
    # What a generated course is built from (races.course_generation), when the file tells.
    score = cells.parse("profile_score", values.count_parse, what="profile score")
    vertical = cells.parse("vertical_meters", values.count_parse, what="vertical metres")
    type_column = "stage_type" if layout.pcs else "type"
    stage_type = cells.parse(type_column, values.stage_type_parse, profile_icon=icon)
    distance = cells.parse("distance" if layout.pcs else "distance_km", values.distance_parse)
    day = cells.parse("date", values.date_parse)
    start = cells["departure" if layout.pcs else "start"]
    finish = cells["arrival" if layout.pcs else "finish"]
    for column, text in (("start", start), ("finish", finish)):
        if len(text) > 120:
            cells.error(column, f"{column} is longer than 120 characters")
    if race is None or number is None or stage_type is None or distance is None or cells.errors:
        return None
    return StageRow(
        src=Source(cells.file, cells.line),
        race=race,
        number=number,
        date=day,
        start=start,
        finish=finish,
        distance_km=distance,
        stage_type=stage_type.value,
        profile_icon=icon,
        profile_score=score,
        vertical_meters=vertical,
    )


def _rank_and_status(cells: _Cells) -> tuple[int | None, str | None]:
    rank_text = cells["rank"]
    status_text = cells["status"]
    if rank_text.strip().lower() in values.RANK_STATUS_WORDS:
        status_text = status_text or rank_text
        rank_text = ""
    rank = cells.parse("rank", values.rank_parse) if rank_text else None
    try:
        status = values.status_parse(status_text)
    except CellError as error:
        cells.error("status", str(error))
        return rank, None
    return rank, status.value


def _result_row(cells: _Cells, layout: Layout, notes: list[RowNote]) -> ResultRow | None:
    race = _race(cells, layout)
    stage = _stage(cells, layout)
    rider = _rider(cells, layout)
    rank, status = _rank_and_status(cells)
    if layout.pcs:
        time_column = "time"
        time = gap = None
        if cells["time"].strip().startswith("+"):
            gap = cells.parse("time", values.seconds_parse, what="time")
        else:
            time = cells.parse("time", values.seconds_parse, what="time")
        bonus = cells.parse("bonus", values.seconds_parse, what="bonus")
        breakaway = cells.parse("breakaway_kms", _km_parse)
    else:
        time_column = "time_seconds"
        time = cells.parse("time_seconds", values.seconds_parse, what="time")
        gap = cells.parse("gap_seconds", values.seconds_parse, what="gap")
        bonus = cells.parse("bonus_seconds", values.seconds_parse, what="bonus")
        breakaway = cells.parse("breakaway_km", _km_parse)
    if status == ResultStatus.FINISHED and rank is None and not cells.errors:
        cells.error("rank", "rank missing for a rider who finished")
    if race is None or stage is None or rider is None or status is None or cells.errors:
        return None
    src = Source(cells.file, cells.line)
    if status != ResultStatus.FINISHED:
        if rank is not None:
            notes.append(
                RowNote(cells.file, cells.line, f"{status}: road place {rank} not kept as a rank")
            )
        rank = time = gap = None
    return ResultRow(
        src=src,
        race=race,
        stage=stage,
        rank=rank,
        status=status,
        time=time,
        gap=gap,
        bonus=bonus or 0,
        breakaway_km=breakaway,
        rider=rider,
        time_column=time_column,
        rider_column="rider_name" if layout.pcs else "rider",
    )


def _km_parse(text: str) -> int | None:
    if not text:
        return None
    try:
        return int(values.distance_parse(text).to_integral_value())
    except CellError:
        if text.strip() == "0":
            return 0
        raise CellError(f"breakaway km {text!r} is not a number") from None


def _winner_row(cells: _Cells, layout: Layout, notes: list[RowNote]) -> WinnerRow | None:
    race = _race(cells, layout)
    stage = _stage(cells, layout)
    rider = _rider(cells, layout)
    if race is None or stage is None or rider is None or cells.errors:
        return None
    return WinnerRow(src=Source(cells.file, cells.line), race=race, stage=stage, rider=rider)


def _standing_row(cells: _Cells, layout: Layout, notes: list[RowNote]) -> StandingRow | None:
    race = _race(cells, layout)
    rider = _rider(cells, layout)
    rank, status = _rank_and_status(cells)
    classification: str | None = layout.classification
    value_column = "value"
    gap = None
    if layout.pcs:
        context = file_context(cells.file)
        if not classification:
            if cells["classification"]:
                classification = cells.parse("classification", values.classification_parse)
            elif "points" in context.parts:
                classification = "points"
            elif context.parts & {"kom", "mountains"}:
                classification = "mountains"
            else:
                cells.error(
                    "classification",
                    "points or mountains? add a classification column, or name the file "
                    "<race>-<year>-points.csv or <race>-<year>-kom.csv",
                )
        if classification in {"points", "mountains"}:
            value_column, value_kind = "points", "points"
            value = _points(cells, "points")
        else:
            value_column, value_kind = "time", "time"
            value = None
            if cells["time"].strip().startswith("+"):
                gap = cells.parse("time", values.seconds_parse, what="time")
            else:
                value = cells.parse("time", values.seconds_parse, what="time")
        after_stage = int(context.stage) if context.stage else None
    elif classification == "general":
        value_column, value_kind = "time_seconds", "time"
        value = cells.parse("time_seconds", values.seconds_parse, what="time")
        gap = cells.parse("gap_seconds", values.seconds_parse, what="gap")
        after_stage = None
    else:
        classification = cells.parse("classification", values.classification_parse)
        value_kind = cells.parse("unit", values.unit_parse) or "points"
        if value_kind == "points":
            value = _points(cells, "value")
        else:
            value = cells.parse("value", values.seconds_parse, what="value")
            if value_kind == "gap":
                gap, value = value, None
        after_stage = None
    if race is None or rider is None or status is None or classification is None or cells.errors:
        return None
    src = Source(cells.file, cells.line)
    struck = status != ResultStatus.FINISHED
    if struck:
        notes.append(RowNote(cells.file, cells.line, f"{rider.name} not classified ({status})"))
        rank = None
    elif rank is None and value is None and gap is None:
        notes.append(
            RowNote(cells.file, cells.line, f"{rider.name} not classified (no rank, no value)")
        )
        struck = True
    elif rank is None:
        notes.append(RowNote(cells.file, cells.line, f"{rider.name} listed without a rank"))
    return StandingRow(
        src=src,
        race=race,
        classification=classification,
        rank=rank,
        status=status,
        value=value,
        value_kind=value_kind if value_kind != "gap" else "time",
        gap=gap,
        rider=rider,
        after_stage=after_stage,
        value_column=value_column,
        rider_column="rider_name" if layout.pcs else "rider",
        struck=struck,
    )


def _points(cells: _Cells, column: str) -> int | None:
    """Points, negative after a penalty; a dash or nothing means none (checked later)."""
    if cells[column].strip() in values.NO_RANK:
        return None
    return cells.parse(column, values.points_parse, what="points")


_ROW_PARSERS: dict[Kind, Callable[[_Cells, Layout, list[RowNote]], AnyRow | None]] = {
    Kind.START_LIST: _start_list_row,
    Kind.STAGES: _stage_row,
    Kind.RESULTS: _result_row,
    Kind.WINNERS: _winner_row,
    Kind.STANDINGS: _standing_row,
}


def _drop(parsed: ParsedTable, bad: list[tuple[AnyRow, str, str]]) -> None:
    """Move the rows found bad by a check across rows into the errors."""
    if not bad:
        return
    for row, column, reason in bad:
        parsed.errors.append(RowError(row.src.file, row.src.line, column, reason))
    bad_ids = {id(row) for row, _, _ in bad}
    parsed.rows = [row for row in parsed.rows if id(row) not in bad_ids]


_TIME_COLUMNS = frozenset({"time_seconds", "gap_seconds", "time"})


def _results_times_resolve(parsed: ParsedTable, *, timed: bool) -> None:
    """Empty time cells mean "same time as the rider above"; gaps and times complete each other.

    The 3 km rule gives a rider the time of his group even after riders with a gap, so times
    are not required to grow down the list. In a file with a time column every finisher ends
    with a time: a stage whose finishers have none (a file cut after a stage's first row, a
    column left empty) is refused rather than stored without times.
    """
    groups: dict[tuple[str, int], list[ResultRow]] = defaultdict(list)
    for row in parsed.rows:
        if isinstance(row, ResultRow) and row.status == ResultStatus.FINISHED:
            groups[(row.race.slug, row.stage)].append(row)
    bad: list[tuple[AnyRow, str, str]] = []
    for finishers in groups.values():
        found = list(_times_fill(finishers, value_of="time"))
        bad.extend(found)
        if timed and not found:
            bad.extend(
                (row, row.time_column, "time missing for a rider who finished")
                for row in finishers
                if row.time is None and row.gap is None
            )
    _drop(parsed, bad)


def _standings_values_resolve(parsed: ParsedTable) -> None:
    """Values and gaps of each classification, from its leader (rank 1, or the best rank).

    Unranked riders (listed without a place) take part only with a value of their own: the
    "same time as above" rule is for ranked riders, whose order the ranks give.
    """
    timed: dict[tuple[str, str], list[StandingRow]] = defaultdict(list)
    points: dict[tuple[str, str], list[StandingRow]] = defaultdict(list)
    for row in parsed.rows:
        if isinstance(row, StandingRow) and not row.struck:
            group = timed if row.value_kind == "time" else points
            group[(row.race.slug, row.classification)].append(row)
    bad: list[tuple[AnyRow, str, str]] = []
    for rows in timed.values():
        ranked = [row for row in rows if row.rank is not None]
        if ranked:
            bad.extend(_times_fill(ranked, value_of="value"))
        bad.extend(_unranked_times(rows, ranked))
    for rows in points.values():
        ranked = [row for row in rows if row.rank is not None]
        leader = min(ranked, key=lambda row: row.rank or 0) if ranked else None
        for row in rows:
            if row.value is None:
                if row.rank is not None:
                    bad.append((row, row.value_column, "points missing"))
            elif leader is not None and leader.value is not None:
                if row.value > leader.value:
                    reason = f"{row.value} points is more than the leader's {leader.value}"
                    bad.append((row, row.value_column, reason))
                else:
                    row.gap = leader.value - row.value
    _drop(parsed, bad)


def _unranked_times(
    rows: list[StandingRow], ranked: list[StandingRow]
) -> Iterable[tuple[StandingRow, str, str]]:
    leader = min(ranked, key=lambda row: row.rank or 0) if ranked else None
    leader_time = None
    if leader is not None and leader.value is not None:
        leader_time = leader.value - (leader.gap or 0)
    for row in rows:
        if row.rank is not None or leader_time is None:
            continue
        if row.value is None and row.gap is not None:
            row.value = leader_time + row.gap
        elif row.value is not None and row.gap is None:
            if row.value < leader_time:
                reason = f"time {row.value} s is less than the leader's {leader_time} s"
                yield row, row.value_column, reason
                continue
            row.gap = row.value - leader_time


def _times_fill(
    rows: list[ResultRow] | list[StandingRow], *, value_of: str
) -> Iterable[tuple[ResultRow | StandingRow, str, str]]:
    """Fill the (time, gap) pairs of a stage or classification in file order; yield bad rows."""

    def get(row: ResultRow | StandingRow) -> int | None:
        return getattr(row, value_of)  # type: ignore[no-any-return]

    def column(row: ResultRow | StandingRow) -> str:
        return row.time_column if isinstance(row, ResultRow) else row.value_column

    above: ResultRow | StandingRow | None = None
    for row in rows:
        if get(row) is None and row.gap is None and above is not None:
            setattr(row, value_of, get(above))
            row.gap = above.gap
        above = row
    ranked = [row for row in rows if row.rank is not None]
    leader = min(ranked, key=lambda row: row.rank or 0) if ranked else rows[0]
    leader_time = get(leader)
    if leader_time is not None and leader.gap:
        leader_time -= leader.gap
    any_time = any(get(row) is not None or row.gap is not None for row in rows)
    for row in rows:
        time, gap = get(row), row.gap
        if time is None and gap is None:
            if any_time:
                yield row, column(row), "time missing, and no rider above to share his time"
            continue
        if time is None and leader_time is not None and gap is not None:
            setattr(row, value_of, leader_time + gap)
        elif gap is None and time is not None and leader_time is not None:
            if time < leader_time:
                yield row, column(row), f"time {time} s is less than the leader's {leader_time} s"
                continue
            row.gap = time - leader_time
