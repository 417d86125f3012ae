"""Forms of the report pages and of the moderators' actions."""

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from moderation.models import Report
from moderation.services import MAX_REASON, MAX_TEXT

DURATIONS = {  # choice: (label, length; None: for good)
    "1h": (_("1 hour"), timedelta(hours=1)),
    "1d": (_("1 day"), timedelta(days=1)),
    "7d": (_("7 days"), timedelta(days=7)),
    "30d": (_("30 days"), timedelta(days=30)),
    "forever": (_("For good"), None),
}
SILENCE_CHOICES = [(key, DURATIONS[key][0]) for key in ("1h", "1d", "7d", "30d")]
BAN_CHOICES = [(key, DURATIONS[key][0]) for key in ("1d", "7d", "30d", "forever")]


class ReportForm(forms.Form):
    reason = forms.ChoiceField(
        label=_("What is wrong?"), choices=Report.Reason.choices, widget=forms.RadioSelect
    )
    text = forms.CharField(
        label=_("Tell the moderators more (optional)"),
        max_length=MAX_TEXT,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args, targets=None, **kwargs):
        super().__init__(*args, **kwargs)
        if targets:
            self.fields = {
                "target": forms.ChoiceField(
                    label=_("What do you report?"), choices=targets, widget=forms.RadioSelect
                ),
                **self.fields,
            }


class ActionForm(forms.Form):
    """A moderator's action: an optional note (a reason), the report it answers, where to go
    back to; ``refused``: what the moderator reads when it is not valid."""

    refused = _("Give a reason: the player will read it.")
    reason = forms.CharField(label=_("Reason"), max_length=MAX_REASON, required=False)
    report = forms.IntegerField(required=False, widget=forms.HiddenInput)
    next = forms.CharField(required=False, widget=forms.HiddenInput)


class WarnForm(ActionForm):
    """A warning: a reason the player reads."""

    reason = forms.CharField(
        label=_("Reason (the player reads it)"), max_length=MAX_REASON, required=True
    )


class SanctionForm(WarnForm):
    """A silence or a ban: for how long, and a reason the player reads."""

    refused = _("Give a reason (the player reads it) and a duration.")
    duration = forms.ChoiceField(label=_("For"), choices=SILENCE_CHOICES)

    def until(self):
        span = DURATIONS[self.cleaned_data["duration"]][1]
        return None if span is None else timezone.now() + span


class BanForm(SanctionForm):
    duration = forms.ChoiceField(label=_("For"), choices=BAN_CHOICES)
