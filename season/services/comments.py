"""Comments per season and per stage (issue 17, "What a league expects"): who may post, read
and hide them, and the guards on what is posted (docs/league.md, "Comments and
notifications").

Members post (the players and the organiser of the season, and the site's staff); whoever may
read the season reads its comments (anonymous visitors of a public season too, never of a
private one). The organiser (and the staff) may hide any comment; its author may withdraw his
own within WITHDRAW_MINUTES. A hidden comment stays in its place, saying so.

Every change calls season.cache.season_changed: the season's cached pages (and an anonymous
visitor's kept whole page) show the new list at once.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.rate_limits import Limit, rate_take
from season.cache import season_changed
from season.models import COMMENT_MAX_LENGTH, Comment, Membership, Round, Season
from season.services import chat_hooks

#: At most this many comments per user in one minute (Django's cache counts them).
RATE_LIMIT = 5
RATE_WINDOW_SECONDS = 60
COMMENTS_PER_MINUTE = Limit(count=RATE_LIMIT, seconds=RATE_WINDOW_SECONDS)
#: How long an author may withdraw his own comment.
WITHDRAW_MINUTES = 10
#: The comments a page shows at once (issue 28: a day of comments at the allowed rate made the
#: season page 16 MB): the latest ones, the older on further pages (``?comments=2``...).
COMMENTS_PER_PAGE = 50

#: What a comment may not hold: control characters (but line breaks and tabs), surrogates,
#: private use, line and paragraph separators, and the invisible formatting characters (the
#: bidirectional overrides that make a text read backwards), but the zero-width joiners that
#: emoji sequences are made of.
_FORBIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
_ALLOWED = frozenset({"\n", "\t", "\u200c", "\u200d"})


class CommentRefused(Exception):
    """Why a comment was not posted or hidden, in the user's words (the field named)."""


@dataclass(frozen=True)
class ShownComment:
    """A comment as one reader sees it."""

    pk: int
    author: str
    created_at: datetime
    #: The text, or empty when hidden from this reader.
    text: str
    #: "organiser" (hidden by the organiser or the staff), "author" (withdrawn) or "".
    hidden: str
    can_hide: bool


def comment_text_clean(text: str) -> str:
    """The text as stored: line breaks as \\n, no spaces around; CommentRefused if empty, too
    long, or holding a control or invisible formatting character."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        raise CommentRefused(_("Comment: write something first."))
    if len(text) > COMMENT_MAX_LENGTH:
        raise CommentRefused(
            _("Comment: at most %(limit)s characters (this one has %(length)s).")
            % {"limit": COMMENT_MAX_LENGTH, "length": len(text)}
        )
    for char in text:
        if char not in _ALLOWED and unicodedata.category(char) in _FORBIDDEN:
            raise CommentRefused(
                _(
                    "Comment: control or invisible formatting characters are not allowed "
                    "(found %(code)s)."
                )
                % {"code": f"U+{ord(char):04X}"}
            )
    return text


def _is_staff(user: object) -> bool:
    return bool(getattr(user, "is_staff", False) or getattr(user, "is_superuser", False))


def comment_can_post(*, season_id: int, organiser_id: int, user: object) -> bool:
    """A member of the season (a player, its organiser) or the site's staff."""
    if not getattr(user, "is_authenticated", False):
        return False
    user_id = getattr(user, "pk", None)
    if user_id == organiser_id or _is_staff(user):
        return True
    return Membership.objects.filter(season_id=season_id, user_id=int(user_id or 0)).exists()


def comment_can_hide(
    *, comment: Comment, organiser_id: int, user: object, now: datetime | None = None
) -> bool:
    """The organiser and the staff hide any shown comment; its author withdraws it within
    WITHDRAW_MINUTES."""
    if comment.hidden_at is not None or not getattr(user, "is_authenticated", False):
        return False
    user_id = getattr(user, "pk", None)
    if user_id == organiser_id or _is_staff(user):
        return True
    now = now or timezone.now()
    return user_id == comment.author_id and now - comment.created_at <= timedelta(
        minutes=WITHDRAW_MINUTES
    )


def _rate_check(user_id: int, now: datetime) -> None:
    """At most RATE_LIMIT comments per user in each minute of the clock (the one rate counter,
    accounts.rate_limits: a cache that does not answer lets the comment through)."""
    again = rate_take(f"comments:{user_id}", COMMENTS_PER_MINUTE, now=now)
    if again is not None:
        wait = int((again - now).total_seconds())
        raise CommentRefused(
            _(
                "Comment: you have posted %(limit)s comments in a minute; "
                "try again in %(seconds)s seconds."
            )
            % {"limit": RATE_LIMIT, "seconds": max(wait, 1)}
        )


def comment_post(
    *, season: Season, round: Round | None, user: object, text: str, now: datetime | None = None
) -> Comment:
    """Post a member's comment on the season (``round`` None) or one of its rounds."""
    if not comment_can_post(season_id=season.pk, organiser_id=season.organiser_id, user=user):
        raise CommentRefused(_("Only the season's players and organiser may comment."))
    if round is not None and round.season_id != season.pk:
        raise CommentRefused(_("This stage is not one of the season's."))
    cleaned = comment_text_clean(text)
    now = now or timezone.now()
    _rate_check(user.pk, now)  # type: ignore[attr-defined]
    with transaction.atomic():
        comment = Comment(season=season, round=round, author_id=user.pk, text=cleaned)  # type: ignore[attr-defined]
        comment.full_clean()
        comment.save()
        # The season's chat channels that post comments: in the comment's transaction.
        chat_hooks.comment_posted(comment=comment, now=now)
        season_changed(season)
    return comment


def comment_hide(
    *, comment: Comment, organiser_id: int, user: object, now: datetime | None = None
) -> Comment:
    """Hide a comment (the organiser, the staff) or withdraw it (its author, in time)."""
    now = now or timezone.now()
    if not comment_can_hide(comment=comment, organiser_id=organiser_id, user=user, now=now):
        raise CommentRefused(_("You may not hide this comment."))
    with transaction.atomic():
        # Two hides at once: the first one stands.
        Comment.objects.filter(pk=comment.pk, hidden_at__isnull=True).update(
            hidden_at=now,
            hidden_by_id=user.pk,  # type: ignore[attr-defined]
        )
        season_changed(comment.season)
    comment.refresh_from_db()
    return comment


@dataclass(frozen=True)
class CommentsPage:
    """One page of a season's or a round's comments: page 1 holds the latest, each page its
    comments oldest first; ``count`` is the number of every page's comments."""

    comments: list[ShownComment]
    page: int
    pages: int
    count: int

    @property
    def older(self) -> int | None:
        """The page of the comments before these, if any."""
        return self.page + 1 if self.page < self.pages else None

    @property
    def newer(self) -> int | None:
        """The page of the comments after these, if any."""
        return self.page - 1 if self.page > 1 else None


def comments_page(
    *,
    season_id: int,
    organiser_id: int,
    number: int | None,
    user: object,
    page: int | str | None = 1,
    per_page: int = COMMENTS_PER_PAGE,
) -> CommentsPage:
    """Page ``page`` (1: the latest ``per_page``; anything that is not a page number: the
    nearest page) of the season's (``number`` None) or the round's comments, as this reader
    sees them: two queries (the count and the page)."""
    where = Q(round__isnull=True) if number is None else Q(round__number=number)
    newest_first = (
        Comment.objects.filter(where, season_id=season_id)
        .select_related("author")
        .order_by("-created_at", "-pk")
    )
    chosen = Paginator(newest_first, per_page).get_page(page)
    shown = _shown(list(reversed(chosen.object_list)), organiser_id=organiser_id, user=user)
    return CommentsPage(
        comments=shown,
        page=chosen.number,
        pages=chosen.paginator.num_pages,
        count=chosen.paginator.count,
    )


def comments_shown(
    *, season_id: int, organiser_id: int, number: int | None, user: object
) -> list[ShownComment]:
    """Every comment of the season (``number`` None) or of its round ``number``, oldest first,
    as this reader sees them: one query (the pages show :func:`comments_page`)."""
    where = Q(round__isnull=True) if number is None else Q(round__number=number)
    comments = (
        Comment.objects.filter(where, season_id=season_id)
        .select_related("author")
        .order_by("created_at", "pk")
    )
    return _shown(comments, organiser_id=organiser_id, user=user)


def _shown(comments: Iterable[Comment], *, organiser_id: int, user: object) -> list[ShownComment]:
    user_id = getattr(user, "pk", None)
    sees_hidden = user_id == organiser_id or _is_staff(user)
    now = timezone.now()
    shown = []
    for comment in comments:
        hidden = ""
        if comment.hidden_at is not None:
            hidden = "author" if comment.hidden_by_id == comment.author_id else "organiser"
        shown.append(
            ShownComment(
                pk=comment.pk,
                author=comment.author.get_username(),
                created_at=comment.created_at,
                text=comment.text if not hidden or sees_hidden else "",
                hidden=hidden,
                can_hide=comment_can_hide(
                    comment=comment, organiser_id=organiser_id, user=user, now=now
                ),
            )
        )
    return shown
