"""axe-core (WCAG 2.2 A and AA rules) on every page the browser tests visit (issue 17).

``axe_install(context)`` adds axe-core (tests/e2e/vendor/axe.min.js, served from the tests' own
files: no network) and a small runner to every page of a browser context. The runner checks the
page once it has loaded and again after each htmx swap, and reports its violations to Python
through a binding. ``axe_flush(page)`` checks the page as it stands and waits for the result;
``violations_text()`` names each violation by its rule id, page and node. The conftest installs
it in every context and fails the test on any violation."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

VENDOR = Path(__file__).resolve().parent / "vendor"
AXE_VERSION = "4.14.1"
# The tags of the WCAG 2.0, 2.1 and 2.2 success criteria of levels A and AA.
WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa")

RUNNER = """
(() => {
  if (window.top !== window) return;
  const options = { runOnly: { type: 'tag', values: %(tags)s }, resultTypes: ['violations'] };
  let chain = Promise.resolve();
  let timer = null;
  const run = () => {
    chain = chain.then(() => window.axe.run(document, options).then((results) => {
      const violations = results.violations.map((v) => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(' '), html: n.html.slice(0, 200),
                                     summary: n.failureSummary })),
      }));
      return window.__axeReport({ url: location.href, violations });
    })).catch((error) => window.__axeReport({ url: location.href, error: String(error) }));
    return chain;
  };
  const later = () => { clearTimeout(timer); timer = setTimeout(run, 50); };
  window.__axeFlush = () => { clearTimeout(timer); return run(); };
  window.addEventListener('load', later);
  document.addEventListener('htmx:afterSettle', later);
})();
"""


@dataclass
class AxeLog:
    """What axe-core found in the contexts of one test."""

    checked: list[str] = field(default_factory=list)
    violations: list[tuple[str, dict]] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    contexts: list = field(default_factory=list)

    def report(self, _source, payload) -> None:
        url = payload["url"]
        self.checked.append(url)
        if "error" in payload:
            self.errors.append((url, payload["error"]))
        seen = {(u, v["id"], n["target"]) for u, v in self.violations for n in v["nodes"]}
        for violation in payload.get("violations", []):
            key = (url, violation["id"])
            nodes = [n for n in violation["nodes"] if (*key, n["target"]) not in seen]
            if nodes:
                self.violations.append((url, {**violation, "nodes": nodes}))

    def flush_all(self) -> None:
        """Checks every open page of every context as it stands now."""
        for context in self.contexts:
            for page in list(getattr(context, "pages", [])):
                axe_flush(page)

    def violations_text(self) -> str:
        lines = []
        for url, violation in self.violations:
            for node in violation["nodes"]:
                lines.append(
                    f"{violation['id']} ({violation['impact']}) on {url}: {node['target']}\n"
                    f"    {violation['help']}\n    {node['html']}\n"
                    f"    {(node['summary'] or '').replace(chr(10), chr(10) + '    ')}"
                )
        for url, error in self.errors:
            lines.append(f"axe-core failed on {url}: {error}")
        return "\n".join(lines)


def axe_install(context, log: AxeLog) -> None:
    """axe-core and its runner in every page of ``context``; results go to ``log``."""
    context.expose_binding("__axeReport", log.report)
    context.add_init_script(path=str(VENDOR / "axe.min.js"))
    context.add_init_script(script=RUNNER % {"tags": json.dumps(list(WCAG_TAGS))})
    log.contexts.append(context)
    close = context.close

    def close_after_a_last_check(*args, **kwargs):
        for page in list(context.pages):
            axe_flush(page)
        log.contexts.remove(context)
        return close(*args, **kwargs)

    context.close = close_after_a_last_check


def axe_flush(page) -> None:
    """Checks ``page`` as it stands and waits for the report (a page without axe, closed or
    blank, is skipped)."""
    from playwright.sync_api import Error

    for _attempt in range(3):
        if page.is_closed() or page.url in ("", "about:blank"):
            return
        try:
            page.evaluate("() => window.__axeFlush ? window.__axeFlush() : null")
            return
        except Error as error:  # a navigation under way destroyed the page's context
            if "context was destroyed" not in str(error):
                raise
            page.wait_for_load_state()
