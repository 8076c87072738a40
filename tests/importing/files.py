"""Sample files in tests/data: real facts (tour/, pcs/) and files broken on purpose (broken/)."""

from pathlib import Path

from races.importing import ImportFile, import_files_read

DATA = Path(__file__).resolve().parent.parent / "data"
TOUR = DATA / "tour"  # a copy of ../shared/data: the Tours de France 2022 and 2023
PCS = DATA / "pcs"
BROKEN = DATA / "broken"


def data_files(*names: str, folder: Path = TOUR) -> list[ImportFile]:
    """The named files of a folder, in the order given; all of them when no name is given."""
    if not names:
        return import_files_read(paths=[folder])
    return import_files_read(paths=[folder / name for name in names])


def csv_file(name: str, text: str) -> ImportFile:
    return ImportFile(name=name, content=text.encode())


def xlsx_bytes(rows: list[list[object]], *, title: str = "results") -> bytes:
    import io

    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = title
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def xlsx_sheet_rewritten(content: bytes, rewrite) -> bytes:  # type: ignore[no-untyped-def]
    """The workbook with its first sheet's XML passed through `rewrite` (bytes -> bytes)."""
    import io
    import zipfile

    source = zipfile.ZipFile(io.BytesIO(content))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target:
        for part in source.infolist():
            data = source.read(part)
            if part.filename == "xl/worksheets/sheet1.xml":
                data = rewrite(data)
            target.writestr(part.filename, data)
    return buffer.getvalue()


def xlsx_dimension_bomb(*, dimension: bool = True) -> bytes:
    """A few KB of workbook that asks for every cell of a sheet (17 billion).

    Its sheet declares the range A1:XFD1048576 (unless `dimension` is False) and holds, after
    two real rows, one cell in the last column of the last row: openpyxl fills the rows
    between, each as wide as the declared range.
    """
    import re

    workbook = xlsx_bytes(
        [
            ["race", "year", "stage", "rank", "rider", "time_seconds"],
            ["tour-de-test", 2024, 1, 1, "Bardet Romain", 18904],
        ]
    )

    def rewrite(xml: bytes) -> bytes:
        ref = b"A1:XFD1048576" if dimension else b"A1:F2"
        xml = re.sub(rb'<dimension ref="[^"]*"\s*/>', b'<dimension ref="' + ref + b'"/>', xml)
        far = b'<row r="1048576"><c r="XFD1048576" t="n"><v>1</v></c></row>'
        return xml.replace(b"</sheetData>", far + b"</sheetData>")

    return xlsx_sheet_rewritten(workbook, rewrite)
