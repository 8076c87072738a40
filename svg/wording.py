"""The charts' words: English defaults by key, each overridable by a translation.

A chart takes ``texts={key: translation}`` (the Django layer passes them in the active language);
a missing or empty translation keeps the English word, and a translation naming a placeholder it
does not have falls back to the English sentence rather than failing the page.
"""

from __future__ import annotations

from collections.abc import Mapping


def merge_texts(defaults: Mapping[str, str], texts: Mapping[str, str] | None) -> dict[str, str]:
    """The chart's words: ``defaults`` (English), each overridden by a non-empty ``texts``
    value of the same key (a translation); unknown keys are ignored."""
    merged = dict(defaults)
    for key, value in (texts or {}).items():
        if key in merged and value:
            merged[key] = str(value)
    return merged


def text_format(
    texts: Mapping[str, str], defaults: Mapping[str, str], key: str, **values: object
) -> str:
    """``texts[key]`` with its ``{name}`` placeholders filled; the English default when a
    translation names a placeholder it does not have."""
    try:
        return texts[key].format(**values)
    except (KeyError, IndexError, ValueError):
        return defaults[key].format(**values)
