from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import REMINDER_HOURS
from accounts.rate_limits import Limit, rate_take


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"), help_text=_("For orders reminders and results; never shown to others.")
    )

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account already uses this email address."))
        return email


#: Password-reset e-mails asked for one address, and from one client address, in an hour.
RESETS_PER_ADDRESS = Limit(count=3, seconds=3600)
RESETS_PER_CLIENT = Limit(count=10, seconds=3600)


class LimitedPasswordResetForm(PasswordResetForm):
    """Django's reset form, counted per address and per client: beyond the limit it says when
    to try again and sends nothing. It counts every address asked for, an account's or not,
    so its answer tells nobody which addresses have an account."""

    def __init__(self, *args: object, client: str = "", **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.client = client

    def clean_email(self) -> str:
        email = str(self.cleaned_data["email"]).strip().lower()
        now = timezone.now()
        for bucket, limit in (
            (f"reset-client:{self.client}", RESETS_PER_CLIENT),
            (f"reset-address:{email}", RESETS_PER_ADDRESS),
        ):
            again = rate_take(bucket, limit, now=now)
            if again is not None:
                raise forms.ValidationError(
                    gettext(
                        "Too many password-reset e-mails asked for in an hour: "
                        "try again after %(time)s."
                    )
                    % {"time": timezone.localtime(again).strftime("%H:%M")}
                )
        return email


class ReminderChoiceForm(forms.Form):
    """When and where a member is reminded of missing orders (accounts.reminders checks it)."""

    hours = forms.TypedMultipleChoiceField(
        label=_("Remind me before each deadline"),
        choices=[(h, format_lazy(_("{hours} h before"), hours=h)) for h in REMINDER_HOURS],
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Tick none for no reminders."),
    )
    by_email = forms.BooleanField(label=_("By e-mail"), required=False)
    in_app = forms.BooleanField(
        label=_("In the app (the bell)"),
        required=False,
        help_text=_("The same ways tell you when a deadline passed without your orders."),
    )
