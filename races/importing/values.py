"""Parsers of single cells: each returns the value or raises CellError with the reason."""

import re
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

from django.utils.text import slugify

from races.models import ResultStatus, StageType

MAX_SECONDS = 10_000_000  # about 115 days: no race lasts longer; keeps the value in an int column
MAX_RANK = 9999
MAX_BIB = 9999


class CellError(ValueError):
    """A cell that cannot be read; the message is the reason shown to the admin."""


def text_required(text: str, *, what: str, max_length: int = 120) -> str:
    if not text:
        raise CellError(f"{what} is missing")
    if len(text) > max_length:
        raise CellError(f"{what} is longer than {max_length} characters")
    return text


def shown(text: str, limit: int = 40) -> str:
    """A cell as quoted in a message: cut when long, so a hostile cell cannot flood the report."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


_WHOLE = re.compile(r"[+-]?\d{1,12}")
_WHOLE_WITH_ZEROS = re.compile(r"[+-]?\d+\.0*")  # "12.0" from a spreadsheet
_TOO_MANY_DIGITS = re.compile(r"[+-]?\d{13,}")


def int_in_range(text: str, *, what: str, low: int, high: int) -> int:
    cleaned = text.strip()
    if not _WHOLE.fullmatch(cleaned):
        if _WHOLE_WITH_ZEROS.fullmatch(cleaned):
            cleaned = cleaned.split(".")[0]
        if _TOO_MANY_DIGITS.fullmatch(cleaned):
            raise CellError(f"{what} {shown(text)} is out of range ({low} to {high})")
        if not _WHOLE.fullmatch(cleaned):
            raise CellError(f"{what} {shown(text)} is not a whole number")
    value = int(cleaned)
    if not low <= value <= high:
        raise CellError(f"{what} {value} is out of range ({low} to {high})")
    return value


def year_parse(text: str) -> int:
    if not text:
        raise CellError("year is missing")
    return int_in_range(text, what="year", low=1900, high=2100)


def stage_number_parse(text: str) -> int:
    """ "5", "Stage 5", "stage-5" -> 5; "P", "prologue" -> 0."""
    cleaned = text.strip().lower()
    if not cleaned:
        raise CellError("stage is missing")
    if cleaned in {"p", "prologue", "stage-0", "stage 0"}:
        return 0
    cleaned = re.sub(r"^stage[\s_-]*", "", cleaned)
    return int_in_range(cleaned, what="stage", low=0, high=99)


# Words some sources write in the rank column instead of a place.
RANK_STATUS_WORDS = {"dnf", "dns", "otl", "dsq", "dq", "df", "hd"}


# What sources write in the rank column of a rider they list without a place.
NO_RANK = {"", "-", "–", "—"}


def rank_parse(text: str) -> int | None:
    """ "12", "12.", "12.0" -> 12; empty or a dash (listed, not ranked) -> None."""
    if text.strip() in NO_RANK:
        return None
    cleaned = text.strip().rstrip(".")
    if not re.fullmatch(r"\d+(\.0*)?", cleaned):
        raise CellError(f"rank {shown(text)} is not a number")
    return int_in_range(cleaned, what="rank", low=1, high=MAX_RANK)


_CLOCK = re.compile(r"(?:(\d{1,4}):)?(\d{1,2}):(\d{1,2})")
_SECONDS = re.compile(r"\d{1,8}(?:\.0*)?")


def seconds_parse(text: str, *, what: str) -> int | None:
    """Seconds from "10712", "2:58:32", "58:32", "+0:05"; empty or "-" or ",," means unknown."""
    cleaned = text.strip().lstrip("+").replace(",,", "").strip()
    if cleaned in {"", "-", "–"}:
        return None
    if _SECONDS.fullmatch(cleaned):
        value = int(cleaned.split(".")[0])
    else:
        match = _CLOCK.fullmatch(cleaned)
        if not match:
            raise CellError(f"{what} {shown(text)} is not a time (H:MM:SS or seconds)")
        hours, minutes, seconds = (int(part) if part else 0 for part in match.groups())
        if minutes >= 60 or seconds >= 60:
            raise CellError(f"{what} {shown(text)} is not a time (minutes and seconds go to 59)")
        value = hours * 3600 + minutes * 60 + seconds
    if value > MAX_SECONDS:
        raise CellError(f"{what} {shown(text)} is too long for a race")
    return value


STATUSES = {
    "fin": ResultStatus.FINISHED,
    "df": ResultStatus.FINISHED,
    "finished": ResultStatus.FINISHED,
    "dnf": ResultStatus.DID_NOT_FINISH,
    "ab": ResultStatus.DID_NOT_FINISH,
    "dns": ResultStatus.DID_NOT_START,
    "np": ResultStatus.DID_NOT_START,
    "otl": ResultStatus.OUTSIDE_TIME_LIMIT,
    "hd": ResultStatus.OUTSIDE_TIME_LIMIT,
    "dsq": ResultStatus.DISQUALIFIED,
    "dq": ResultStatus.DISQUALIFIED,
}


def status_parse(text: str) -> ResultStatus:
    """FIN/DF (finished), DNF, DNS, OTL, DSQ; empty means finished."""
    if not text:
        return ResultStatus.FINISHED
    try:
        return STATUSES[text.strip().lower()]
    except KeyError:
        raise CellError(
            f"unknown status {shown(text)} (expected FIN or DF, DNF, DNS, OTL, DSQ)"
        ) from None


STAGE_TYPES = {
    "flat": StageType.FLAT,
    "hilly": StageType.HILLY,
    "hill": StageType.HILLY,
    "mountain": StageType.MOUNTAIN,
    "mountains": StageType.MOUNTAIN,
    "itt": StageType.ITT,
    "tt": StageType.ITT,
    "ttt": StageType.TTT,
}
# ProCyclingStats profile icons: p1 flat, p2 hills with a flat finish, p3 hills with an uphill
# finish, p4 mountains with a flat finish, p5 mountains with a summit finish; p0 is unknown.
PROFILE_ICON_TYPES = {
    "p0": StageType.FLAT,
    "p1": StageType.FLAT,
    "p2": StageType.HILLY,
    "p3": StageType.HILLY,
    "p4": StageType.MOUNTAIN,
    "p5": StageType.MOUNTAIN,
}


def profile_icon_parse(text: str) -> str:
    cleaned = text.strip().lower()
    if cleaned and cleaned not in PROFILE_ICON_TYPES:
        raise CellError(f"profile icon {shown(text)} is not one of p0 to p5")
    return cleaned


def stage_type_parse(text: str, *, profile_icon: str = "") -> StageType:
    """Our types (flat, hilly, mountain, ITT, TTT), or ProCyclingStats RR/ITT/TTT + profile icon."""
    cleaned = text.strip().lower()
    if cleaned in STAGE_TYPES:
        return STAGE_TYPES[cleaned]
    if cleaned in {"rr", "road race", ""}:
        if profile_icon in PROFILE_ICON_TYPES:
            return PROFILE_ICON_TYPES[profile_icon]
        raise CellError(
            f"stage type {shown(text)} needs a profile icon (p1 to p5) to tell flat from mountain"
        )
    raise CellError(
        f"unknown stage type {shown(text)} (expected flat, hilly, mountain, ITT, TTT or RR)"
    )


def distance_parse(text: str) -> Decimal:
    cleaned = text.strip().lower().removesuffix("km").strip().replace(",", ".")
    if not cleaned:
        raise CellError("distance is missing")
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise CellError(f"distance {shown(text)} is not a number of km") from None
    if not value.is_finite() or not 0 < value < 1000:
        raise CellError(f"distance {shown(text)} must be more than 0 and less than 1000 km")
    return value.quantize(Decimal("0.1"))


def date_parse(text: str) -> date | None:
    """2022-07-01, 01/07/2022 or 01.07.2022 (day first); empty is unknown."""
    cleaned = text.strip()
    if not cleaned:
        return None
    for pattern in ("%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y", "%Y-%m-%d %H:%M:%S"):
        try:
            return datetime.strptime(cleaned, pattern).date()  # noqa: DTZ007 (a date, no time)
        except ValueError:
            continue
    raise CellError(f"date {shown(text)} is not a date (YYYY-MM-DD)")


def bib_parse(text: str) -> int | None:
    if not text:
        return None
    return int_in_range(text, what="bib", low=1, high=MAX_BIB)


def count_parse(text: str, *, what: str) -> int | None:
    """An optional whole number of 0 or more (a profile score, vertical metres)."""
    if not text.strip():
        return None
    return int_in_range(text, what=what, low=0, high=99999)


def pcs_slug_parse(text: str) -> str | None:
    """ "rider/jasper-philipsen", a full URL, or the bare slug -> "jasper-philipsen"."""
    cleaned = text.strip().rstrip("/")
    if not cleaned:
        return None
    slug = cleaned.rsplit("/", 1)[-1].split("?")[0].lower()
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,119}", slug):
        raise CellError(f"rider id {shown(text)} is not a ProCyclingStats rider id")
    return slug


# Two-letter codes (ProCyclingStats, ISO 3166) -> the three-letter codes used by the UCI (IOC).
NATIONS = {
    "AD": "AND", "AE": "UAE", "AL": "ALB", "AM": "ARM", "AR": "ARG", "AT": "AUT", "AU": "AUS",
    "AZ": "AZE", "BA": "BIH", "BE": "BEL", "BG": "BUL", "BR": "BRA", "BY": "BLR", "CA": "CAN",
    "CH": "SUI", "CL": "CHI", "CN": "CHN", "CO": "COL", "CR": "CRC", "CU": "CUB", "CY": "CYP",
    "CZ": "CZE", "DE": "GER", "DK": "DEN", "DO": "DOM", "DZ": "ALG", "EC": "ECU", "EE": "EST",
    "EG": "EGY", "ER": "ERI", "ES": "ESP", "ET": "ETH", "FI": "FIN", "FR": "FRA", "GB": "GBR",
    "GE": "GEO", "GR": "GRE", "GT": "GUA", "HK": "HKG", "HR": "CRO", "HU": "HUN", "ID": "INA",
    "IE": "IRL", "IL": "ISR", "IN": "IND", "IR": "IRI", "IS": "ISL", "IT": "ITA", "JP": "JPN",
    "KE": "KEN", "KR": "KOR", "KZ": "KAZ", "LB": "LBN", "LI": "LIE", "LT": "LTU", "LU": "LUX",
    "LV": "LAT", "MA": "MAR", "MC": "MON", "MD": "MDA", "ME": "MNE", "MK": "MKD", "MN": "MGL",
    "MT": "MLT", "MU": "MRI", "MX": "MEX", "MY": "MAS", "NA": "NAM", "NG": "NGR", "NL": "NED",
    "NO": "NOR", "NZ": "NZL", "PA": "PAN", "PE": "PER", "PH": "PHI", "PL": "POL", "PR": "PUR",
    "PT": "POR", "PY": "PAR", "RO": "ROU", "RS": "SRB", "RU": "RUS", "RW": "RWA", "SA": "KSA",
    "SE": "SWE", "SG": "SGP", "SI": "SLO", "SK": "SVK", "SM": "SMR", "SV": "ESA", "TH": "THA",
    "TN": "TUN", "TR": "TUR", "TW": "TPE", "UA": "UKR", "UG": "UGA", "US": "USA", "UY": "URU",
    "UZ": "UZB", "VE": "VEN", "VN": "VIE", "ZA": "RSA", "ZW": "ZIM",
}  # fmt: skip


def nationality_parse(text: str) -> str:
    """ "BEL" stays; "be" -> "BEL"; empty stays empty."""
    cleaned = text.strip().upper()
    if not cleaned:
        return ""
    if len(cleaned) == 2:
        if cleaned in NATIONS:
            return NATIONS[cleaned]
        raise CellError(f"unknown two-letter nationality {shown(text)}")
    if len(cleaned) == 3 and cleaned.isascii() and cleaned.isalpha():
        return cleaned
    raise CellError(f"nationality {shown(text)} is not a 2- or 3-letter country code")


CLASSIFICATIONS = {
    "general": "general",
    "gc": "general",
    "points": "points",
    "mountains": "mountains",
    "kom": "mountains",
    "youth": "youth",
    "young": "youth",
}


MAX_POINTS = 100_000


def points_parse(text: str, *, what: str) -> int:
    """Points of a classification: negative after a penalty ("-3"), as the sources print them."""
    if not text.strip():
        raise CellError(f"{what} missing")
    return int_in_range(text.replace("−", "-"), what=what, low=-MAX_POINTS, high=MAX_POINTS)


def classification_parse(text: str) -> str:
    try:
        return CLASSIFICATIONS[text.strip().lower()]
    except KeyError:
        raise CellError(
            f"unknown classification {shown(text)} (expected general, points, mountains or youth)"
        ) from None


# Value units of classifications.csv: points, or a time, or a gap to the leader.
UNITS = (
    {"points": "points", "pts": "points", "": "points"}
    | {unit: "time" for unit in ("time_seconds", "seconds", "time")}
    | {unit: "gap" for unit in ("gap_seconds", "gap")}
)


def unit_parse(text: str) -> str:
    try:
        return UNITS[text.strip().lower()]
    except KeyError:
        raise CellError(
            f"unknown unit {shown(text)} (expected points, time_seconds or gap_seconds)"
        ) from None


# Display names of the races whose slug does not title-case well.
RACE_NAMES = {
    "tour-de-france": "Tour de France",
    "giro-d-italia": "Giro d'Italia",
    "vuelta-a-espana": "Vuelta a España",
}
_SMALL_WORDS = {"de", "du", "des", "la", "le", "d", "a", "of", "the", "di", "del", "van"}


def race_key_parse(text: str, *, year: int) -> tuple[str, str]:
    """Slug and name of an edition: tour-de-france 2022 -> tour-de-france-2022, Tour de France."""
    base = slugify(text.strip())
    base = base.removesuffix(f"-{year}")
    if not base:
        raise CellError(f"race {shown(text)} has no letters")
    if len(base) > 120:
        raise CellError("race is longer than 120 characters")
    if base in RACE_NAMES:
        name = RACE_NAMES[base]
    elif text.strip() != base and not text.strip().islower():
        name = text.strip()  # the source wrote a display name ("Tour de France")
    else:
        words = base.split("-")
        name = " ".join(
            word if i and word in _SMALL_WORDS else word.capitalize()
            for i, word in enumerate(words)
        )
    return f"{base}-{year}", name[:120]


_NAME_PARTS = re.compile(r"([-'’ ])")


def _titled(word: str) -> str:
    return "".join(part.capitalize() for part in _NAME_PARTS.split(word.lower()))


def display_name(text: str) -> str:
    """A new rider's shown name: "POGAČAR Tadej" -> "Tadej Pogačar", "ADAM YATES" -> "Adam Yates".

    Sources that write the surname first in capitals are turned round; other spellings keep
    their order (the name key, used for matching, does not depend on it).
    """
    words = text.split()
    upper = [word.isupper() for word in words]
    if not words:
        return text
    if all(upper):
        return " ".join(_titled(word) for word in words)
    if upper[0]:
        surname_length = upper.index(False)
        if all(not flag for flag in upper[surname_length:]):
            surname = " ".join(_titled(word) for word in words[:surname_length])
            return " ".join([*words[surname_length:], surname])
    return " ".join(words)
