"""``{{ code|rule_link:ruleset }}``: a rule code of the dice log or of "What happened",
explained on hover and linked to its line on the ruleset's "How it works" page."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from plugins import UnknownRuleset, adapter_for
from season.views.rules import rule_text, rules_url

register = template.Library()


def rule_link_html(code: object, ruleset: str) -> SafeString | str:
    code = str(code or "")
    if not code:
        return ""
    try:
        adapter = adapter_for(ruleset)
    except UnknownRuleset:
        return code
    found = rule_text(getattr(adapter, "rule_texts", {}), code)
    if found is None:
        return format_html(
            '<a class="rule-code" href="{}" title="{}">{}</a>',
            rules_url(ruleset),
            _("How it works"),
            code,
        )
    listed, text = found
    return format_html(
        '<a class="rule-code" href="{}"><abbr title="{}">{}</abbr></a>',
        rules_url(ruleset, listed),
        text,
        code,
    )


@register.filter
def rule_link(code: object, ruleset: str) -> SafeString | str:
    return rule_link_html(code, ruleset)
