"""What every template must do, read from the files (no browser needed)."""

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
SCROLL_BOX = re.compile(r"<div[^>]*\bclass=\"table-container\"[^>]*>")


def test_every_scrolling_table_box_can_be_reached_by_keyboard():
    # axe-core's scrollable-region-focusable: a box that scrolls sideways on a phone must take
    # the focus, so that a keyboard can scroll it; a label says what it holds.
    missing = [
        f"{path.relative_to(TEMPLATES)}: {tag}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for tag in SCROLL_BOX.findall(path.read_text())
        if 'tabindex="0"' not in tag
        # The odds' box only wraps a table template that has its own focusable box.
        and "render_table" not in path.read_text().split(tag, 1)[1][:40]
    ]
    assert not missing, "\n".join(missing)
