from django import forms
from django.conf import settings
from django.contrib.auth.forms import (
    AdminPasswordChangeForm,
    AuthenticationForm,
    PasswordChangeForm,
    SetPasswordForm,
    UserCreationForm,
)
from django.contrib.auth.hashers import check_password
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.names import NAME_MAX, NAME_MIN, validate_player_name
from accounts.services import ban_in_force, ban_message
from games.selectors import name_left_in_games


class RegistrationForm(UserCreationForm):
    """Username, e-mail (for password resets) and a password checked by the validators."""

    email = forms.EmailField(
        label=_("E-mail address"),
        required=True,
        help_text=_("Only used to reset a forgotten password. Never shown."),
    )

    class Meta:
        model = User
        fields = ("username", "email")
        labels = {"username": _("Player name")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["username"]
        field.max_length = NAME_MAX
        field.widget.attrs.update(maxlength=str(NAME_MAX), minlength=str(NAME_MIN))
        field.help_text = _("%(min)s to %(max)s characters: letters, digits, _ and -.") % {
            "min": NAME_MIN,
            "max": NAME_MAX,
        }

    def clean_username(self):
        username = self.cleaned_data.get("username") or ""
        validate_player_name(username)
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("A player with this name already exists."), code="unique")
        if name_left_in_games(username):
            raise forms.ValidationError(
                _("A deleted account played under this name, and its games still show it."),
                code="unique",
            )
        return username

    def clean_email(self):
        email = self.cleaned_data["email"].strip()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account with this e-mail address already exists."))
        return email


class LoginForm(AuthenticationForm):
    """Django's login form that also turns banned players away."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].label = _("Player name")

    def get_invalid_login_error(self):
        message = _(
            "Please enter a correct player name and password. Passwords are case-sensitive; "
            "player names are not."
        )
        return forms.ValidationError(message, code="invalid_login")

    def confirm_login_allowed(self, user):
        super().confirm_login_allowed(user)
        if ban_in_force(user):
            raise forms.ValidationError(ban_message(user), code="banned")


class PasswordOnlyMixin:
    """Save the password column alone, never a rating or a ban read with the user."""

    def set_password_and_save(self, user, *args, commit=True, **kwargs):
        user = super().set_password_and_save(user, *args, commit=False, **kwargs)
        if commit:
            user.save(update_fields=["password"])
        return user


class PasswordSetForm(PasswordOnlyMixin, SetPasswordForm):
    """The new password after a reset link."""


class PasswordChangeOnlyForm(PasswordOnlyMixin, PasswordChangeForm):
    """The password change of a logged-in player."""


class AdminPasswordOnlyForm(PasswordOnlyMixin, AdminPasswordChangeForm):
    """A moderator sets a player's password (or makes it unusable) in the admin."""


def current_password_field(**kwargs) -> forms.CharField:
    widget = forms.PasswordInput(attrs={"autocomplete": "current-password"})
    return forms.CharField(label=_("Current password"), strip=False, widget=widget, **kwargs)


class SettingsForm(forms.ModelForm):
    """The player's settings; a new e-mail address (where resets go) needs the password."""

    current_password = current_password_field(
        required=False, help_text=_("Needed only to change your e-mail address.")
    )
    language = forms.ChoiceField(
        choices=[("", _("Same as my browser")), *settings.LANGUAGES],
        required=False,
        label=_("Display language"),
    )
    field_order = ("email", "current_password")

    class Meta:
        model = User
        fields = ("email", "language", "bio", "show_online_status")
        labels = {"bio": _("About me"), "show_online_status": _("Show when I am online")}
        help_texts = {
            "bio": _("Shown on the public profile."),
            "show_online_status": _("Let other players see when you are online."),
        }
        widgets = {"bio": forms.Textarea(attrs={"rows": 3})}

    def save(self, commit=True):
        """Write the form's own columns only, never a rating or a ban read with the user."""
        user = super().save(commit=False)
        if commit:
            user.save(update_fields=list(self._meta.fields))
        return user

    def clean_email(self):
        """A new address needs the current password, checked first, so the answer tells
        nothing of anyone's address."""
        email = self.cleaned_data["email"].strip()
        if email.lower() == (self.instance.email or "").lower():
            return email
        typed = self.data.get("current_password") or ""
        # Not User.check_password: an upgrade of the stored hash would close the player's sockets.
        if not isinstance(typed, str) or not check_password(typed, self.instance.password):
            self.add_error(
                "current_password", _("Type your current password to change your e-mail address.")
            )
            return self.instance.email
        others = User.objects.exclude(pk=self.instance.pk)
        if email and others.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account with this e-mail address already exists."))
        return email


class AccountDeleteForm(forms.Form):
    """Deleting one's own account takes the password: an open session is not enough."""

    password = current_password_field()

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                _("That is not your password: nothing was deleted."), code="password_incorrect"
            )
        return password
