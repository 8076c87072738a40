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
version itself is kept in the cache for ``PAGE_CACHE_STATE_SECONDS`` (2 s) and replaced at once
by a mark of the change by :func:`season_changed`: a page served from the cache costs no
database query, and a change made where no service calls :func:`season_changed` (an admin
edit) shows within those seconds. Rider names and other shared facts edited elsewhere show
within ``PAGE_CACHE_SECONDS``.

An anonymous visitor's page is kept whole (status, headers, body without the CSRF token) and
answered by config.page_cache_middleware before sessions, authentication and the view run:
one cache read, the season's state (the response from this process's copy of that version, or
from the cache; see anonymous_response).

Conditional GET: every such page carries an ``ETag`` (the key, the user, the CSRF cookie) and
``Last-Modified`` (the season's last change); a browser or htmx asking again with the same tag
gets a 304.
"""

import hashlib
import logging
import re
import time
import uuid
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.middleware import csrf as django_csrf
from django.middleware.csrf import CSRF_TOKEN_LENGTH, CsrfViewMiddleware, get_token
from django.shortcuts import render
from django.template.context import make_context
from django.template.loader import get_template
from django.template.loader_tags import BLOCK_CONTEXT_KEY, BlockContext, ExtendsNode
from django.utils import timezone, translation
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date, urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from season.models import Job, Round, Season, SeasonTeam
from season.permissions import ORGANISER_VIEW, results_view, visible_upto
from season.services.notices import unread_count

STATE_PREFIX = "gt:season:"
PAGE_PREFIX = "gt:page:"


logger = logging.getLogger(__name__)
_cache_down_logged = False


def _cache_failed(error: Exception) -> None:
    """The cache (Redis) failed: pages are served uncached and changes still commit; said once
    in the log until the cache answers again."""
    global _cache_down_logged
    if not _cache_down_logged:
        logger.warning("Page cache unavailable, serving uncached: %r", error)
        _cache_down_logged = True


def _cache_get(key: str) -> Any:
    global _cache_down_logged
    try:
        value = cache.get(key)
    except Exception as error:  # any cache backend error
        _cache_failed(error)
        return None
    _cache_down_logged = False
    return value


def _cache_set(key: str, value: Any, timeout: float | None) -> None:
    try:
        cache.set(key, value, timeout)
    except Exception as error:  # any cache backend error
        _cache_failed(error)


#: The same reads and writes for the other answers kept under a season's state (the read API,
#: season/api/answers.py): a cache that fails is logged, never raised.
cache_get = _cache_get
cache_set = _cache_set


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
        .values_list(
            "number", "status", "orders_deadline", "season_event_id", "season_event__starters"
        )
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
        statuses=tuple((number, status) for number, status, *_when_where in rounds),
    )


@dataclass(frozen=True)
class Changed:
    """What season_changed leaves in place of a season's state: a mark of the change. A state
    built while a change commits is not kept (see season_state)."""

    token: str


def season_state(slug: str) -> SeasonState | None:
    """The season's state, from the cache when fresh (no query), else from the database.

    A state built from the database is kept only if nothing changed the season meanwhile:
    the cache holds the same thing after the build as before it (nothing, or the same mark
    of a change). A request that read the rows just before a change commits and kept its
    state just after would otherwise show the old pages for PAGE_CACHE_STATE_SECONDS."""
    key = _state_key(slug)
    held = _cache_get(key)
    if isinstance(held, SeasonState):
        return held
    state = _state_build(slug)
    if state is not None and _cache_get(key) == held:
        _cache_set(key, state, settings.PAGE_CACHE_STATE_SECONDS)
    return state


def season_changed(season: Season) -> None:
    """What the season's pages show has changed: bump its version (in the transaction of the
    change, so a rollback bumps nothing) and replace the cached state by a mark of the change
    once it commits. Every service that resolves, publishes, reinstates, discards or imports a
    season's results calls this, once.

    The cache is never on the write path: it is written only after the commit, and a cache
    that fails then (Redis down) is logged, never raised, so the change stands and the pages
    show it once their state expires (PAGE_CACHE_STATE_SECONDS) or the cache answers again.

    Imports: races.importing (results_import) writes real races and riders, never a league's
    rounds, and cannot call this (races never imports season): what an import renames shows on
    the season pages within PAGE_CACHE_SECONDS. Should an import ever write a league's results,
    the season-side caller (a view or command in season) calls this after it."""
    now = timezone.now()
    Season.objects.filter(pk=season.pk).update(changed_at=now)
    season.changed_at = now
    key = _state_key(season.slug)
    # Once committed (at once outside a transaction): a state built meanwhile, from the rows
    # before the commit, is not kept. The mark outlives any build of a state (a minute).
    transaction.on_commit(lambda: _cache_set(key, Changed(uuid.uuid4().hex), 60), robust=True)


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


# --- the query strings a page is kept for (issue 28: ``?z=N`` 2,000 times filled Redis) -----
#
# A cached page reads only these query parameters: a stage number (``after``), a table's sort,
# page and rows a page, with the table's prefix (``results-sort``; tableexport.table_configure),
# its export (``_export``, ``_table``: answered, never kept) and the page of comments
# (``comments``; season/views/community.py). Anything else does not change the page: it is
# left out of the key (one entry for ``?z=1``, ``?z=2``...), and a whole response for anonymous
# visitors is kept only for a query of known parameters. A known parameter given twice or with
# a value longer than MAX_PARAM_VALUE makes a page that is not kept at all; and at most
# MAX_VARIANTS query strings of one page are kept under one version of the season.

KNOWN_PARAM = re.compile(r"after|comments|_export|_table|(?:[a-z]+-)?(?:page|sort|per_page)")
MAX_PARAM_VALUE = 40
MAX_VARIANTS = 50
VARIANTS_PREFIX = "gt:variants:"


def page_query(request: HttpRequest) -> str | None:
    """The canonical query of the parameters a cached page reads (sorted, the others left
    out), or None when one of them is given twice or is too long (the page is not kept)."""
    known = []
    for name, values in _query_of(request).lists():
        if not KNOWN_PARAM.fullmatch(name):
            continue
        if len(values) != 1 or len(values[0]) > MAX_PARAM_VALUE:
            return None
        known.append((name, values[0]))
    return urlencode(sorted(known))


def only_known_params(request: HttpRequest) -> bool:
    """The query holds known parameters only (a whole response may be kept for it)."""
    return all(KNOWN_PARAM.fullmatch(name) for name in _query_of(request))


def _query_of(request: HttpRequest) -> QueryDict:
    """The query the visitor sent (a view may rewrite ``request.GET``, as the motor standings
    add their ``after``)."""
    return QueryDict(request.META.get("QUERY_STRING", ""))


def page_key(request: HttpRequest, access: Access, page: str) -> str:
    """The cache key of a page's shared parts: the query's known parameters only."""
    query = page_query(request)
    if query is None:  # never kept; the key still tags the page for conditional GET
        query = "\0" + "&".join(sorted(_query_of(request).urlencode().split("&")))
    where = hashlib.sha256(f"{request.path}?{query}".encode()).hexdigest()[:20]
    state = access.state
    return f"{PAGE_PREFIX}{state.pk}:{state.version}:{get_language()}:{access.view}:{page}:{where}"


def _variant_allowed(request: HttpRequest, access: Access, page: str, query: str) -> bool:
    """Whether one more query string of this page (its path: each stage its own) may be kept
    under the season's version (the page without a query always may): at most MAX_VARIANTS."""
    if not query:
        return True
    state = access.state
    path = hashlib.sha256(request.path.encode()).hexdigest()[:20]
    counter = (
        f"{VARIANTS_PREFIX}{state.pk}:{state.version}:{get_language()}:{access.view}:{page}:{path}"
    )
    try:
        cache.add(counter, 0, settings.PAGE_CACHE_SECONDS)
        return int(cache.incr(counter)) <= MAX_VARIANTS
    except Exception as error:  # any cache backend error, or the counter gone meanwhile
        _cache_failed(error)
        return False


def page_parts(
    request: HttpRequest, access: Access, page: str, build: Callable[[], dict[str, str]]
) -> dict[str, str]:
    """The page's shared parts (rendered HTML by name): from the cache, or built and kept."""
    key = page_key(request, access, page)
    query = page_query(request)
    parts = _cache_get(key) if query is not None else None
    if parts is None:
        parts = build()
        if query is not None and _variant_allowed(request, access, page, query):
            _cache_set(key, parts, settings.PAGE_CACHE_SECONDS)
    return parts


def cached_bytes(
    request: HttpRequest, access: Access, page: str, build: Callable[[], bytes]
) -> bytes:
    """The bytes of a file a season serves (a printed sheet), kept as the pages' parts are:
    under the season's version, the language and the visibility class; built on a miss."""
    key = page_key(request, access, page)
    query = page_query(request)
    held = _cache_get(key) if query is not None else None
    if isinstance(held, bytes):
        return held
    built = build()
    if query is not None and _variant_allowed(request, access, page, query):
        _cache_set(key, built, settings.PAGE_CACHE_SECONDS)
    return built


def _etag(request: HttpRequest, access: Access, page: str) -> str | None:
    """The whole response's tag: the shared parts' key, who the menu is for, and the CSRF
    secret its forms carry. None while a message waits to be shown (never a 304 then)."""
    if len(get_messages(request)):  # type: ignore[arg-type]
        return None
    user = request.user
    # The menu's bell counts the unread notifications: a new one is a new page (one query).
    who = (
        f"{user.pk}:{user.get_username()}:{user.is_staff}:{unread_count(request)}"
        if user.is_authenticated
        else "-"
    )
    # The secret behind the page's CSRF tokens: the browser's cookie, or the one this response
    # sets (CsrfViewMiddleware keeps it here either way).
    return page_etag(page_key(request, access, page), who, request.META.get("CSRF_COOKIE", ""))


def page_etag(key: str, who: str, csrf: str) -> str:
    """The tag of a page: its shared parts' key, who the menu is for, the CSRF secret."""
    return '"' + hashlib.sha256(f"{key}|{who}|{csrf}".encode()).hexdigest()[:32] + '"'


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
        context = make_context(self.context, request)
        parts = {}
        zone = timezone.override(self.tz) if self.tz else nullcontext()
        with zone, context.bind_template(template):
            blocks = _blocks_above_the_shell(template, context)
            context.render_context[BLOCK_CONTEXT_KEY] = blocks
            for name in SHARED_BLOCKS:
                block = blocks.get_block(name)
                parts[name] = mark_safe(block.render(context)) if block else ""
        return parts


def _blocks_above_the_shell(template: Any, context: Any) -> BlockContext:
    """The blocks of a page template and of the templates it extends, up to base.html (the
    shell, left out): a game's page extends the season's page of that kind (a round's page:
    templates/season/league/round.html), so its blocks come from both, the game's first."""
    blocks = BlockContext()
    extends = template.nodelist.get_nodes_by_type(ExtendsNode)[0]
    while True:
        blocks.add_blocks(extends.blocks)
        parent = extends.get_parent(context).nodelist.get_nodes_by_type(ExtendsNode)
        if not parent:
            return blocks
        extends = parent[0]


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
    query = page_query(request)
    parts = _cache_get(key) if query is not None else None
    kept = parts is not None
    if parts is None:
        built = build()
        if isinstance(built, HttpResponse):
            return built
        parts = built.blocks(request)
        kept = query is not None and _variant_allowed(request, access, page, query)
        if kept:
            _cache_set(key, parts, settings.PAGE_CACHE_SECONDS)
    if live is not None:
        content = parts["content"]
        for name, html in live().items():
            content = content.replace(live_mark(name), html)
        parts = {**parts, "content": mark_safe(content)}
    response = render(request, SHELL_TEMPLATE, {"parts": parts})
    validators_set(request, access, page, response)
    if (
        kept
        and only_known_params(request)
        and not request.user.is_authenticated
        and response.has_header("ETag")
    ):
        # The same bytes for every anonymous visitor, but the CSRF token: the whole response
        # may be kept (see AnonymousPages below).
        response.shared_page = SharedPage(  # type: ignore[attr-defined]
            slug=access.state.slug,
            version=access.state.version,
            page_key=key,
            changed=int(access.state.changed.timestamp()),
            language=get_language(),
        )
    return response


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


# --- whole responses for anonymous visitors -------------------------------------------------
#
# A visitor without a session (no cookie but the CSRF and language ones) gets, on a page built
# by cached_page, the same bytes as every other such visitor in the same language, but for the
# CSRF token its forms carry. Such a response is kept whole (status, headers, body with the
# token taken out) under the season's version, and answered by AnonymousPagesMiddleware before
# sessions, authentication and the view do any work: one cache read (the season's state; the
# response from this process's copy of the same version), no query, a fresh token masked from
# the visitor's own CSRF secret.

RESPONSE_PREFIX = "gt:response:"
#: Where the visitor's CSRF token goes in a kept response's body.
CSRF_MARK = b"<!--gt:csrf-token-->"
_TOKEN = re.compile(rb"(?<![A-Za-z0-9])[A-Za-z0-9]{%d}(?![A-Za-z0-9])" % CSRF_TOKEN_LENGTH)
#: The cookies an anonymous visitor's page may depend on (and does not, but for the token).
ANONYMOUS_COOKIES = frozenset({settings.CSRF_COOKIE_NAME, settings.LANGUAGE_COOKIE_NAME})
#: The season of each path seen in this process (a path names its season for good).
_SLUGS: dict[str, str] = {}
#: This process's copies of kept responses, by key, with the time they are dropped: served
#: only while their version is the season's current one (read from the shared cache on every
#: request), and for PAGE_CACHE_STATE_SECONDS at most, so that an entry dropped from the shared
#: cache (expired, or the cache cleared) is dropped here within those seconds too.
_KEPT: dict[str, tuple["KeptResponse", float]] = {}
KEPT_HERE_MAX = 256


def _keep_here(key: str, kept: "KeptResponse") -> None:
    if len(_KEPT) >= KEPT_HERE_MAX:
        _KEPT.clear()
    _KEPT[key] = (kept, time.monotonic() + settings.PAGE_CACHE_STATE_SECONDS)


def _kept_here(key: str, version: str) -> "KeptResponse | None":
    kept, until = _KEPT.get(key, (None, 0.0))
    if kept is None or kept.version != version or time.monotonic() >= until:
        return None
    return kept


def forget_here() -> None:
    """Drop this process's copies of kept responses (bench/pages.py measures cache misses)."""
    _KEPT.clear()


@dataclass(frozen=True)
class SharedPage:
    """What cached_page says of a page every anonymous visitor sees alike."""

    slug: str
    version: str
    page_key: str
    changed: int
    language: str


@dataclass(frozen=True)
class KeptResponse:
    """A whole response kept for anonymous visitors, the CSRF token taken out of its body."""

    version: str
    page_key: str
    changed: int
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes


def anonymous(request: HttpRequest) -> bool:
    """A GET of a visitor without a session or a message waiting, not htmx's."""
    return (
        request.method == "GET"
        and "HTTP_HX_REQUEST" not in request.META
        and ANONYMOUS_COOKIES.issuperset(request.COOKIES)
    )


def _response_key(request: HttpRequest, language: str, query: str) -> str:
    where = f"{request.scheme}://{request.META.get('HTTP_HOST', '')}{request.path}?{query}"
    digest = hashlib.sha256(where.encode()).hexdigest()[:24]
    return f"{RESPONSE_PREFIX}{language}:{digest}"


def _no_response(request: HttpRequest) -> HttpResponse:  # pragma: no cover - never called
    raise AssertionError("CsrfViewMiddleware is used here for its cookie handling only")


def anonymous_response(request: HttpRequest) -> HttpResponse | None:
    """The kept response of this page, with this visitor's CSRF token and cookie, if it was
    kept under the season's current version; a 304 when the visitor holds it; else None."""
    slug = _SLUGS.get(request.path)
    query = page_query(request)
    if slug is None or query is None or not only_known_params(request):
        return None  # never kept (see page_query)
    language = translation.get_language_from_request(request)
    key = _response_key(request, language, query)
    # One cache read: the season's state. The response itself comes from this process's copy
    # when it has one of the same version (no 60 KB through the network each time).
    state = season_state(slug)
    if state is None:
        return None
    kept = _kept_here(key, state.version)
    if kept is None:
        kept = _cache_get(key)
        if kept is None or kept.version != state.version:
            return None
        _keep_here(key, kept)
    csrf = CsrfViewMiddleware(_no_response)
    csrf.process_request(request)
    held = request.META.get("CSRF_COOKIE", "")
    unchanged = get_conditional_response(
        request, etag=page_etag(kept.page_key, "-", held), last_modified=kept.changed
    )
    headers = dict(kept.headers)
    if unchanged is not None:
        for name in ("Vary", "Cache-Control", "Content-Language"):
            if name in headers:
                unchanged.headers[name] = headers[name]
        return unchanged
    token = get_token(request)
    body = kept.body.replace(CSRF_MARK, token.encode())
    headers["Content-Length"] = str(len(body))
    headers["ETag"] = page_etag(kept.page_key, "-", request.META["CSRF_COOKIE"])
    response = HttpResponse(body, status=kept.status, headers=headers)
    csrf.process_response(request, response)
    return response


def anonymous_keep(request: HttpRequest, response: HttpResponse) -> None:
    """Keep the whole response of a page every anonymous visitor sees alike (cached_page says
    which) with the CSRF token taken out, under the season's version."""
    shared: SharedPage | None = getattr(response, "shared_page", None)
    query = page_query(request)
    if shared is None or response.status_code != 200 or response.streaming or query is None:
        return
    language = translation.get_language_from_request(request)
    if language != shared.language or set(response.cookies) - {settings.CSRF_COOKIE_NAME}:
        return
    body = response.content
    secret = request.META.get("CSRF_COOKIE", "")
    if secret:

        def unmasked(match: re.Match[bytes]) -> bytes:
            token = match.group()
            # Django's own unmasking tells the visitor's token from other 64-character words.
            secret_of = django_csrf._unmask_cipher_token(token.decode())  # type: ignore[attr-defined]
            return CSRF_MARK if secret_of == secret else token

        body = _TOKEN.sub(unmasked, body)
        if secret.encode() in body:
            return  # never keep a visitor's secret
    headers = tuple(
        (name, value)
        for name, value in response.items()
        if name not in ("ETag", "Content-Length", "Set-Cookie")
    )
    kept = KeptResponse(
        version=shared.version,
        page_key=shared.page_key,
        changed=shared.changed,
        status=response.status_code,
        headers=headers,
        body=body,
    )
    key = _response_key(request, language, query)
    _cache_set(key, kept, settings.PAGE_CACHE_SECONDS)
    _keep_here(key, kept)
    if len(_SLUGS) > 10_000:
        _SLUGS.clear()
    _SLUGS[request.path] = shared.slug
