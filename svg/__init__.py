"""A small SVG toolkit for the charts of every app (markup, wording): pure Python, no Django."""
