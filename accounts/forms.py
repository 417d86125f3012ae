from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from accounts.models import User


class RegistrationForm(UserCreationForm):
    """Username, e-mail (for password resets) and a password checked by the validators."""

    email = forms.EmailField(
        required=True, help_text="Only used to reset a forgotten password. Never shown."
    )

    class Meta:
        model = User
        fields = ("username", "email")

    def clean_email(self):
        email = self.cleaned_data["email"].strip()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError("An account with this e-mail address already exists.")
        return email


class LoginForm(AuthenticationForm):
    """Django's login form that also turns banned players away."""

    def confirm_login_allowed(self, user):
        super().confirm_login_allowed(user)
        if user.is_banned:
            raise forms.ValidationError(
                f"This account is banned: {user.ban_reason or 'no reason given'}",
                code="banned",
            )


class SettingsForm(forms.ModelForm):
    language = forms.ChoiceField(
        choices=[("", "Same as my browser"), *settings.LANGUAGES],
        required=False,
        label="Display language",
    )

    class Meta:
        model = User
        fields = ("email", "language", "bio", "show_online_status")
        labels = {"bio": "About me", "show_online_status": "Show when I am online"}
        widgets = {"bio": forms.Textarea(attrs={"rows": 3})}

    def clean_email(self):
        email = self.cleaned_data["email"].strip()
        others = User.objects.exclude(pk=self.instance.pk)
        if email and others.filter(email__iexact=email).exists():
            raise forms.ValidationError("An account with this e-mail address already exists.")
        return email
