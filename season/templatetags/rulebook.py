"""``{{ code|rule_link:ruleset }}``: a rule code of the dice log or of "What happened",
explained on hover, said in words and linked to its line on the ruleset's "How it works" page;
``{{ text|rule_refs:ruleset }}``: a text with every rule it cites linked the same way
(specforms.references, fed by the game's adapter)."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from plugins import UnknownRuleset, adapter_for
from specforms.references import linked_references, rule_reference, rules_url

register = template.Library()


def rule_link_html(code: object, ruleset: str) -> SafeString | str:
    code = str(code or "")
    if not code:
        return ""
    try:
        adapter = adapter_for(ruleset)
    except UnknownRuleset:
        return code
    found = rule_reference(
        code,
        ruleset=ruleset,
        titles=getattr(adapter, "rule_titles", {}) or {},
        texts=getattr(adapter, "rule_texts", {}),
    )
    if found is None:
        return format_html(
            '<a class="rule-code" href="{}" title="{}">{}</a>',
            rules_url(ruleset),
            _("How it works"),
            code,
        )
    if found.title:
        return format_html(
            '<a class="rule-code" href="{}"><abbr title="{}">{}</abbr> {}</a>',
            found.url,
            found.text,
            code,
            found.title,
        )
    return format_html(
        '<a class="rule-code" href="{}"><abbr title="{}">{}</abbr></a>',
        found.url,
        found.text,
        code,
    )


@register.filter
def rule_link(code: object, ruleset: str) -> SafeString | str:
    return rule_link_html(code, ruleset)


@register.filter
def rule_refs(text: object, ruleset: str) -> SafeString | str:
    try:
        adapter = adapter_for(ruleset)
    except UnknownRuleset:
        return str(text or "")
    return linked_references(
        text,
        ruleset=ruleset,
        titles=getattr(adapter, "rule_titles", {}) or {},
        texts=getattr(adapter, "rule_texts", {}),
    )
