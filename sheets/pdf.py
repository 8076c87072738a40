"""A sheet as A4 PDF bytes: ReportLab's platypus lays out the blocks (headings, paragraphs,
tables that break across pages with their heading row repeated), reportlab.graphics draws the
profile. The same sheet gives the same bytes (``invariant``: no creation date nor random id),
so a cached sheet and a fresh one do not differ."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Drawing, Line, Polygon, String
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    CondPageBreak,
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    TableStyle,
)
from reportlab.platypus import (
    Table as PdfTable,
)

from sheets.blocks import Block, Heading, Profile, Sheet, Table, Text

FONTS = Path(__file__).parent / "fonts"
REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
MARGIN: float = 15 * mm
WIDTH: float = A4[0] - 2 * MARGIN
#: At most this many rows of one table are printed (a sheet's work is bounded whatever the
#: data): the adapters give fewer (30 results, 20 in the GC).
MAX_ROWS = 250
INK = colors.HexColor("#1d232a")
MUTED = colors.HexColor("#5b6670")
RULE = colors.HexColor("#c4c9ce")
STRIPE = colors.HexColor("#f1f3f5")
PROFILE_HEIGHT: float = 46 * mm


@cache
def _fonts() -> None:
    """DejaVu Sans, embedded (subset) in every sheet: Helvetica's WinAnsi has no č, ć or ž."""
    pdfmetrics.registerFont(TTFont(REGULAR, str(FONTS / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(FONTS / "DejaVuSans-Bold.ttf")))
    pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD)


@cache
def _styles() -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("body", fontName=REGULAR, fontSize=9.5, leading=12.5, textColor=INK)
    return {
        "title": ParagraphStyle("title", base, fontName=BOLD, fontSize=18, leading=22),
        "subtitle": ParagraphStyle("subtitle", base, fontSize=12, leading=15, spaceAfter=4),
        "h2": ParagraphStyle(
            "h2",
            base,
            fontName=BOLD,
            fontSize=12.5,
            leading=15,
            spaceBefore=9,
            spaceAfter=4,
        ),
        "h3": ParagraphStyle(
            "h3",
            base,
            fontName=BOLD,
            fontSize=10.5,
            leading=13,
            spaceBefore=6,
            spaceAfter=3,
        ),
        "body": ParagraphStyle("body", base, spaceAfter=3),
        "muted": ParagraphStyle("muted", base, fontSize=8.5, leading=11, textColor=MUTED),
        "cell": ParagraphStyle("cell", base, fontSize=8.5, leading=10.5),
        "cell_num": ParagraphStyle(
            "cell_num", base, fontSize=8.5, leading=10.5, alignment=TA_RIGHT
        ),
        "head": ParagraphStyle("head", base, fontName=BOLD, fontSize=8.5, leading=10.5),
        "head_num": ParagraphStyle(
            "head_num", base, fontName=BOLD, fontSize=8.5, leading=10.5, alignment=TA_RIGHT
        ),
    }


def _p(text: str, style: str) -> Paragraph:
    # Paragraph reads a little markup: the texts are escaped, never markup.
    return Paragraph(escape(text), _styles()[style])


def _table(block: Table) -> PdfTable:
    columns = len(block.columns)
    weights = block.widths or tuple(1.0 if i in block.numeric else 3.0 for i in range(columns))
    total = sum(weights)
    widths = [WIDTH * weight / total for weight in weights]

    def row(cells: tuple[str, ...], *, head: bool) -> list[Paragraph]:
        kind = "head" if head else "cell"
        return [
            _p(cell, f"{kind}_num" if i in block.numeric else kind) for i, cell in enumerate(cells)
        ]

    data = [row(block.columns, head=True)] + [
        row(cells, head=False) for cells in block.rows[:MAX_ROWS]
    ]
    table = PdfTable(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    style: list[tuple[Any, ...]] = [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
        ("LINEBELOW", (0, -1), (-1, -1), 0.4, RULE),
        ("TOPPADDING", (0, 0), (-1, -1), 1.6),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.6),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]
    for index in range(2, len(data), 2):
        style.append(("BACKGROUND", (0, index), (-1, index), STRIPE))
    table.setStyle(TableStyle(style))
    return table


def _nice_step(span: float, ticks: int) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about ``ticks`` ticks on ``span``."""
    raw = span / max(ticks, 1)
    power = 10 ** max(0, len(str(int(raw))) - 1)
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return float(factor * power)
    return float(10 * power)


def _profile(block: Profile) -> Drawing:
    """The profile as a drawing: each piece filled down to the axis in its colour, km ticks
    under it, the climbs' labels above their summits (staggered on two rows)."""
    left, bottom, top = 28.0, 16.0, 30.0
    width, height = WIDTH, PROFILE_HEIGHT
    drawing = Drawing(width, height)
    points = [point for piece in block.pieces for point in piece.points]
    if not points:
        return drawing
    km_max = max(km for km, _ in points) or 1.0
    metres_max = max(600.0, max(metres for _, metres in points))
    plot_w, plot_h = width - left - 6, height - bottom - top

    def x(km: float) -> float:
        return left + plot_w * km / km_max

    # Sea level is drawn a little above the axis, so that a flat stretch shows its colour.
    base = metres_max * 0.05

    def y(metres: float) -> float:
        return bottom + plot_h * (metres + base) / (metres_max + base)

    for piece in block.pieces:
        if len(piece.points) < 2:
            continue
        outline = [coordinate for km, m in piece.points for coordinate in (x(km), y(m))]
        first, last = piece.points[0][0], piece.points[-1][0]
        shape = [*outline, x(last), bottom, x(first), bottom]
        colour = colors.HexColor(piece.colour)
        drawing.add(Polygon(shape, fillColor=colour, strokeColor=colour, strokeWidth=0.3))
    drawing.add(Line(left, bottom, left + plot_w, bottom, strokeColor=INK, strokeWidth=0.8))
    drawing.add(Line(left, bottom, left, bottom + plot_h, strokeColor=RULE, strokeWidth=0.5))
    step = _nice_step(km_max, 8)
    tick = 0.0
    while tick <= km_max + 1e-6:
        drawing.add(Line(x(tick), bottom, x(tick), bottom - 3, strokeColor=INK, strokeWidth=0.6))
        drawing.add(
            String(
                x(tick), bottom - 11, f"{tick:g}", fontName=REGULAR, fontSize=7, textAnchor="middle"
            )
        )
        tick += step
    drawing.add(
        String(left - 8, bottom - 11, block.km_word, fontName=REGULAR, fontSize=7, textAnchor="end")
    )
    metres_step = _nice_step(metres_max, 3)
    level = metres_step
    while level <= metres_max + 1e-6:
        drawing.add(
            Line(left, y(level), left + plot_w, y(level), strokeColor=RULE, strokeWidth=0.3)
        )
        drawing.add(
            String(
                left - 3,
                y(level) - 2.5,
                f"{level:g} {block.metres_word}",
                fontName=REGULAR,
                fontSize=6.5,
                textAnchor="end",
            )
        )
        level += metres_step
    # The labels: above the plot, on two rows by turn, each with a thin line to its km.
    for index, (km, label) in enumerate(sorted(block.labels)):
        row = index % 2
        label_y = height - 9 - row * 10
        text_anchor = "start" if x(km) < left + plot_w * 0.75 else "end"
        drawing.add(
            Line(
                x(km),
                label_y - 2,
                x(km),
                bottom,
                strokeColor=MUTED,
                strokeWidth=0.3,
                strokeDashArray=[1, 2],
            )
        )
        drawing.add(
            String(
                x(km),
                label_y,
                label,
                fontName=REGULAR,
                fontSize=7,
                fillColor=INK,
                textAnchor=text_anchor,
            )
        )
    return drawing


def _flowables(block: Block) -> list[Any]:
    if isinstance(block, Heading):
        # A heading is never alone at the foot of a page: with less room left than a few
        # lines of what follows, it starts the next page.
        return [CondPageBreak(30 * mm), _p(block.text, "h2" if block.level <= 2 else "h3")]
    if isinstance(block, Text):
        return [_p(block.text, "muted" if block.muted else "body")]
    if isinstance(block, Table):
        return [_table(block), Spacer(1, 3 * mm)]
    drawn: list[Any] = [_profile(block)]
    if block.caption:
        drawn.append(_p(block.caption, "muted"))
    return [KeepTogether(drawn), Spacer(1, 2 * mm)]


def sheet_pdf(sheet: Sheet) -> bytes:
    """The sheet as the bytes of an A4 PDF, its fonts embedded."""
    _fonts()
    out = io.BytesIO()
    document = SimpleDocTemplate(
        out,
        pagesize=A4,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN + 4 * mm,
        title=sheet.title + (f" – {sheet.subtitle}" if sheet.subtitle else ""),
        author=sheet.author,
        invariant=True,
    )
    story: list[Any] = [_p(sheet.title, "title")]
    if sheet.subtitle:
        story.append(_p(sheet.subtitle, "subtitle"))
    story.append(Spacer(1, 2 * mm))
    for block in sheet.blocks:
        story.extend(_flowables(block))

    def footer(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        canvas.setFont(REGULAR, 7.5)
        canvas.setFillColor(MUTED)
        canvas.drawString(MARGIN, MARGIN - 2 * mm, sheet.title)
        canvas.drawRightString(
            A4[0] - MARGIN, MARGIN - 2 * mm, sheet.footer.replace("{page}", str(doc.page))
        )
        canvas.restoreState()

    document.build(story, onFirstPage=footer, onLaterPages=footer)
    return out.getvalue()
