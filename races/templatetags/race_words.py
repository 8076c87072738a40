"""``{{ event.data.reason|abandon_reason }}``: an engine's abandon reason in words."""

from django import template

from races.words import abandon_reason_label

register = template.Library()


@register.filter
def abandon_reason(reason: object) -> str:
    return abandon_reason_label(reason)
