"""Who may read which season through the API, and how its answers are kept and validated.

A season is read as the public reads it (permissions.PUBLIC_VIEW: published rounds, every
resolved one when the season auto-publishes), by anyone when it is public, else only with the
token of one of its members or its organiser: 404 otherwise, the same answer as for a season
that does not exist. Organisers read unpublished results on the pages, never here.

Every answer about a season carries an ``ETag`` made of the season's version (season.cache:
bumped by season_changed after every resolution, publication, reinstatement), the path, the
query's known parameters, the language and the client (anonymous, or the member); a client
asking again with ``If-None-Match`` gets a 304 without any of the answer being built. The
answers that everyone gets alike (a public season, no token) are kept in the cache under that
tag until the season changes, and say ``Cache-Control: public``; a member's answers say
``private`` and are never kept. Only the default page and the ``after`` choices of each
address are kept, so that ``?offset=1``, ``?offset=2``... cannot fill the cache."""

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from season.cache import SeasonState, cache_get, cache_set, season_state
from season.models import Membership
from season.permissions import PUBLIC_VIEW

API_PREFIX = "gt:api:"
#: The query parameters an answer reads; the others change nothing.
KNOWN_PARAMS = ("after", "limit", "offset")


@dataclass(frozen=True)
class ApiAccess:
    state: SeasonState
    #: The client is anonymous and the season public: the answer is everyone's.
    shared: bool
    #: The visibility class of every API client (see the module's docstring).
    view: str = PUBLIC_VIEW


def season_access(request: Request, slug: str) -> ApiAccess:
    """The season's state, if this client may read it; NotFound otherwise."""
    state = season_state(slug)
    user = request.user
    if state is not None and not state.is_public:
        allowed = user.is_authenticated and (
            user.pk == state.organiser_id
            or Membership.objects.filter(season_id=state.pk, user_id=user.pk).exists()
        )
        if not allowed:
            state = None
    if state is None:
        raise NotFound(_("No season %(slug)s.") % {"slug": slug})
    return ApiAccess(state=state, shared=state.is_public and not user.is_authenticated)


def _int_param(request: Request, name: str, *, low: int, high: int | None, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = low - 1
    if value < low or (high is not None and value > high):
        bounds = (
            _("between %(low)d and %(high)d") % {"low": low, "high": high}
            if high is not None
            else _("at least %(low)d") % {"low": low}
        )
        raise ValidationError({name: [_("A whole number %(bounds)s.") % {"bounds": bounds}]})
    return value


def after_param(request: Request, *, last: int) -> int | None:
    """The ``after`` round asked (None: not given); 400 unless it is a round number, 404
    beyond the latest round whose results the public may see (``last``)."""
    if "after" not in request.query_params:
        return None
    number = _int_param(request, "after", low=1, high=None, default=1)
    if number > last:
        raise NotFound(_("No standings after round %(number)d yet.") % {"number": number})
    return number


def page(request: Request, items: Sequence[Any]) -> dict[str, Any]:
    """One page of ``items`` (``limit``, at most API_MAX_LIMIT, and ``offset``), with the count
    of all and the addresses of the next and previous pages."""
    limit = _int_param(
        request, "limit", low=1, high=settings.API_MAX_LIMIT, default=settings.API_DEFAULT_LIMIT
    )
    offset = _int_param(request, "offset", low=0, high=None, default=0)
    count = len(items)

    def link(at: int) -> str:
        query = request.query_params.copy()
        query["limit"] = str(limit)
        query["offset"] = str(at)
        return request.build_absolute_uri(f"{request.path}?{query.urlencode()}")

    return {
        "count": count,
        "limit": limit,
        "offset": offset,
        "next": link(offset + limit) if offset + limit < count else None,
        "previous": link(max(0, offset - limit)) if offset > 0 else None,
        "results": list(items[offset : offset + limit]),
    }


def _query(request: Request) -> str:
    return urlencode(
        sorted(
            (name, request.query_params.get(name, ""))
            for name in KNOWN_PARAMS
            if name in request.query_params
        )
    )


def _keepable(request: Request) -> bool:
    """Only the default page (and an ``after`` choice) of an address is kept."""
    return "limit" not in request.query_params and "offset" not in request.query_params


def etag_of(*parts: object) -> str:
    return '"' + hashlib.sha256(repr(parts).encode()).hexdigest()[:32] + '"'


def _not_modified(request: Request, etag: str) -> bool:
    asked = request.META.get("HTTP_IF_NONE_MATCH", "")
    return asked.strip() == "*" or etag in [tag.strip() for tag in asked.split(",")]


def _headers(response: Response, etag: str, *, shared: bool) -> Response:
    response["ETag"] = etag
    response["Cache-Control"] = (
        "public, max-age=0, must-revalidate" if shared else "private, no-cache"
    )
    response["Vary"] = "Authorization, Accept-Language"
    return response


def season_answer(
    request: Request, access: ApiAccess, build: Callable[[], dict[str, Any]]
) -> Response:
    """The answer ``build`` makes about the season, validated by its ETag, kept when shared."""
    user = request.user
    who = "anonymous" if not user.is_authenticated else f"user:{user.pk}"
    etag = etag_of(access.state.version, get_language(), request.path, _query(request), who)
    if _not_modified(request, etag):
        return _headers(Response(status=status.HTTP_304_NOT_MODIFIED), etag, shared=access.shared)
    keep = access.shared and _keepable(request)
    key = API_PREFIX + etag.strip('"')
    data = cache_get(key) if keep else None
    if data is None:
        data = build()
        if keep:
            cache_set(key, data, settings.PAGE_CACHE_SECONDS)
    return _headers(Response(data), etag, shared=access.shared)


def plain_answer(request: Request, data: dict[str, Any], *, shared: bool) -> Response:
    """An answer about no one season (the list of seasons): its ETag is its content's."""
    user = request.user
    etag = etag_of(get_language(), "anonymous" if not user.is_authenticated else user.pk, data)
    if _not_modified(request, etag):
        return _headers(Response(status=status.HTTP_304_NOT_MODIFIED), etag, shared=shared)
    return _headers(Response(data), etag, shared=shared)
