"""What a sheet holds, as frozen dataclasses: every text already in the reader's language."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Heading:
    """A section's heading; ``level`` 2 (a section) or 3 (a part of one)."""

    text: str
    level: int = 2


@dataclass(frozen=True)
class Text:
    """A paragraph; ``muted``: a note in grey (what a table leaves out)."""

    text: str
    muted: bool = False


@dataclass(frozen=True)
class Table:
    """A table: its column headings, its rows of texts (as many cells as columns), which
    columns hold figures (right-aligned) and the columns' relative widths (default: a figure
    column 1, a text column 3)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: frozenset[int] = frozenset()
    widths: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"a row of {len(row)} cells in a table of {len(self.columns)}")
        if self.widths and len(self.widths) != len(self.columns):
            raise ValueError("one width per column")


@dataclass(frozen=True)
class ProfilePiece:
    """A stretch of a stage's profile drawn in one colour (its terrain): (km, metres) points."""

    colour: str
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Profile:
    """A stage's profile: its pieces in course order, labels at a km (the climbs), and the
    sentence under it (what it shows, for a reader of the text)."""

    pieces: tuple[ProfilePiece, ...]
    labels: tuple[tuple[float, str], ...] = ()
    caption: str = ""
    km_word: str = "km"
    metres_word: str = "m"


Block = Heading | Text | Table | Profile


@dataclass(frozen=True)
class Sheet:
    """A whole sheet: its title and subtitle on top of the first page, its blocks in order,
    and the footer of every page (``{page}`` becomes the page's number)."""

    title: str
    subtitle: str = ""
    blocks: tuple[Block, ...] = field(default_factory=tuple)
    footer: str = "{page}"
    #: The PDF's metadata (shown by a reader's title bar).
    author: str = ""
