"""The "How it works" page of a ruleset, generated from its adapter (label, how it works, the
orders a player gives with their help, the codes of the dice log): season names no ruleset."""

from collections.abc import Mapping
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from plugins import UnknownRuleset, adapter_for
from specforms.references import linked_references, rule_anchor, rule_lookup
from specforms.references import rules_url as rules_url

#: The translation context of the orders' choice labels (specforms.CHOICE_CONTEXT).
CHOICE_CONTEXT = "orders"


def adapter_or_404(name: str) -> Any:
    try:
        return adapter_for(name)
    except UnknownRuleset:
        raise Http404(_("No such ruleset.")) from None


def rule_text(
    rule_texts: Mapping[str, Any], code: str, titles: Mapping[str, Any] | None = None
) -> tuple[str, str] | None:
    """(code listed on the page, what it says) for ``code``: the code itself, or the rule it
    belongs to ("R-P20.15" falls back on "R-P20", "R-AT1" on "R-AT")."""
    found = rule_lookup(code, titles=titles or {}, texts=rule_texts)
    return (found[0], found[2]) if found is not None else None


def rule_rows(adapter: Any) -> list[dict[str, Any]]:
    """Every rule the game's pages cite or its dice log names, once, with its anchor: the
    titled rules first (in the adapter's order), then the dice-log codes."""
    titles = getattr(adapter, "rule_titles", {}) or {}
    texts = adapter.rule_texts
    codes = list(titles) + [code for code in texts if code not in titles]
    return [
        {
            "code": code,
            "anchor": rule_anchor(code),
            "title": str(titles[code]) if code in titles else "",
            "text": str(texts[code]) if code in texts else "",
        }
        for code in codes
    ]


def _field_rows(adapter: Any, name: str) -> list[dict[str, Any]]:
    titles = getattr(adapter, "rule_titles", {}) or {}
    rows = []
    for field in adapter.orders_spec:
        helps = _(field.help) if field.help else ""
        rows.append(
            {
                "name": field.name,
                "label": _(field.label),
                "help": linked_references(
                    helps, ruleset=name, titles=titles, texts=adapter.rule_texts
                )
                if helps
                else "",
                "choices": [pgettext(CHOICE_CONTEXT, label) for _value, label in field.choices],
                "kind": field.kind,
                "minimum": field.minimum,
                "maximum": field.maximum,
            }
        )
    return rows


def ruleset_rules(request: HttpRequest, ruleset: str) -> HttpResponse:
    """Public: the rules are no secret of any season."""
    adapter = adapter_or_404(ruleset)
    return render(
        request,
        "season/public/rules.html",
        {
            "name": ruleset,
            "label": adapter.label,
            "how_it_works": adapter.how_it_works,
            "legend": adapter.orders_legend,
            "words": adapter.page_words,
            "fields": _field_rows(adapter, ruleset),
            "rules": rule_rows(adapter),
            "dice_codes": bool(adapter.rule_texts),
        },
    )
