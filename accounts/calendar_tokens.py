"""The private address of a member's calendar feed: a token in the address, ``selector`` +
``secret``. The selector (16 hex digits) finds the row; the secret (``secrets.token_urlsafe``,
256 bits) is compared in constant time, so neither a guess nor the timing of the answers tells
anything of it. The member sees his address on his seasons' page and renews it there: the old
address then finds no row, or the wrong secret (404 either way)."""

import hmac
import secrets
from typing import Any

from django.db import IntegrityError, transaction

from accounts.models import CalendarToken

SELECTOR_LENGTH = 16


def _new_parts() -> tuple[str, str]:
    return secrets.token_hex(SELECTOR_LENGTH // 2), secrets.token_urlsafe(32)


def _token(row: CalendarToken) -> str:
    return f"{row.selector}{row.secret}"


def calendar_token_get(*, user: Any) -> str:
    """The member's calendar token, made on first use."""
    row = CalendarToken.objects.filter(user=user).first()
    if row is not None:
        return _token(row)
    selector, secret = _new_parts()
    try:
        with transaction.atomic():
            row = CalendarToken.objects.create(user=user, selector=selector, secret=secret)
    except IntegrityError:  # made meanwhile by another request of the same member
        row = CalendarToken.objects.get(user=user)
    return _token(row)


def calendar_token_renew(*, user: Any) -> str:
    """A new token for the member: the address of the old one stops working at once."""
    selector, secret = _new_parts()
    CalendarToken.objects.update_or_create(
        user=user, defaults={"selector": selector, "secret": secret}
    )
    return f"{selector}{secret}"


def calendar_token_user(token: str) -> Any | None:
    """The active member whose token this is (with his profile), or None (one query)."""
    selector, secret = token[:SELECTOR_LENGTH], token[SELECTOR_LENGTH:]
    if len(selector) != SELECTOR_LENGTH or not secret:
        return None
    row = (
        CalendarToken.objects.filter(selector=selector, user__is_active=True)
        .select_related("user__profile")
        .first()
    )
    if row is None or not hmac.compare_digest(row.secret.encode(), secret.encode()):
        return None
    return row.user
