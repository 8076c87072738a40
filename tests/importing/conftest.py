import pytest

from races.importing import results_import
from tests.importing.files import data_files


@pytest.fixture
def tour(db):  # type: ignore[no-untyped-def]
    """The real Tours de France 2022 and 2023 of ../shared/data, imported."""
    report = results_import(files=data_files())
    assert report.ok, report.lines()
    return report
