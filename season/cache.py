"""Rendered season pages kept until the season's next change (issue 18).

A season's pages change only when one of its rounds moves (opened, locked, resolved, published)
or its results are rewritten (a rider reinstated). Each page keeps the parts that are the same
for everyone who may see the same thing in Django's cache framework (Redis when ``REDIS_URL`` is
set, the local memory otherwise), under a key made of

    the season, its version, the language, the visibility class (permissions.results_view),
    the page and its query string,

and renders per request only what belongs to the visitor (the menu, the CSRF token, the
organiser's buttons, "My team"). Nothing per user is ever stored.

The version is a digest of what the pages show of the season's rows (the season, its rounds'
statuses and deadlines, its teams, its latest job) plus ``Season.changed_at``, which the
services that resolve, publish, reinstate or lock bump through :func:`season_changed`. The
version itself is kept in the cache for ``PAGE_CACHE_STATE_SECONDS`` (2 s) and dropped at once
by :func:`season_changed`: a page served from the cache costs no database query, and a change
made where no service calls :func:`season_changed` (an admin edit) shows within those seconds.
Rider names and other shared facts edited elsewhere show within ``PAGE_CACHE_SECONDS``.

Conditional GET: every such page carries an ``ETag`` (the key, the user, the CSRF cookie) and
``Last-Modified`` (the season's last change); a browser or htmx asking again with the same tag
gets a 304.
"""

import hashlib
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.context import make_context
from django.template.loader import get_template
from django.template.loader_tags import ExtendsNode
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from season.models import Job, Round, Season, SeasonTeam
from season.permissions import ORGANISER_VIEW, results_view, visible_upto

STATE_PREFIX = "gt:season:"
PAGE_PREFIX = "gt:page:"


@dataclass(frozen=True)
class SeasonState:
    """What a page needs to know of a season before it reads anything else: enough to check
    access, choose the visibility class and name the cached parts (no query once cached)."""

    pk: int
    slug: str
    name: str
    is_public: bool
    organiser_id: int
    auto_publish: bool
    version: str
    changed: datetime
    #: (number, status) of every round, in order.
    statuses: tuple[tuple[int, str], ...]

    def status_of(self, number: int) -> str | None:
        for n, status in self.statuses:
            if n == number:
                return status
        return None

    def visible_upto(self, view: str) -> int:
        return visible_upto(list(self.statuses), auto_publish=self.auto_publish, view=view)


def _state_key(slug: str) -> str:
    return f"{STATE_PREFIX}{slug}"


def _state_build(slug: str) -> SeasonState | None:
    row = (
        Season.objects.filter(slug=slug)
        .values(
            "pk",
            "name",
            "is_public",
            "organiser_id",
            "organiser__username",
            "auto_publish",
            "changed_at",
            "created_at",
            "ruleset",
            "race__name",
            "rule_settings",
            "time_zone",
            "formation_mode",
            "draft_started_at",
        )
        .first()
    )
    if row is None:
        return None
    rounds = list(
        Round.objects.filter(season_id=row["pk"])
        .order_by("number")
        .values_list("number", "status", "orders_deadline")
    )
    teams = list(
        SeasonTeam.objects.filter(season_id=row["pk"])
        .order_by("pk")
        .values_list("pk", "name", "owner__username")
    )
    job = (
        Job.objects.filter(round__season_id=row["pk"])
        .order_by("-created_at", "-pk")
        .values_list("pk", "status", "failure", "retry_at")
        .first()
    )
    signature = repr((sorted(row.items()), rounds, teams, job)).encode()
    return SeasonState(
        pk=row["pk"],
        slug=slug,
        name=row["name"],
        is_public=row["is_public"],
        organiser_id=row["organiser_id"],
        auto_publish=row["auto_publish"],
        version=hashlib.sha256(signature).hexdigest()[:20],
        changed=row["changed_at"] or row["created_at"],
        statuses=tuple((number, status) for number, status, _deadline in rounds),
    )


def season_state(slug: str) -> SeasonState | None:
    """The season's state, from the cache when fresh (no query), else from the database."""
    key = _state_key(slug)
    state = cache.get(key)
    if state is None:
        state = _state_build(slug)
        if state is not None:
            cache.set(key, state, settings.PAGE_CACHE_STATE_SECONDS)
    return state


def season_changed(season: Season) -> None:
    """What the season's pages show has changed: bump its version (in the transaction of the
    change, so a rollback bumps nothing) and drop the cached state once it commits. Every
    service that resolves, publishes, reinstates, discards or imports a season's results
    calls this, once."""
    now = timezone.now()
    Season.objects.filter(pk=season.pk).update(changed_at=now)
    season.changed_at = now
    key = _state_key(season.slug)
    # Now (for this process, and where the change is never committed in a test) and again once
    # committed, in case another request cached the state as it was before the commit.
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))


@dataclass(frozen=True)
class Access:
    """Who is reading which season, in which visibility class."""

    state: SeasonState
    view: str

    @property
    def is_organiser(self) -> bool:
        return self.view == ORGANISER_VIEW


def season_access(request: HttpRequest, slug: str) -> Access:
    """The season's state and the visitor's visibility class; 404 unless the visitor may read
    the season (the same rule as selectors.season_visible_get, without a query for an
    anonymous visitor of a public season)."""
    state = season_state(slug)
    if state is None:
        raise Http404(_("No such season."))
    user = request.user
    if not state.is_public and not (
        user.is_authenticated
        and (
            user.pk == state.organiser_id
            or Season.objects.filter(pk=state.pk, memberships__user_id=user.pk).exists()
        )
    ):
        raise Http404(_("No such season."))
    # The state stands for the season here: the rule reads its organiser_id only.
    return Access(state=state, view=results_view(state, user))  # type: ignore[arg-type]


def page_key(request: HttpRequest, access: Access, page: str) -> str:
    """The cache key of a page's shared parts."""
    query = "&".join(sorted(request.GET.urlencode().split("&")))
    where = hashlib.sha256(f"{request.path}?{query}".encode()).hexdigest()[:20]
    state = access.state
    return f"{PAGE_PREFIX}{state.pk}:{state.version}:{get_language()}:{access.view}:{page}:{where}"


def page_parts(
    request: HttpRequest, access: Access, page: str, build: Callable[[], dict[str, str]]
) -> dict[str, str]:
    """The page's shared parts (rendered HTML by name): from the cache, or built and kept."""
    key = page_key(request, access, page)
    parts = cache.get(key)
    if parts is None:
        parts = build()
        cache.set(key, parts, settings.PAGE_CACHE_SECONDS)
    return parts


def _etag(request: HttpRequest, access: Access, page: str) -> str | None:
    """The whole response's tag: the shared parts' key, who the menu is for, and the CSRF
    secret its forms carry. None while a message waits to be shown (never a 304 then)."""
    if len(get_messages(request)):  # type: ignore[arg-type]
        return None
    user = request.user
    who = f"{user.pk}:{user.get_username()}:{user.is_staff}" if user.is_authenticated else "-"
    # The secret behind the page's CSRF tokens: the browser's cookie, or the one this response
    # sets (CsrfViewMiddleware keeps it here either way).
    csrf = request.META.get("CSRF_COOKIE", "")
    raw = f"{page_key(request, access, page)}|{who}|{csrf}"
    return '"' + hashlib.sha256(raw.encode()).hexdigest()[:32] + '"'


def not_modified(request: HttpRequest, access: Access, page: str) -> HttpResponse | None:
    """A 304 when the browser (or htmx) already holds this very page, else None."""
    etag = _etag(request, access, page)
    if etag is None:
        return None
    return get_conditional_response(
        request, etag=etag, last_modified=int(access.state.changed.timestamp())
    )


def validators_set(
    request: HttpRequest, access: Access, page: str, response: HttpResponse
) -> HttpResponse:
    """Tag a rendered page for conditional GET; browsers ask again each time (no-cache) and
    keep it to themselves (private: the menu is the user's)."""
    etag = _etag(request, access, page)
    if etag is not None and response.status_code == 200:
        response.headers["ETag"] = etag
        response.headers["Last-Modified"] = http_date(access.state.changed.timestamp())
    patch_cache_control(response, private=True, no_cache=True)
    return response


# --- rendering: the page's blocks once, the visitor's shell each time ---------------------


@dataclass
class Page:
    """A page to render: its template (extending base.html), context and time zone."""

    template: str
    context: dict[str, Any]
    tz: tzinfo | None = None

    def render(self, request: HttpRequest) -> HttpResponse:
        with timezone.override(self.tz) if self.tz else nullcontext():
            return render(request, self.template, self.context)

    def blocks(self, request: HttpRequest) -> dict[str, str]:
        """The template's own blocks (title, content), rendered as the whole page would render
        them; base.html's shell (menu, CSRF token, messages) is left out."""
        template = get_template(self.template).template  # type: ignore[attr-defined]
        extends = template.nodelist.get_nodes_by_type(ExtendsNode)[0]
        context = make_context(self.context, request)
        parts = {}
        zone = timezone.override(self.tz) if self.tz else nullcontext()
        with zone, context.bind_template(template):
            for name in SHARED_BLOCKS:
                block = extends.blocks.get(name)
                parts[name] = mark_safe(block.render(context)) if block else ""
        return parts


#: The blocks of a page template kept in the cache; everything else comes from base.html.
SHARED_BLOCKS = ("title", "main_class", "content")
SHELL_TEMPLATE = "season/_cached_page.html"


def cached_page(
    request: HttpRequest,
    access: Access,
    page: str,
    build: Callable[[], "Page | HttpResponse"],
    *,
    live: Callable[[], dict[str, str]] | None = None,
) -> HttpResponse:
    """The page from its cached blocks, in this visitor's shell; a 304 when the visitor holds
    it already. `build` makes the page on a miss (a response it returns, a CSV export, is
    answered as it is, never cached). `live` renders per request the few per-user pieces a
    block holds a marker for (see LIVE_MARK)."""
    # The live pieces depend on the user and the season's version only: the tag covers them.
    unchanged = not_modified(request, access, page)
    if unchanged is not None:
        return unchanged
    key = page_key(request, access, page)
    parts = cache.get(key)
    if parts is None:
        built = build()
        if isinstance(built, HttpResponse):
            return built
        parts = built.blocks(request)
        cache.set(key, parts, settings.PAGE_CACHE_SECONDS)
    if live is not None:
        content = parts["content"]
        for name, html in live().items():
            content = content.replace(live_mark(name), html)
        parts = {**parts, "content": mark_safe(content)}
    response = render(request, SHELL_TEMPLATE, {"parts": parts})
    return validators_set(request, access, page, response)


def live_mark(name: str) -> str:
    """A marker a cached block holds where a per-user piece goes (replaced on each request)."""
    return f"<!--live:{name}-->"


def job_not_modified(
    request: HttpRequest, round: Round, job: Job | None, *, is_organiser: bool
) -> tuple[str, HttpResponse | None]:
    """The tag of a stage's job progress as the visitor sees it (the htmx poll), and a 304 when
    the poll holds it already."""
    seen = (
        (job.pk, job.status, job.progress, job.message, job.failure, job.state, job.updated_at)
        if job is not None
        else None
    )
    raw = repr((round.pk, round.status, seen, is_organiser, get_language(), bool(request.htmx)))  # type: ignore[attr-defined]
    etag = '"' + hashlib.sha256(raw.encode()).hexdigest()[:32] + '"'
    return etag, get_conditional_response(request, etag=etag)
