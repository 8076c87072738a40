"""The printed sheets' renderer (sheets): plain blocks in, an A4 PDF out, every name printed
as spelt (the font is embedded), the same bytes for the same sheet, and a bounded size."""

import io

import pytest
from pypdf import PdfReader

from sheets import Heading, Profile, ProfilePiece, Sheet, Table, Text
from sheets.pdf import MAX_ROWS, sheet_pdf

NAMES = ("Tadej Pogačar", "Primož Roglič", "François Ćosić", "Žiga Čech", "Gaël Müller")


def _sheet(rows: int = 3) -> Sheet:
    return Sheet(
        title="Friends' Tour",
        subtitle="Étape 3 : Nice – Antibes",
        blocks=(
            Heading("Profil"),
            Profile(
                pieces=(
                    ProfilePiece("#a9b8a2", ((0.0, 0.0), (40.0, 0.0))),
                    ProfilePiece("#c62d22", ((40.0, 0.0), (50.0, 700.0))),
                    ProfilePiece("#4f8fd0", ((50.0, 700.0), (60.0, 0.0))),
                ),
                labels=((50.0, "Col d'Èze (cat. 1)"),),
                caption="Stage profile, 60 km",
            ),
            Heading("Résultats"),
            Table(
                ("#", "Coureur", "Temps"),
                tuple((str(i + 1), NAMES[i % len(NAMES)], f"+0:{i:02d}") for i in range(rows)),
                numeric=frozenset({0, 2}),
            ),
            Text("Une note <b>sans</b> balisage & co.", muted=True),
        ),
        footer="Page {page}",
    )


def _text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_a_sheet_is_an_a4_pdf_whose_names_read_back_as_spelt():
    data = sheet_pdf(_sheet(rows=len(NAMES)))
    assert data.startswith(b"%PDF")
    page = PdfReader(io.BytesIO(data)).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (595, 842)
    text = _text(data)
    for name in (*NAMES, "Étape 3 : Nice – Antibes", "Col d'Èze (cat. 1)", "Page 1"):
        assert name in text
    # Texts are never markup: the tags print as written.
    assert "<b>sans</b> balisage & co." in text


def test_the_same_sheet_gives_the_same_bytes():
    assert sheet_pdf(_sheet()) == sheet_pdf(_sheet())


def test_a_long_table_breaks_across_pages_and_is_bounded():
    data = sheet_pdf(_sheet(rows=MAX_ROWS + 100))
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) > 2
    text = _text(data)
    # Row i's time is +0:(i - 1): the last row printed is row MAX_ROWS.
    assert f"+0:{MAX_ROWS - 1}" in text
    assert f"+0:{MAX_ROWS}" not in text
    # The heading row is repeated on every page of the table.
    assert all("Coureur" in page.extract_text() for page in reader.pages[1:])


def test_a_row_of_another_width_than_the_columns_is_refused():
    with pytest.raises(ValueError, match="a row of 2 cells in a table of 3"):
        Table(("#", "Coureur", "Temps"), (("1", "Pogačar"),))
