"""``{% ratings_legend columns %}``: the one-line legend of the rating scale (H, 0 … 4) and the
abbreviated profile axes, wherever ratings show (the budget pool, the draft board, the orders
page, the rider page); ``{{ value|rating }}``: a rating with its meaning on hover."""

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from riders.models import RATING_WORDS, Rating

register = template.Library()


def rating_html(value: object) -> SafeString | str:
    """``<abbr title="handicap">H</abbr>``; a value that is no rating is shown as it is."""
    if value is None:
        return ""
    by_value = {int(r.value): r for r in Rating}
    try:
        rating = Rating.parse(value) if isinstance(value, str) else by_value[int(str(value))]
    except (KeyError, ValueError):
        return str(value)
    return format_html('<abbr title="{}">{}</abbr>', RATING_WORDS[rating], rating.label)


@register.filter
def rating(value: object) -> SafeString | str:
    return rating_html(value)


def _axis_labels(columns: Iterable[Any]) -> list[tuple[str, str]]:
    """(abbreviation, name) of each rating axis among ``columns``: the pick columns (those
    flagged ``rating``) or (axis, name) pairs."""
    labels = []
    for column in columns or ():
        if isinstance(column, tuple | list):
            label = str(column[1])
        elif getattr(column, "rating", False):
            label = str(column.label)
        else:
            continue
        labels.append((label[:3], label))
    return labels


@register.inclusion_tag("_ratings_legend.html")
def ratings_legend(columns: Iterable[Any] = ()) -> dict[str, Any]:
    return {
        "scale": [(rating.label, RATING_WORDS[rating]) for rating in Rating],
        "axes": _axis_labels(columns),
    }
