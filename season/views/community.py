"""Comments on a season and its stages, and the user's notifications (issue 17). Thin: the
rules are in season.services.comments and season.services.notices.

A comment is posted with htmx (the answer is the comments section, swapped in place) or
without JavaScript (a redirect back to the page, or the form again with the reason and the
text kept)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from season import cache as page_cache
from season.models import COMMENT_MAX_LENGTH, Comment, Round, Season
from season.services import comments as comment_service
from season.services import notices as notice_service

#: The query parameter of a page of comments (season.cache keeps one page per value).
COMMENTS_PARAM = "comments"


def _page_url(slug: str, number: int | None) -> str:
    if number is None:
        return reverse("season-detail", args=[slug])
    return reverse("season-stage", args=[slug, number])


def _post_url(slug: str, number: int | None) -> str:
    if number is None:
        return reverse("season-comment", args=[slug])
    return reverse("season-stage-comment", args=[slug, number])


def comments_html(
    request: HttpRequest,
    access: page_cache.Access,
    number: int | None,
    *,
    error: str = "",
    text: str = "",
) -> str:
    """The comments section of the season's page (``number`` None) or of a round's page, as
    this visitor sees it (rendered per request; cached pages hold a marker in its place)."""
    state = access.state
    user = request.user
    # The latest comments; the older ones page by page (?comments=2...), never all at once.
    page = comment_service.comments_page(
        season_id=state.pk,
        organiser_id=state.organiser_id,
        number=number,
        user=user,
        page=request.GET.get(COMMENTS_PARAM, 1),
    )
    return render_to_string(
        "season/_comments.html",
        {
            "comments": page.comments,
            "page": page,
            "param": COMMENTS_PARAM,
            "slug": state.slug,
            "number": number,
            "post_url": _post_url(state.slug, number),
            "can_post": comment_service.comment_can_post(
                season_id=state.pk, organiser_id=state.organiser_id, user=user
            ),
            "max_length": COMMENT_MAX_LENGTH,
            "error": error,
            "text": text,
            "next": _page_url(state.slug, number),
        },
        request=request,
    )


def _post(request: HttpRequest, slug: str, number: int | None) -> HttpResponse:
    # 404 for a private season the visitor may not read, as its pages.
    access = page_cache.season_access(request, slug)
    season = get_object_or_404(Season, pk=access.state.pk)
    round = None
    if number is not None:
        round = get_object_or_404(Round, season=season, number=number)
    text = request.POST.get("text", "")
    error = ""
    if not request.user.is_authenticated:
        error = _("Log in to comment.")
    else:
        try:
            comment_service.comment_post(season=season, round=round, user=request.user, text=text)
        except comment_service.CommentRefused as refused:
            error = str(refused)
    if request.htmx:  # type: ignore[attr-defined]
        html = comments_html(request, access, number, error=error, text=text if error else "")
        return HttpResponse(html, status=200)
    if error:
        status = 403 if not request.user.is_authenticated else 400
        return render(
            request,
            "season/comment_form.html",
            {
                "season": access.state,
                "error": error,
                "text": text,
                "post_url": _post_url(slug, number),
                "back": _page_url(slug, number),
                "max_length": COMMENT_MAX_LENGTH,
                "can_post": request.user.is_authenticated,
            },
            status=status,
        )
    return redirect(_page_url(slug, number) + "#comments")


@require_POST
def season_comment(request: HttpRequest, slug: str) -> HttpResponse:
    return _post(request, slug, None)


@require_POST
def stage_comment(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _post(request, slug, number)


@require_POST
@login_required
def comment_hide(request: HttpRequest, slug: str, comment_id: int) -> HttpResponse:
    access = page_cache.season_access(request, slug)
    comment = get_object_or_404(
        Comment.objects.select_related("season", "round"), pk=comment_id, season_id=access.state.pk
    )
    number = comment.round.number if comment.round else None
    try:
        comment_service.comment_hide(
            comment=comment, organiser_id=access.state.organiser_id, user=request.user
        )
    except comment_service.CommentRefused as refused:
        if request.htmx:  # type: ignore[attr-defined]
            return HttpResponse(comments_html(request, access, number, error=str(refused)))
        messages.error(request, str(refused))
    if request.htmx:  # type: ignore[attr-defined]
        return HttpResponse(comments_html(request, access, number))
    # Back to the page of comments the hidden one was on (?comments=N of the form's action).
    page = request.GET.get(COMMENTS_PARAM, "")
    query = f"?{COMMENTS_PARAM}={int(page)}" if page.isdigit() and len(page) < 7 else ""
    return redirect(_page_url(slug, number) + query + "#comments")


# --- notifications -------------------------------------------------------------------------


@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "season/notifications.html",
        {"notices": notice_service.notices_of(user=request.user)},
    )


@require_POST
@login_required
def notification_open(request: HttpRequest, notice_id: int) -> HttpResponse:
    """Mark the notice read and go where it points (the orders form, the results)."""
    url = notice_service.notice_read(user=request.user, notice_id=notice_id)
    if url is None:
        raise Http404(_("No such notification."))
    if request.POST.get("stay") or not url_has_allowed_host_and_scheme(url, allowed_hosts=None):
        return redirect("notifications")
    return redirect(url)


@require_POST
@login_required
def notifications_read_all(request: HttpRequest) -> HttpResponse:
    notice_service.notices_read_all(user=request.user)
    return redirect("notifications")
