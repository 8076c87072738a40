"""The "How it works" page of a ruleset, generated from its adapter (label, how it works, the
orders a player gives with their help, the codes of the dice log): season names no ruleset."""

from collections.abc import Mapping
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from plugins import UnknownRuleset, adapter_for

#: The translation context of the orders' choice labels (specforms.CHOICE_CONTEXT).
CHOICE_CONTEXT = "orders"


def adapter_or_404(name: str) -> Any:
    try:
        return adapter_for(name)
    except UnknownRuleset:
        raise Http404(_("No such ruleset.")) from None


def rule_anchor(code: str) -> str:
    """The id of a rule's line on the page ("R-P20.15" -> "rule-R-P20-15")."""
    return "rule-" + "".join(c if c.isalnum() or c == "-" else "-" for c in code)


def rule_text(rule_texts: Mapping[str, Any], code: str) -> tuple[str, str] | None:
    """(code listed on the page, its text) for ``code``: the code itself, or the family it
    belongs to ("R-P20.15" falls back on "R-P20", "R-AT1" on "R-AT")."""
    candidates = [code]
    if "." in code:
        candidates.append(code.rsplit(".", 1)[0])
    candidates.append(code.rstrip("0123456789"))
    for candidate in candidates:
        if candidate in rule_texts:
            return candidate, str(rule_texts[candidate])
    return None


def rules_url(name: str, code: str | None = None) -> str:
    url = reverse("ruleset-rules", kwargs={"ruleset": name})
    return f"{url}#{rule_anchor(code)}" if code else url


def _field_rows(adapter: Any) -> list[dict[str, Any]]:
    rows = []
    for field in adapter.orders_spec:
        rows.append(
            {
                "name": field.name,
                "label": _(field.label),
                "help": _(field.help) if field.help else "",
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
    rule_texts = adapter.rule_texts
    return render(
        request,
        "season/public/rules.html",
        {
            "name": ruleset,
            "label": adapter.label,
            "how_it_works": adapter.how_it_works,
            "legend": adapter.orders_legend,
            "words": adapter.page_words,
            "fields": _field_rows(adapter),
            "rules": [
                {"code": code, "anchor": rule_anchor(code), "text": text}
                for code, text in rule_texts.items()
            ],
        },
    )
