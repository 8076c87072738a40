"""The rules a game's words cite ("§7.1", "P-2", "R-X1", "GP-10.11", "B3", "λ"), turned into
links to their line on the game's "how it works" page with the rule's wording ("§7.1 The
orders of a car").

One lookup for every page: a reference is found in the game's short titles or its dice-log
texts (both given by its adapter: ``rule_titles``, ``rule_texts``), the reference itself first,
then the rule it belongs to ("R-P20.15" -> "R-P20" -> "R-P"; "GP-10.11" -> "GP-10" -> "GP";
"§7.1" -> "§7"). A reference the game does not list stays as it is written. Plain functions
of Django's URL and HTML helpers, so the adapters (races, motor) and season all use them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

#: A rule reference in a text: a section (§7.1), a coded rule (R-X1, GP-10.11, GP-6.2b, P-2,
#: LU-11), a resolution of an ambiguity (A10, B3) or the risk weight λ.
REFERENCE = re.compile(
    r"§\d+(?:\.\d+)*|\b[A-Z]{1,3}-[A-Z]{0,3}\d+(?:\.\d+)*[a-z]?\b|\b[A-Z]\d{1,2}\b|λ"
)


@dataclass(frozen=True)
class RuleReference:
    """A reference as the page shows it: its code, its short wording (``title``, may be
    empty), what it says (``text``: the dice-log text, else the title) and the URL of its line
    (``listed``: the rule of the page it resolved to)."""

    code: str
    listed: str
    title: str
    text: str
    url: str


def rule_anchor(code: str) -> str:
    """The id of a rule's line on the page ("R-P20.15" -> "rule-R-P20-15", "§7.1" ->
    "rule-s7-1")."""
    code = code.replace("§", "s").replace("λ", "lambda")
    return "rule-" + "".join(c if c.isalnum() or c == "-" else "-" for c in code)


def rules_url(name: str, code: str | None = None) -> str:
    url = reverse("ruleset-rules", kwargs={"ruleset": name})
    return f"{url}#{rule_anchor(code)}" if code else url


def reference_candidates(code: str) -> list[str]:
    """The reference, then the rules it belongs to, most precise first."""
    candidates = [code]
    current = code
    if len(code) > 1 and code[-1].islower() and code[-2].isdigit():  # GP-6.2b
        current = code[:-1]
        candidates.append(current)
    while "." in current:
        current = current.rsplit(".", 1)[0]
        candidates.append(current)
    family = current.rstrip("0123456789")
    if family and family != current and family != "§":
        candidates.append(family)
        if family.endswith("-") and len(family) > 1:
            candidates.append(family[:-1])
    return candidates


def rule_lookup(
    code: str, *, titles: Mapping[str, Any], texts: Mapping[str, Any]
) -> tuple[str, str, str] | None:
    """(the rule of the page, its short title, what it says) for ``code``, or None when the
    game lists neither it nor a rule it belongs to."""
    candidates = reference_candidates(code)
    listed = next((c for c in candidates if c in titles or c in texts), None)
    if listed is None:
        return None
    title = next((str(titles[c]) for c in candidates if c in titles), "")
    text = str(texts[listed]) if listed in texts else ""
    return listed, title, text or title


def rule_reference(
    code: str,
    *,
    ruleset: str,
    titles: Mapping[str, Any],
    texts: Mapping[str, Any],
) -> RuleReference | None:
    """The page line, wording and text of ``code`` for the game ``ruleset``, or None when the
    game lists neither it nor a rule it belongs to."""
    found = rule_lookup(code, titles=titles, texts=texts)
    if found is None:
        return None
    listed, title, text = found
    return RuleReference(
        code=code, listed=listed, title=title, text=text, url=rules_url(ruleset, listed)
    )


def reference_html(reference: RuleReference) -> SafeString:
    """``<a class="rule-ref" href="…#rule-s7-1" title="…">§7.1 The orders of a car</a>``."""
    if not reference.title:
        return format_html(
            '<a class="rule-ref" href="{}" title="{}">{}</a>',
            reference.url,
            reference.text,
            reference.code,
        )
    return format_html(
        '<a class="rule-ref" href="{}" title="{}">{} {}</a>',
        reference.url,
        reference.text,
        reference.code,
        reference.title,
    )


def linked_references(
    text: object,
    *,
    ruleset: str,
    titles: Mapping[str, Any],
    texts: Mapping[str, Any],
) -> SafeString:
    """``text`` escaped, each reference the game lists made a link with its wording."""
    raw = str(text or "")
    out: list[str] = []
    end = 0
    for match in REFERENCE.finditer(raw):
        found = rule_reference(match.group(), ruleset=ruleset, titles=titles, texts=texts)
        if found is None:
            continue
        out.append(str(conditional_escape(raw[end : match.start()])))
        out.append(reference_html(found))
        end = match.end()
    out.append(str(conditional_escape(raw[end:])))
    return mark_safe("".join(out))  # every piece is escaped above
