"""Every error of the API as JSON: ``{"detail": "..."}``, with ``errors`` (parameter ->
messages) for a bad parameter."""

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ValidationError) and isinstance(response.data, dict):
        errors = {name: [str(m) for m in messages] for name, messages in response.data.items()}
        names = ", ".join(sorted(errors))
        response.data = {
            "detail": _("Bad parameter: %(names)s.") % {"names": names},
            "errors": errors,
        }
    return response
