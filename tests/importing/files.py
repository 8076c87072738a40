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
