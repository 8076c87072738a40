"""A round's own words on the league's pages, from its game's fragments (the adapter's
league_templates): ``{% round_route round %}`` (a stage's start and finish, a Grand Prix's name
and circuit)."""

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from plugins import adapter_for

register = template.Library()


@register.simple_tag
def round_route(round: Any) -> SafeString:
    """Where ``round`` is raced, as its game says it (the adapter's "route" fragment)."""
    adapter = adapter_for(round.season.ruleset)
    # The fragment's own output, escaped where it was rendered.
    return mark_safe(render_to_string(adapter.league_templates["route"], {"event": round.event}))
