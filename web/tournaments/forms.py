"""The form that makes a tournament: a private one on the tournaments page
(web.tournaments.views), a public one on the moderators' (web.moderation.views)."""

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from core.errors import ServiceError
from games.bots import LEVELS
from games.labels import BOT_LEVEL_LABELS
from games.models import TURN_CLOCKS
from tournaments import services
from tournaments.models import DURATIONS, MAX_ROUNDS, Tournament

KINDS = [("arena", _("Arena")), ("swiss", _("Swiss"))]
REPEATS = [("", _("Once")), ("hourly", _("Hourly")), ("daily", _("Daily")), ("weekly", _("Weekly"))]


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60)
    kind = forms.ChoiceField(label=_("Format"), choices=KINDS)
    starts_at = forms.DateTimeField(
        label=_("Start"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("In your time zone."),
    )
    duration = forms.TypedChoiceField(
        label=_("Arena: minutes"),
        choices=[(d, d) for d in DURATIONS],
        coerce=int,
        initial=60,
    )
    rounds = forms.IntegerField(
        label=_("Swiss: rounds"), min_value=1, max_value=MAX_ROUNDS, initial=5
    )
    table_min = forms.IntegerField(label=_("Smallest table"), min_value=2, max_value=4, initial=2)
    table_max = forms.IntegerField(label=_("Largest table"), min_value=2, max_value=4, initial=4)
    max_players = forms.IntegerField(
        label=_("Most players"), min_value=2, max_value=1000, initial=100
    )
    turn_clock = forms.TypedChoiceField(
        label=_("Turn clock"),
        choices=[(s, format_lazy(_("{seconds} seconds"), seconds=s)) for s in TURN_CLOCKS if s],
        coerce=int,
        initial=30,
    )
    end_score = forms.IntegerField(label=_("End score"), min_value=1, max_value=1000, initial=100)
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    bots = forms.IntegerField(label=_("Bots"), min_value=0, max_value=1000, initial=0)
    bot_level = forms.ChoiceField(
        label=_("Bot level"), choices=[(k, BOT_LEVEL_LABELS[k]) for k in LEVELS], initial="medium"
    )
    repeat = forms.ChoiceField(label=_("Repeat"), choices=REPEATS, required=False)

    def __init__(self, *args, public: bool = False, **kwargs):
        """``public``: a public tournament, once or repeating (moderators); else a private one."""
        super().__init__(*args, **kwargs)
        self.public = public
        if not public:
            del self.fields["repeat"]

    def create(self, *, by) -> Tournament | None:
        """The tournament this valid form describes, made by ``by`` through
        tournaments.services.tournament_create; ``None`` when refused, the refusal then among the
        form's errors."""
        data = {"repeat": "", **self.cleaned_data, "is_public": self.public}
        try:
            return services.tournament_create(by=by, **data)
        except ServiceError as exc:
            self.add_error(None, exc.message)
            return None
