"""Normalised keys for matching rider and team names written differently by each source."""

import re
import unicodedata

_NON_ALNUM = re.compile(r"[^a-z0-9]+")
# Class suffixes some sources add to team names: "UAE Team Emirates (WT)".
_TEAM_SUFFIX = re.compile(r"\((wt|pro|pt|pct|ct|wtt)\)\s*$", re.IGNORECASE)


_UNDECOMPOSED: dict[str, str | int | None] = {"ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ß": "ss"}


def strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    # Letters that NFKD does not decompose.
    return stripped.translate(str.maketrans(_UNDECOMPOSED))


def name_key(name: str) -> str:
    """Order-independent key: "VINGEGAARD Jonas", "Jonas Vingegaard" -> "jonas vingegaard"."""
    words = _NON_ALNUM.sub(" ", strip_accents(name).lower()).split()
    return " ".join(sorted(words))


def team_key(name: str) -> str:
    """ "Soudal - Quick Step", "Soudal Quick-Step (WT)" -> "soudalquickstep"."""
    without_suffix = _TEAM_SUFFIX.sub("", name.strip())
    return _NON_ALNUM.sub("", strip_accents(without_suffix).lower())
