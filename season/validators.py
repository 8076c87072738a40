"""Checks of what people type, shared by the models (admin, services) and the forms."""

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

#: Unicode categories a name shown to other people may not hold: control characters (Cc),
#: invisible formatting such as the bidirectional overrides U+202E and U+2066-U+2069 that make
#: a name read backwards (Cf), surrogates, private use and unassigned code points, and line or
#: paragraph separators.
FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def validate_display_name(value: str) -> None:
    """A season's or a team's name: printable characters only, named when refused."""
    for char in value:
        if unicodedata.category(char) in FORBIDDEN_CATEGORIES:
            raise ValidationError(
                _(
                    "Names cannot contain control or invisible formatting characters "
                    "(found %(code)s)."
                ),
                code="unprintable",
                params={"code": f"U+{ord(char):04X}"},
            )
