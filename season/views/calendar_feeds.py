"""The calendar feeds (season.services.calendar_feed) and the renewal of a member's address.

A feed read with a member's token is his: it is answered with ``Cache-Control: private`` and
never through the season pages' cache (season/cache.py keeps only the pages cached_page
builds). A bad or renewed token is a 404, as is a private season read without a member's token.
"""

import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from accounts.calendar_tokens import calendar_token_renew, calendar_token_user
from season.models import Season
from season.services.calendar_feed import Feed, member_feed, member_language, season_feed


def _answer(request: HttpRequest, feed: Feed, *, private: bool) -> HttpResponse:
    etag = '"' + hashlib.sha256(feed.body).hexdigest()[:32] + '"'
    modified = int(feed.modified.timestamp())
    response = get_conditional_response(request, etag=etag, last_modified=modified)
    if response is None:
        response = HttpResponse(feed.body, content_type="text/calendar; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="{feed.filename}"'
    response["ETag"] = etag
    response["Last-Modified"] = http_date(modified)
    # A private address is nobody's business but its owner's: no shared cache keeps it, no
    # search engine lists it.
    response["X-Robots-Tag"] = "noindex"
    if private:
        patch_cache_control(response, private=True, no_cache=True)
    else:
        patch_cache_control(response, public=True, max_age=300)
    return response


@require_safe
def member_calendar(request: HttpRequest, token: str) -> HttpResponse:
    """The member's own deadlines, at the address carrying his token."""
    user = calendar_token_user(token)
    if user is None:
        raise Http404(_("No such calendar."))
    return _answer(request, member_feed(user=user), private=True)


@require_safe
def season_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    """A season's rounds: anyone's for a public season; a private season's only with the token
    of one of its members (``?token=``)."""
    season = Season.objects.filter(slug=slug).first()
    if season is None:
        raise Http404(_("No such season."))
    token = request.GET.get("token")
    user = calendar_token_user(token) if token else None
    if token and user is None:
        raise Http404(_("No such calendar."))
    if not season.is_public and not (user and user.has_perm("season.view_season", season)):
        raise Http404(_("No such season."))
    language = member_language(user) if user else None
    return _answer(request, season_feed(season=season, language=language), private=bool(token))


@login_required
@require_http_methods(["GET", "POST"])
def calendar_renew(request: HttpRequest) -> HttpResponse:
    """A new address of the member's feed (POST, after the question asked on GET)."""
    if request.method == "POST":
        calendar_token_renew(user=request.user)
        messages.success(
            request,
            _("Your calendar has a new address: give it to your calendar app again."),
        )
        return redirect(reverse("my-seasons") + "#calendar")
    return render(request, "season/player/calendar_renew.html")
