"""A member's API token (accounts.models.ApiToken): made, renewed and revoked by the member, and
the member a request's key belongs to. The key is random (256 bits), kept only as its SHA-256
digest; a request's key is looked up by its digest, so no comparison of secrets runs in
Python (the digest of a guess reveals nothing of the key's)."""

import hashlib
import secrets
from typing import Any

from django.db import transaction

from accounts.models import ApiToken

#: What every key starts with, so that a leaked key is recognised as ours by secret scanners.
KEY_PREFIX = "gt_"


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@transaction.atomic
def api_token_renew(*, user: Any) -> str:
    """A new key for the member, replacing any earlier one (which stops working at once); the
    key itself, to be shown once."""
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    ApiToken.objects.filter(user=user).delete()
    ApiToken.objects.create(user=user, digest=_digest(key), prefix=key[:8])
    return key


def api_token_revoke(*, user: Any) -> bool:
    """The member's key stops working; False when he had none."""
    deleted, _ = ApiToken.objects.filter(user=user).delete()
    return bool(deleted)


def api_token_of(*, user: Any) -> ApiToken | None:
    return ApiToken.objects.filter(user=user).first()


def api_token_user(*, key: str) -> ApiToken | None:
    """The token (with its member) whose key this is; None for an unknown key or an inactive
    member."""
    if not key or len(key) > 100:
        return None
    token = ApiToken.objects.select_related("user").filter(digest=_digest(key)).first()
    if token is None or not token.user.is_active:
        return None
    return token
