"""The tables' CSV export, safe to open in a spreadsheet, and the one way every page configures a
table (sort, paginate, export). Shared by the cycling pages (season) and the motor pages (motor),
which may not import each other: it imports Django and django-tables2, no app."""

import html
import re

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils.html import strip_tags
from django.utils.safestring import SafeData
from django_tables2 import RequestConfig
from django_tables2.export import TableExport
from tablib import Dataset

#: A spreadsheet reads a cell that starts with one of these as a formula (OWASP, "CSV
#: injection"): a team called =HYPERLINK(...) would become a link in the organiser's sheet.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")
#: Rows a page of a table shows, unless the page says otherwise.
PER_PAGE = 50
#: The export formats offered: those whose writer is installed and tested on every table page
#: (django-tables2 lists more, e.g. ods and xls, whose libraries are not installed).
EXPORT_FORMATS = ("csv", "json")


def plain_text(value: object) -> object:
    """A cell rendered as HTML for the page (a link, a flag) as the text a reader sees; plain
    values, whose text may hold a "<", unchanged."""
    if isinstance(value, SafeData):
        return html.unescape(strip_tags(str(value)))
    return value


def spreadsheet_safe(value: object) -> object:
    """A text cell that a spreadsheet would run as a formula, quoted so that it reads as text;
    plain numbers (a negative points total) and every other value unchanged."""
    if (
        isinstance(value, str)
        and value.startswith(FORMULA_PREFIXES)
        and not PLAIN_NUMBER.fullmatch(value)
    ):
        return "'" + value
    return value


class SafeTableExport(TableExport):
    """django-tables2's export, with every cell made spreadsheet-safe."""

    def table_to_dataset(self, table, exclude_columns, dataset_kwargs=None):
        dataset = super().table_to_dataset(table, exclude_columns, dataset_kwargs)
        safe = Dataset(title=dataset.title)
        safe.headers = [spreadsheet_safe(h) for h in dataset.headers or []]
        for row in dataset:
            safe.append([spreadsheet_safe(plain_text(cell)) for cell in row])
        return safe


def table_configure(
    request: HttpRequest, table, filename: str, *, per_page: int = PER_PAGE
) -> HttpResponse | None:
    """Sort and paginate a table; answer its CSV export when asked for. A page with several
    tables gives each a prefix; the export link then names it with `_table` (and a table
    without a prefix answers only a link without `_table`)."""
    RequestConfig(request, paginate={"per_page": per_page}).configure(table)
    if "_export" not in request.GET:
        return None
    export_format = request.GET.get("_export")
    if export_format not in EXPORT_FORMATS:
        return HttpResponseBadRequest(
            f"Unknown export format: the tables export as {' or '.join(EXPORT_FORMATS)}.",
            content_type="text/plain; charset=utf-8",
        )
    if (request.GET.get("_table") or "") != (table.prefix or ""):
        return None
    return SafeTableExport(export_format, table).response(f"{filename}.{export_format}")
