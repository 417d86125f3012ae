from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils import timezone

from accounts import services
from accounts.models import User
from core.errors import ServiceError
from moderation import services as moderation
from web.accounts.forms import AdminPasswordOnlyForm


class ChangedColumnsOnly:
    """ModelAdmin mixin: a change writes only the fields its form changed against what the page
    showed, never putting back what another writer saved meanwhile."""

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        if obj is not None:
            for field in form.base_fields.values():
                field.show_hidden_initial = True
        return form

    def save_model(self, request, obj, form, change):
        if not change:
            return super().save_model(request, obj, form, change)
        columns = {field.name for field in obj._meta.concrete_fields}
        fields = [name for name in form.changed_data if name in columns]
        if fields:
            obj.save(update_fields=fields)

    def save_related(self, request, form, formsets, change):
        if change:  # form.save_m2m() writes the many-to-many fields left in cleaned_data
            for field in form.instance._meta.many_to_many:
                if field.name not in form.changed_data:
                    form.cleaned_data.pop(field.name, None)
        super().save_related(request, form, formsets, change)


class BanActionForm(ActionForm):
    reason = forms.CharField(
        required=False,
        max_length=services.MAX_REASON,
        help_text="Shown to the player when they try to log in (required for a ban).",
    )
    days = forms.IntegerField(
        required=False, min_value=1, max_value=3650, help_text="Days of the ban; empty: for good."
    )


@admin.register(User)
class UserAdmin(ChangedColumnsOnly, DjangoUserAdmin):
    change_password_form = AdminPasswordOnlyForm

    list_display = ("username", "email", "date_joined", "last_login", "is_staff", "is_banned")
    list_filter = ("is_banned", "is_staff", "is_superuser", "is_active")
    search_fields = ("username", "email", "first_name", "last_name")
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        ("Profile and preferences", {"fields": ("bio", "language", "show_online_status")}),
        (
            "Ban (use the Ban and Unban actions of the list, or the moderation pages)",
            {"fields": ("is_banned", "ban_reason", "banned_at", "banned_until")},
        ),
    )
    # Bans go through moderation.services: it ends the player's access and writes the audit log.
    readonly_fields = ("is_banned", "ban_reason", "banned_at", "banned_until")
    action_form = BanActionForm
    actions = ("ban_users", "unban_users")

    @admin.action(description="Ban selected users (with the reason and days typed beside it)")
    def ban_users(self, request, queryset):
        try:
            days = BanActionForm.base_fields["days"].clean(request.POST.get("days"))
        except forms.ValidationError:
            self.message_user(request, "Days: a whole number from 1 to 3650.", messages.ERROR)
            return
        until = timezone.now() + timedelta(days=days) if days else None
        reason = request.POST.get("reason", "")
        queryset = queryset.exclude(pk=request.user.pk)
        self._act(request, queryset, moderation.player_ban, "Banned", reason=reason, until=until)

    @admin.action(description="Unban selected users")
    def unban_users(self, request, queryset):
        self._act(request, queryset, moderation.player_unban, "Unbanned")

    def _act(self, request, queryset, service, done: str, **kwargs) -> None:
        pks = queryset.values_list("pk", flat=True)
        try:
            count = sum(service(moderator=request.user, user_id=pk, **kwargs) for pk in pks)
        except ServiceError as exc:
            self.message_user(request, exc.message, messages.ERROR)
        else:
            self.message_user(request, f"{done} {count} user(s).", messages.SUCCESS)
