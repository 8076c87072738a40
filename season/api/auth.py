"""Who calls the API: a member by his token (``Authorization: Bearer <token>``, or ``Token``),
else an anonymous client. No session: a browser's cookies never act on the API."""

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from accounts.api_tokens import api_token_user

KEYWORDS = ("bearer", "token")


class ApiTokenAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if not header:
            return None
        parts = header.split()
        if not parts or parts[0].lower() not in KEYWORDS:
            raise AuthenticationFailed(
                _('The Authorization header is not "Bearer <token>" (or "Token <token>").')
            )
        if len(parts) != 2:
            raise AuthenticationFailed(_("The Authorization header holds no single token."))
        token = api_token_user(key=parts[1])
        if token is None:
            raise AuthenticationFailed(_("Unknown or revoked API token."))
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        # Makes a refused token a 401 (with this challenge), not a 403.
        return 'Bearer realm="api"'


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """The token in the OpenAPI schema: an HTTP bearer scheme."""

    target_class = "season.api.auth.ApiTokenAuthentication"
    name = "ApiToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A member's API token, made on /accounts/api/.",
        }
