"""How often a client may call the API (accounts.rate_limits, the counters of the other limits):
API_RATE_ANONYMOUS requests per API_RATE_SECONDS for an address without a token,
API_RATE_TOKEN for a member's token, counted per window of the clock; past it, 429 with
Retry-After (the seconds until the next window)."""

import math
from typing import Any

from django.conf import settings
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from accounts.rate_limits import Limit, rate_take


class ApiRateThrottle(BaseThrottle):
    def allow_request(self, request: Request, view: Any) -> bool:
        token = request.auth
        if token is not None:
            bucket, count = f"api:token:{token.pk}", settings.API_RATE_TOKEN
        else:
            # The client's address as the server sees it (never X-Forwarded-For, which any
            # client writes): behind a proxy, the proxy's, as for the other limits.
            address = request.META.get("REMOTE_ADDR", "")
            bucket, count = f"api:ip:{address}", settings.API_RATE_ANONYMOUS
        now = timezone.now()
        until = rate_take(bucket, Limit(count=count, seconds=settings.API_RATE_SECONDS), now=now)
        self._wait = None if until is None else max(1, math.ceil((until - now).total_seconds()))
        return until is None

    def wait(self) -> float | None:
        return self._wait
