from django import forms
from django.utils.translation import gettext_lazy as _

from riders.models import RATING_AXES, Rider

RATING_INVALID = _("%(value)s is not a rating: ratings go from H (handicap) to 4 (mythical).")


class RiderForm(forms.ModelForm):
    class Meta:
        model = Rider
        fields = [
            "name",
            "team",
            "nationality",
            "birth_date",
            "pcs_slug",
            *RATING_AXES,
            "profile_flagged",
        ]

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        for axis in RATING_AXES:
            self.fields[axis].error_messages["invalid_choice"] = RATING_INVALID
