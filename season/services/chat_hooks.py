"""Chat channels (issue 34): a season's webhooks to Discord and Slack, and the messages the
workers post to them (docs/chat-channels.md).

The news enters as ChatDelivery rows, one per hook, at the moment the season's own notices
claim it (season.notifications: a round opens, a reminder, results out and the end of a race
or of the season) or in the transaction that posts a comment; ``(hook, key)`` is unique, so a
news is posted once per hook. The text is written then, in the organiser's language, from what
is published only.

``deliveries_send`` (Celery beat, and a task queued after each new delivery, on the webhooks'
own queue) posts the due ones through season.services.webhook_guard: a worker claims a row
under ``select_for_update(skip_locked=True)`` and moves its next attempt a lease ahead before
it posts, so two workers never post it twice. A failure is retried after BACKOFF (a 429's
Retry-After if longer), up to ATTEMPTS_MAX; DISABLE_AFTER failures in a row disable the hook.
"""

from __future__ import annotations

import ipaddress
import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.rate_limits import Limit, rate_take
from plugins import adapter_for
from season.models import (
    CHAT_HOOKS_MAX,
    ChatDelivery,
    ChatEvent,
    ChatHook,
    Comment,
    Round,
    Season,
)
from season.results import players_ranking
from season.round_names import event_name, round_name, round_name_start
from season.services import webhook_guard

logger = logging.getLogger(__name__)

#: Seconds before each retry of a failed post: 30 s, 2 min, 10 min, 1 h, 6 h.
BACKOFF = (30, 120, 600, 3600, 21600)
#: Attempts in all (the first and the retries); then the delivery has failed.
ATTEMPTS_MAX = len(BACKOFF) + 1
#: A receiver's Retry-After is followed up to this many seconds.
RETRY_AFTER_MAX = 6 * 3600
#: Failed attempts in a row (whatever the delivery) after which the hook is disabled.
DISABLE_AFTER = 12
#: How long a worker's claim of a delivery lasts (well above the guard's 10 s in all): a worker
#: lost mid-post leaves the delivery due again after it.
LEASE = timedelta(seconds=60)
#: The deliveries one run posts at most (the next run, or the task queued again, takes the rest).
BATCH = 25
#: The most characters of a message's JSON.
PAYLOAD_MAX = 8000
#: Discord's limits: a message's content, an embed's description.
DISCORD_CONTENT_MAX = 2000
DISCORD_DESCRIPTION_MAX = 3000
#: Slack's limit of a section block's text.
SLACK_SECTION_MAX = 2900
#: The lines of the results a message quotes: the players' first, the game's table's first.
RANKING_LINES = 3
TABLE_LINES = 10
#: How long before a deadline the channel is reminded of it.
REMINDER_BEFORE = timedelta(hours=2)
#: A comment quoted in a message: its first characters.
COMMENT_QUOTED = 500
#: Test messages per hook (the organiser's button): at most this many a minute.
TESTS_PER_MINUTE = Limit(count=3, seconds=60)

DISCORD_HOSTS = frozenset(
    {"discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com"}
)
SLACK_HOSTS = frozenset({"hooks.slack.com"})


class HookRefused(Exception):
    """Why a webhook was not added or a test not sent, naming the field (``field``)."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def _allow_private() -> bool:
    return bool(getattr(settings, "CHAT_HOOKS_ALLOW_PRIVATE", False))


def refusal_text(refused: webhook_guard.Refused) -> str:
    """The guard's refusal in the organiser's words (the active language)."""
    texts = {
        webhook_guard.NOT_HTTPS: _("Webhook address: it must start with https://."),
        webhook_guard.BAD_URL: _("Webhook address: not a web address (%(detail)s)."),
        webhook_guard.UNRESOLVED: _("Webhook address: its host is not found (%(detail)s)."),
        webhook_guard.PRIVATE: _(
            "Webhook address: it leads to a private or local network address (%(detail)s); "
            "only public addresses are allowed."
        ),
    }
    return texts.get(refused.code, _("Webhook address: refused (%(detail)s).")) % {
        "detail": refused.detail or refused.code
    }


def hook_url_check(*, kind: str, url: str) -> str:
    """``url`` as stored, once it is a webhook address of ``kind``'s service and the guard
    accepts it; HookRefused (field "url") otherwise."""
    url = url.strip()
    allow_private = _allow_private()
    try:
        target = webhook_guard.url_parse(url, allow_private=allow_private)
    except webhook_guard.Refused as refused:
        raise HookRefused(refusal_text(refused), field="url") from refused
    if _is_ip(target.host):
        # An address typed as a number: say first what is wrong with it.
        try:
            webhook_guard.host_resolve(target, allow_private=allow_private)
        except webhook_guard.Refused as refused:
            raise HookRefused(refusal_text(refused), field="url") from refused
    # The test receivers (allowed private addresses) are neither Discord nor Slack.
    if not allow_private:
        if kind == ChatHook.Kind.DISCORD and not (
            target.host in DISCORD_HOSTS and target.path.startswith("/api/webhooks/")
        ):
            raise HookRefused(
                _(
                    "Webhook address: a Discord webhook's address starts with "
                    "https://discord.com/api/webhooks/."
                ),
                field="url",
            )
        if kind == ChatHook.Kind.SLACK and not (
            target.host in SLACK_HOSTS and target.path.startswith("/services/")
        ):
            raise HookRefused(
                _(
                    "Webhook address: a Slack webhook's address starts with "
                    "https://hooks.slack.com/services/."
                ),
                field="url",
            )
    try:
        webhook_guard.host_resolve(target, allow_private=allow_private)
    except webhook_guard.Refused as refused:
        raise HookRefused(refusal_text(refused), field="url") from refused
    return url


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


EVENT_FIELDS = ("on_round_open", "on_reminder", "on_results", "on_race_end", "on_comment")


def hook_create(
    *, season: Season, user: Any, kind: str, url: str, events: Mapping[str, bool]
) -> ChatHook:
    """Add a webhook to ``season`` (at most CHAT_HOOKS_MAX; the address checked)."""
    if kind not in ChatHook.Kind.values:
        raise HookRefused(_("Kind: choose Discord or Slack."), field="kind")
    url = hook_url_check(kind=kind, url=url)
    with transaction.atomic():
        # The season's row locked: two additions at once cannot pass the limit together.
        Season.objects.select_for_update().filter(pk=season.pk).first()
        if ChatHook.objects.filter(season=season).count() >= CHAT_HOOKS_MAX:
            raise HookRefused(
                _("A season has at most %(limit)d webhooks: delete one first.")
                % {"limit": CHAT_HOOKS_MAX}
            )
        if ChatHook.objects.filter(season=season, url=url).exists():
            raise HookRefused(_("Webhook address: this season already posts to it."), field="url")
        hook = ChatHook(
            season=season,
            kind=kind,
            url=url,
            created_by=user if getattr(user, "pk", None) else None,
            **{name: bool(events.get(name, False)) for name in EVENT_FIELDS},
        )
        hook.full_clean()
        hook.save()
    logger.info("chat hook %s added to season %s", hook.pk, season.slug)
    return hook


def hook_enable(*, hook: ChatHook, enabled: bool) -> ChatHook:
    """Enable or disable a hook; enabled again, it starts a new count of failures."""
    changes: dict[str, Any] = {"enabled": enabled}
    if enabled:
        changes["failures"] = 0
    ChatHook.objects.filter(pk=hook.pk).update(**changes)
    hook.refresh_from_db()
    return hook


def hook_delete(*, hook: ChatHook) -> None:
    hook.delete()


# --- the messages -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    """A message for any channel: a title line, lines beneath (``table``: in monospace) and
    the link to the page."""

    title: str
    lines: tuple[str, ...] = ()
    table: tuple[str, ...] = ()
    quote: str = ""
    url: str = ""


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _slack_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def discord_payload(message: Message) -> dict[str, Any]:
    parts = list(message.lines)
    if message.quote:
        parts.append("\n".join("> " + line for line in message.quote.splitlines()))
    if message.table:
        table = "\n".join(message.table).replace("```", "'''")
        parts.append("```\n" + table + "\n```")
    embed: dict[str, Any] = {"title": _clip(message.title, 256)}
    if parts:
        embed["description"] = _clip("\n".join(parts), DISCORD_DESCRIPTION_MAX)
    if message.url:
        embed["url"] = message.url
    content = message.title + (f"\n{message.url}" if message.url else "")
    return {
        "content": _clip(content, DISCORD_CONTENT_MAX),
        "embeds": [embed],
        # A member's comment never pings the channel (@everyone, @here, a role).
        "allowed_mentions": {"parse": []},
    }


def slack_payload(message: Message) -> dict[str, Any]:
    title = _slack_escape(message.title)
    text = f"<{message.url}|{title}>" if message.url else title
    blocks: list[dict[str, Any]] = [
        {"type": "section", "text": {"type": "mrkdwn", "text": _clip(f"*{text}*", 3000)}}
    ]
    body = [_slack_escape(line) for line in message.lines]
    if message.quote:
        body.extend("> " + _slack_escape(line) for line in message.quote.splitlines())
    if message.table:
        body.append("```" + _slack_escape("\n".join(message.table)) + "```")
    if body:
        blocks.append(
            {
                "type": "section",
                "text": {"type": "mrkdwn", "text": _clip("\n".join(body), SLACK_SECTION_MAX)},
            }
        )
    return {"text": _clip(f"{message.title} {message.url}".strip(), 3000), "blocks": blocks}


PAYLOADS: dict[str, Callable[[Message], dict[str, Any]]] = {
    ChatHook.Kind.DISCORD: discord_payload,
    ChatHook.Kind.SLACK: slack_payload,
}


def payload_for(kind: str, message: Message) -> dict[str, Any]:
    """The JSON ``kind``'s service takes for ``message``, at most PAYLOAD_MAX characters (its
    lines and table dropped if need be)."""
    payload = PAYLOADS[kind](message)
    if len(json.dumps(payload, ensure_ascii=False)) > PAYLOAD_MAX:
        payload = PAYLOADS[kind](Message(title=message.title, url=message.url))
    return payload


def _site_url(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _language(season: Season) -> str:
    profile = getattr(season.organiser, "profile", None)
    return getattr(profile, "language", "") or settings.LANGUAGE_CODE


def _deadline_text(round: Round) -> str:
    if round.orders_deadline is None:
        return ""
    local = timezone.localtime(round.orders_deadline, round.season.tz)
    return f"{date_format(local, 'j F Y, H:i')} ({round.season.time_zone})"


def _stage_url(round: Round) -> str:
    return _site_url(reverse("season-stage", args=[round.season.slug, round.number]))


def _ranking_lines(season: Season, number: int) -> tuple[str, ...]:
    ranked = [line for line in players_ranking(season=season, number=number) if line.rank]
    return tuple(
        f"{line.rank}. {line.team} ({line.player}) {line.score}".rstrip()
        for line in ranked[:RANKING_LINES]
    )


def _table_lines(round: Round) -> tuple[str, ...]:
    item, within = round.season.event_of_round(round.number)
    if item is None:
        return ()
    lines = adapter_for(round.season.ruleset).league_standings_lines(
        item.event, number=within, limit=TABLE_LINES
    )
    return tuple(lines)


def _opened_message(round: Round) -> Message:
    values = {
        "season": round.season.name,
        "round": round_name(round.season, round.number),
        "event": adapter_for(round.season.ruleset).event_label(round.event),
        "deadline": _deadline_text(round),
    }
    return Message(
        title=_("%(season)s: orders open for %(round)s") % values,
        lines=(_("%(event)s. Orders until %(deadline)s.") % values,),
        url=_stage_url(round),
    )


def _reminder_message(round: Round) -> Message:
    values = {
        "season": round.season.name,
        "round": round_name(round.season, round.number),
        "deadline": _deadline_text(round),
        "hours": int(REMINDER_BEFORE.total_seconds() // 3600),
    }
    return Message(
        title=_("%(season)s: orders for %(round)s close at %(deadline)s") % values,
        lines=(_("Less than %(hours)d h left to give your orders.") % values,),
        url=_stage_url(round),
    )


def _results_message(round: Round) -> Message:
    season = round.season
    values = {"season": season.name, "Round": round_name_start(season, round.number)}
    ranking = _ranking_lines(season, round.number)
    lines = (_("The players' ranking:"), *ranking) if ranking else ()
    return Message(
        title=_("%(Round)s of %(season)s: the results are out") % values,
        lines=lines,
        table=_table_lines(round),
        url=_stage_url(round),
    )


def _end_message(round: Round, *, season_over: bool) -> Message:
    season = round.season
    item, _within = season.event_of_round(round.number)
    ranked = [line for line in players_ranking(season=season, number=round.number) if line.rank]
    values = {
        "season": season.name,
        "event": event_name(season, item) if item is not None else "",
        "winner": f"{ranked[0].team} ({ranked[0].player})" if ranked else "",
    }
    if season_over:
        title = _("%(season)s is over") % values
        if ranked:
            title += ": " + _("%(winner)s wins") % values
        url = _site_url(reverse("season-detail", args=[season.slug]))
    else:
        title = _("%(season)s: %(event)s is over") % values
        url = _stage_url(round)
    ranking = _ranking_lines(season, round.number)
    lines = (_("The players' ranking:"), *ranking) if ranking else ()
    return Message(title=title, lines=lines, url=url)


def _comment_message(comment: Comment) -> Message:
    season = comment.season
    values = {"season": season.name, "author": comment.author.get_username()}
    if comment.round is not None:
        values["round"] = round_name(season, comment.round.number)
        title = _("%(season)s: %(author)s on %(round)s") % values
        url = _stage_url(comment.round) + "#comments"
    else:
        title = _("%(season)s: %(author)s commented") % values
        url = _site_url(reverse("season-detail", args=[season.slug])) + "#comments"
    return Message(title=title, quote=_clip(comment.text, COMMENT_QUOTED), url=url)


# --- the news in, as deliveries --------------------------------------------------------------


@dataclass
class _News:
    season: Season
    event: str
    key: str
    build: Callable[[], Message]
    hooks: list[ChatHook] = field(default_factory=list)


def _enqueue(news: _News, *, now: datetime) -> int:
    """A delivery of the news for each enabled hook of its season that posts it (none twice:
    the unique key); the sender queued once they are committed."""
    hooks = [
        hook
        for hook in ChatHook.objects.filter(season=news.season, enabled=True)
        if hook.posts(news.event)
    ]
    if not hooks:
        return 0
    with translation.override(_language(news.season)):
        message = news.build()
    # Due at once (a claim's ``now`` may be a later moment than the clock's: a test's, beat's).
    due = min(now, timezone.now())
    rows = [
        ChatDelivery(
            hook=hook,
            event=news.event,
            key=news.key,
            payload=payload_for(hook.kind, message),
            next_attempt_at=due,
        )
        for hook in hooks
    ]
    created = ChatDelivery.objects.bulk_create(rows, ignore_conflicts=True)
    deliveries_kick()
    return len(created)


def deliveries_kick() -> None:
    """Queue the sender once the current transaction commits (beat runs it anyway)."""
    from season.tasks import chat_deliveries_send_task

    transaction.on_commit(chat_deliveries_send_task.delay)


def round_opened(*, round: Round, now: datetime) -> int:
    return _enqueue(
        _News(
            round.season, ChatEvent.ROUND_OPEN, f"open:{round.pk}", lambda: _opened_message(round)
        ),
        now=now,
    )


def results_out(*, round: Round, now: datetime) -> int:
    """The round's results are out (published, or resolved where the season auto-publishes):
    their message, and the end of its race (its event's last round) or of the season."""
    season = round.season
    count = _enqueue(
        _News(season, ChatEvent.RESULTS, f"results:{round.pk}", lambda: _results_message(round)),
        now=now,
    )
    last_of_event = not Round.objects.filter(
        season_event_id=round.season_event_id, number__gt=round.number
    ).exists()
    if last_of_event:
        season_over = not season.rounds.filter(number__gt=round.number).exists()
        key = f"season-end:{season.pk}" if season_over else f"race-end:{round.season_event_id}"
        count += _enqueue(
            _News(
                season,
                ChatEvent.RACE_END,
                key,
                lambda: _end_message(round, season_over=season_over),
            ),
            now=now,
        )
    return count


def reminders_enqueue(*, now: datetime) -> int:
    """A reminder to the channels of each round open for orders whose deadline is less than
    REMINDER_BEFORE away (once per round and deadline: a deadline moved is reminded again)."""
    rounds = (
        Round.objects.select_related("season", "stage", "grand_prix")
        .filter(
            status=Round.Status.OPEN,
            orders_deadline__gt=now,
            orders_deadline__lte=now + REMINDER_BEFORE,
            season__chat_hooks__enabled=True,
            season__chat_hooks__on_reminder=True,
        )
        .distinct()
        .order_by("orders_deadline", "pk")
    )
    count = 0
    for round in rounds:
        assert round.orders_deadline is not None
        key = f"reminder:{round.pk}:{int(round.orders_deadline.timestamp())}"
        count += _enqueue(
            _News(round.season, ChatEvent.REMINDER, key, partial(_reminder_message, round)),
            now=now,
        )
    return count


def comment_posted(*, comment: Comment, now: datetime) -> int:
    return _enqueue(
        _News(
            comment.season,
            ChatEvent.COMMENT,
            f"comment:{comment.pk}",
            lambda: _comment_message(comment),
        ),
        now=now,
    )


def hook_test(*, hook: ChatHook, now: datetime | None = None) -> ChatDelivery:
    """A test message to ``hook`` (enabled or not), posted by the workers as any other."""
    now = now or timezone.now()
    if rate_take(f"chat-test:{hook.pk}", TESTS_PER_MINUTE, now=now) is not None:
        raise HookRefused(
            _("At most %(count)d test messages a minute: try again in a minute.")
            % {"count": TESTS_PER_MINUTE.count}
        )
    season = hook.season
    with translation.override(_language(season)):
        message = Message(
            title=_("%(season)s: a test message from Grand Tour") % {"season": season.name},
            lines=(_("This channel will get the season's news."),),
            url=_site_url(reverse("season-detail", args=[season.slug])),
        )
    with transaction.atomic():
        try:
            delivery = ChatDelivery.objects.create(
                hook=hook,
                event=ChatEvent.TEST,
                key=f"test:{now.timestamp():.6f}",
                payload=payload_for(hook.kind, message),
                next_attempt_at=now,
            )
        except IntegrityError as error:
            raise HookRefused(_("A test message was just sent: try again.")) from error
        deliveries_kick()
    return delivery


# --- posting ---------------------------------------------------------------------------------


#: HTTP statuses worth a retry: the receiver's trouble, or too many messages.
RETRIED_STATUSES = frozenset({408, 425, 429})


def _claim(now: datetime) -> ChatDelivery | None:
    """The next due delivery, claimed: its next attempt moved a lease ahead, its attempts
    counted. A row another worker holds is skipped, so none is posted twice."""
    with transaction.atomic():
        delivery = (
            ChatDelivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("hook")
            .filter(
                # A disabled hook's news waits; its test messages go (the organiser tries the
                # address before he enables it again).
                Q(hook__enabled=True) | Q(event=ChatEvent.TEST),
                status=ChatDelivery.Status.PENDING,
                next_attempt_at__lte=now,
            )
            .order_by("next_attempt_at", "pk")
            .first()
        )
        if delivery is None:
            return None
        # The conditional update backs the lock where there is none (SQLite): zero rows, and
        # another worker got there first.
        claimed = ChatDelivery.objects.filter(
            pk=delivery.pk,
            status=ChatDelivery.Status.PENDING,
            next_attempt_at=delivery.next_attempt_at,
        ).update(next_attempt_at=now + LEASE, attempts=F("attempts") + 1)
        if not claimed:
            return None
    delivery.attempts += 1
    return delivery


def answer_reason(answer: webhook_guard.Answer) -> str:
    """What went wrong, as the organiser's page shows it."""
    if answer.error:
        return _clip(answer.error, 300)
    body = " ".join(answer.body.split())
    return _clip(f"HTTP {answer.status}" + (f": {body}" if body else ""), 300)


def _retry_in(delivery: ChatDelivery, answer: webhook_guard.Answer) -> float | None:
    """Seconds to the next attempt, None to give up."""
    if delivery.attempts >= ATTEMPTS_MAX:
        return None
    if answer.error.startswith("refused address"):
        return None
    status = answer.status
    if status is not None and 400 <= status < 500 and status not in RETRIED_STATUSES:
        return None  # the address is wrong or gone (Discord's 404 of a deleted webhook)
    wait = float(BACKOFF[delivery.attempts - 1])
    if answer.retry_after is not None:
        wait = max(wait, min(answer.retry_after, RETRY_AFTER_MAX))
    return wait


def _record(delivery: ChatDelivery, answer: webhook_guard.Answer, *, now: datetime) -> bool:
    hook = delivery.hook
    if answer.ok:
        ChatDelivery.objects.filter(pk=delivery.pk).update(
            status=ChatDelivery.Status.SENT, sent_at=now, last_error=""
        )
        ChatHook.objects.filter(pk=hook.pk).update(last_success_at=now, failures=0)
        return True
    reason = answer_reason(answer)
    retry_in = _retry_in(delivery, answer)
    if retry_in is None:
        ChatDelivery.objects.filter(pk=delivery.pk).update(
            status=ChatDelivery.Status.FAILED, last_error=reason
        )
    else:
        ChatDelivery.objects.filter(pk=delivery.pk).update(
            next_attempt_at=now + timedelta(seconds=retry_in), last_error=reason
        )
    ChatHook.objects.filter(pk=hook.pk).update(
        last_failure_at=now, last_failure=reason, failures=F("failures") + 1
    )
    disabled = ChatHook.objects.filter(
        pk=hook.pk, enabled=True, failures__gte=DISABLE_AFTER
    ).update(enabled=False)
    if disabled:
        logger.warning("chat hook %s disabled after %d failures", hook.pk, DISABLE_AFTER)
    logger.info(
        "chat delivery %s to %s failed (attempt %d): %s",
        delivery.pk,
        hook.url_masked,
        delivery.attempts,
        reason,
    )
    return False


def deliveries_send(
    *, now: datetime | None = None, limit: int = BATCH, transport: Any = None
) -> int:
    """Post the due deliveries (at most ``limit``); return how many were sent."""
    sent = 0
    for _i in range(limit):
        moment = now or timezone.now()
        delivery = _claim(moment)
        if delivery is None:
            break
        answer = webhook_guard.json_post(
            delivery.hook.url,
            delivery.payload,
            allow_private=_allow_private(),
            transport=transport,
        )
        sent += _record(delivery, answer, now=now or timezone.now())
    return sent


@dataclass(frozen=True)
class ShownHook:
    """A hook on the organiser's page."""

    hook: ChatHook
    events: list[str]


def hooks_shown(*, season: Season) -> list[ShownHook]:
    labels = dict(ChatEvent.choices)
    shown = []
    for hook in ChatHook.objects.filter(season=season).order_by("pk"):
        events = [
            str(labels[event])
            for event in ChatEvent.values
            if event != ChatEvent.TEST and hook.posts(event)
        ]
        shown.append(ShownHook(hook=hook, events=events))
    return shown


def deliveries_recent(*, season: Season, count: int = 30) -> list[ChatDelivery]:
    return list(
        ChatDelivery.objects.filter(hook__season=season)
        .select_related("hook")
        .order_by("-created_at", "-pk")[:count]
    )
