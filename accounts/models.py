from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.utils import timezone

from accounts import access as sockets


def shown_rating(mu: float, sigma: float) -> int:
    """The rating players see: a cautious estimate (mu - 3 sigma), 1000 for a newcomer."""
    return round(1000 + 40 * (mu - 3 * sigma))


def user_or_none(related_name: str = "+", **options) -> models.ForeignKey:
    """A link to a user that outlives their account: empty once it is deleted."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name=related_name,
        **options,
    )


class PlayerManager(UserManager):
    def get_by_natural_key(self, username):
        """The account of ``username`` in any case, as sign-up compares names ("mia" logs in
        as "Mia"); where older names differ only in case, only the exact one."""
        try:
            return self.get(username=username)
        except self.model.DoesNotExist:
            matches = list(self.filter(username__iexact=username)[:2])
            if len(matches) != 1:
                raise
            return matches[0]


class User(AbstractUser):
    """A player. Add profile fields and preferences here, never in a side table."""

    objects = PlayerManager()

    language = models.CharField(
        max_length=10,
        choices=settings.LANGUAGES,
        blank=True,
        help_text="Language of the site for this player; blank follows the browser.",
    )
    time_zone = models.CharField(
        max_length=64,
        blank=True,
        help_text="The player's time zone (IANA name), from their browser: e-mails write "
        "deadlines in it; blank: the site's.",
    )
    bio = models.CharField(max_length=280, blank=True, help_text="Shown on the public profile.")
    show_online_status = models.BooleanField(
        default=True, help_text="Let other players see when you are online."
    )
    chat_enabled = models.BooleanField(
        default=True, help_text="Show the chat of lobbies and games (off: neither see nor post)."
    )
    is_banned = models.BooleanField(default=False)
    ban_reason = models.CharField(max_length=500, blank=True)
    banned_at = models.DateTimeField(null=True, blank=True)
    banned_until = models.DateTimeField(
        null=True, blank=True, help_text="When a ban for a time ends; empty: banned for good."
    )
    warning = models.CharField(
        max_length=500,
        blank=True,
        help_text="A moderator's warning, shown on every page until the player has read it.",
    )
    rating_mu = models.FloatField(default=25.0, help_text="OpenSkill skill estimate.")
    rating_sigma = models.FloatField(default=25.0 / 3, help_text="OpenSkill uncertainty.")
    rated_games = models.PositiveIntegerField(default=0)
    corr_rating_mu = models.FloatField(
        default=25.0, help_text="OpenSkill skill estimate in correspondence games."
    )
    corr_rating_sigma = models.FloatField(
        default=25.0 / 3, help_text="OpenSkill uncertainty in correspondence games."
    )
    corr_rated_games = models.PositiveIntegerField(default=0)

    PROVISIONAL_GAMES = 5
    # The fields of each rating (live, correspondence): mu, sigma and rated games.
    RATING_FIELDS = {
        "live": ("rating_mu", "rating_sigma", "rated_games"),
        "correspondence": ("corr_rating_mu", "corr_rating_sigma", "corr_rated_games"),
    }

    @property
    def rating(self) -> int:
        """The shown rating (:func:`shown_rating`)."""
        return shown_rating(self.rating_mu, self.rating_sigma)

    @property
    def rating_is_provisional(self) -> bool:
        return self.rated_games < self.PROVISIONAL_GAMES

    @property
    def corr_rating(self) -> int:
        """The shown correspondence rating, kept apart from the live one."""
        return shown_rating(self.corr_rating_mu, self.corr_rating_sigma)

    @property
    def corr_rating_is_provisional(self) -> bool:
        return self.corr_rated_games < self.PROVISIONAL_GAMES

    def save(self, *args, **kwargs):
        # A new password ends every session of this player: their sockets close too.
        password_changed = self._password is not None and not self._state.adding
        super().save(*args, **kwargs)
        if password_changed:
            sockets.close_user_sockets(self.pk)

    BAN_FIELDS = ("is_banned", "ban_reason", "banned_at", "banned_until")

    def ban(self, reason: str = "", until=None) -> None:
        """Ban this player until ``until`` (``None``: for good); their sockets close."""
        self.is_banned = True
        self.ban_reason = reason
        self.banned_at = timezone.now()
        self.banned_until = until
        self.save(update_fields=self.BAN_FIELDS)
        sockets.close_user_sockets(self.pk)

    def unban(self) -> None:
        self.is_banned = False
        self.ban_reason = ""
        self.banned_at = None
        self.banned_until = None
        self.save(update_fields=self.BAN_FIELDS)

    @property
    def ban_has_ended(self) -> bool:
        """A ban for a time whose time is up (``accounts.services.ban_in_force`` lifts it)."""
        return (
            self.is_banned and self.banned_until is not None and self.banned_until <= timezone.now()
        )
