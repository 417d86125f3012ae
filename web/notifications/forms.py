from django import forms
from django.utils.translation import gettext_lazy as _

from notifications.models import QUIET_MAX


class PreferenceForm(forms.Form):
    """The e-mail settings (the service checks the quiet time again)."""

    turn_email = forms.BooleanField(
        label=_("E-mail me when a correspondence game waits for my move"), required=False
    )
    reminder_email = forms.BooleanField(
        label=_("E-mail me when a quarter of my time for a move is left"), required=False
    )
    digest = forms.BooleanField(
        label=_("One e-mail a day listing the games waiting, instead of one per turn"),
        required=False,
    )
    quiet_minutes = forms.IntegerField(
        label=_("Quiet time (minutes)"),
        min_value=0,
        max_value=QUIET_MAX,
        help_text=_("At most one e-mail per game within this time; 0: no quiet time."),
    )
