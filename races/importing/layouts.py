"""The file layouts the import reads, told apart by their header (docs/import.md shows each)."""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum


class Kind(IntEnum):
    """What a file holds, in the order a call applies them: start lists and stages first."""

    START_LIST = 1
    STAGES = 2
    RESULTS = 3
    WINNERS = 4
    STANDINGS = 5


@dataclass(frozen=True)
class Layout:
    name: str
    kind: Kind
    required: frozenset[str]
    optional: frozenset[str]
    pcs: bool = False  # ProCyclingStats: race, year and stage may come from the file name
    classification: str = ""  # a standings layout that holds one classification

    @property
    def columns(self) -> frozenset[str]:
        return self.required | self.optional


def _layout(name: str, kind: Kind, required: str, optional: str = "", **extra: object) -> Layout:
    return Layout(
        name=name,
        kind=kind,
        required=frozenset(required.split()),
        optional=frozenset(optional.split()),
        **extra,  # type: ignore[arg-type]
    )


_RIDER_EXTRA = "team nationality pcs_slug rider_url"
_PCS_RIDER = "rider_number team_name team_url nationality age race year stage stage_url"

OURS = {
    "riders": _layout(
        "riders (start list)",
        Kind.START_LIST,
        "race year bib rider",
        _RIDER_EXTRA + " birth_date team_code",
    ),
    "stages": _layout(
        "stages", Kind.STAGES, "race year stage distance_km type", "date start finish profile_icon"
    ),
    "results": _layout(
        "results (stage results)",
        Kind.RESULTS,
        "race year stage rank rider",
        _RIDER_EXTRA + " time_seconds gap_seconds status bonus_seconds breakaway_km bib",
    ),
    "gc": _layout(
        "gc (general classification)",
        Kind.STANDINGS,
        "race year rank rider",
        _RIDER_EXTRA + " time_seconds gap_seconds status",
        classification="general",
    ),
    "classifications": _layout(
        "classifications (points, mountains, youth)",
        Kind.STANDINGS,
        "race year classification rank rider value",
        _RIDER_EXTRA + " unit",
    ),
    "stage_winners": _layout("stage winners", Kind.WINNERS, "race year stage rider", _RIDER_EXTRA),
}

PCS = {
    "startlist": _layout(
        "ProCyclingStats start list",
        Kind.START_LIST,
        "rider_name",
        _PCS_RIDER + " rider_url",
        pcs=True,
    ),
    "results": _layout(
        "ProCyclingStats stage results",
        Kind.RESULTS,
        "rider_name rank time",
        _PCS_RIDER + " rider_url status bonus pcs_points uci_points breakaway_kms",
        pcs=True,
    ),
    "gc": _layout(
        "ProCyclingStats general classification",
        Kind.STANDINGS,
        "rider_name rank time",
        _PCS_RIDER + " rider_url status prev_rank bonus pcs_points uci_points",
        pcs=True,
        classification="general",
    ),
    "youth": _layout(
        "ProCyclingStats youth classification",
        Kind.STANDINGS,
        "rider_name rank time",
        _PCS_RIDER + " rider_url status prev_rank",
        pcs=True,
        classification="youth",
    ),
    "points": _layout(
        "ProCyclingStats points or mountains classification",
        Kind.STANDINGS,
        "rider_name rank points",
        _PCS_RIDER + " rider_url prev_rank classification",
        pcs=True,
    ),
    "stages": _layout(
        "ProCyclingStats stages",
        Kind.STAGES,
        "distance stage_type",
        "date departure arrival profile_icon profile_score vertical_meters avg_speed_winner "
        "race year stage stage_url stage_name won_how",
        pcs=True,
    ),
}


@dataclass(frozen=True)
class FileContext:
    """Race, year, stage and part told by a file name like tour-de-france-2023-stage-5.csv."""

    race: str = ""
    year: str = ""
    stage: str = ""
    parts: frozenset[str] = frozenset()


_FILE_NAME = re.compile(
    r"^(?P<race>[a-z][a-z0-9]*(?:[-_ ][a-z0-9]+)*?)[-_ ](?P<year>(?:19|20)\d\d)(?!\d)(?P<rest>.*)$"
)
_STAGE_PART = re.compile(r"stage[-_ ]?(\d{1,2})|(?<![a-z])(prologue)(?![a-z])")
_PARTS = ("gc", "youth", "points", "kom", "mountains", "startlist", "stages", "results")


def file_context(name: str) -> FileContext:
    stem = name.rsplit("/", 1)[-1].split(" [", 1)[0].rsplit(".", 1)[0].lower()
    match = _FILE_NAME.match(stem)
    if match:
        race, year, rest = match["race"], match["year"], match["rest"]
    else:
        race, year, rest = "", "", stem
    stage_match = _STAGE_PART.search(rest)
    stage = ""
    if stage_match:
        stage = stage_match.group(1) or "0"
    words = set(re.split(r"[-_ ]+", rest))
    return FileContext(
        race=race.replace("_", "-").replace(" ", "-"),
        year=year,
        stage=stage,
        parts=frozenset(part for part in _PARTS if part in words),
    )


def layout_detect(*, header: Sequence[str], file_name: str) -> Layout:
    """The layout of a table, from its header (and for ProCyclingStats files, its name).

    Raises ValueError with a reason the admin can act on.
    """
    columns = set(header)
    context = file_context(file_name)
    if "rider_name" in columns or ("rider_url" in columns and "rider" not in columns):
        layout = _pcs_layout(columns, context)
    elif "distance" in columns and "stage_type" in columns:
        layout = PCS["stages"]
    elif "classification" in columns:
        layout = OURS["classifications"]
    elif "type" in columns or "distance_km" in columns:
        layout = OURS["stages"]
    elif "bib" in columns and "rank" not in columns:
        layout = OURS["riders"]
    elif "stage" in columns and "rank" in columns:
        layout = OURS["results"]
    elif "stage" in columns:
        layout = OURS["stage_winners"]
    elif "rank" in columns:
        layout = OURS["gc"]
    else:
        raise ValueError(
            "cannot tell the layout from the header ("
            + ", ".join(header[:12])
            + "): see docs/import.md for the columns of each layout"
        )
    missing = sorted(layout.required - columns)
    if missing:
        raise ValueError(f"looks like {layout.name} but lacks the column(s) {', '.join(missing)}")
    return layout


def _pcs_layout(columns: set[str], context: FileContext) -> Layout:
    if "rank" not in columns:
        return PCS["startlist"]
    if "points" in columns:
        return PCS["points"]
    if "youth" in context.parts:
        return PCS["youth"]
    if "gc" in context.parts:
        return PCS["gc"]
    if context.stage or "results" in context.parts:
        return PCS["results"]
    if "prev_rank" in columns:
        return PCS["gc"]
    if columns & {"status", "breakaway_kms", "stage", "stage_url"}:
        return PCS["results"]
    raise ValueError(
        "cannot tell stage results from a general classification: name the file "
        "<race>-<year>-stage-<n>.csv or <race>-<year>-gc.csv"
    )
