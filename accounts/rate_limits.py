"""Counters of what a person may do so often (invitations, password-reset e-mails, comments):
one counter per bucket and window of the clock, in Django's cache (atomic on Redis and in
memory). A cache that does not answer lets the action through and logs it: the cache is never
what stops the league."""

import logging
from dataclasses import dataclass
from datetime import UTC, datetime

from django.core.cache import cache

logger = logging.getLogger(__name__)

PREFIX = "gt:rate:"


@dataclass(frozen=True)
class Limit:
    """At most ``count`` times in each window of ``seconds`` of the clock."""

    count: int
    seconds: int


def rate_take(bucket: str, limit: Limit, *, now: datetime, amount: int = 1) -> datetime | None:
    """Count ``amount`` more actions (one by default; the odds count runs) in ``bucket``; None
    when they are allowed, else the time the next window opens (when to try again)."""
    window = int(now.timestamp()) // limit.seconds
    key = f"{PREFIX}{bucket}:{window}"
    try:
        cache.add(key, 0, limit.seconds * 2)
        try:
            count = cache.incr(key, amount)
        except ValueError:  # expired between add and incr
            cache.set(key, amount, limit.seconds * 2)
            count = amount
    except Exception:
        logger.warning("rate limit %s not counted: the cache does not answer", bucket)
        return None
    if count <= limit.count:
        return None
    return datetime.fromtimestamp((window + 1) * limit.seconds, tz=UTC)


def rate_give_back(bucket: str, limit: Limit, *, at: datetime, amount: int) -> None:
    """Give back ``amount`` actions counted by :func:`rate_take` at ``at`` (in that window; the
    odds' runs never counted). A window gone, or a cache that does not answer: nothing."""
    window = int(at.timestamp()) // limit.seconds
    key = f"{PREFIX}{bucket}:{window}"
    try:
        cache.decr(key, amount)
    except ValueError:  # the window's counter expired
        return
    except Exception:
        logger.warning("rate limit %s not given back: the cache does not answer", bucket)
