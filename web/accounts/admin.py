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
from web.accounts.admin_saves import ChangedColumnsOnly
from web.accounts.forms import AdminPasswordOnlyForm


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
        try:
            reason = request.POST.get("reason", "")
            banned = sum(
                moderation.player_ban(
                    moderator=request.user, user_id=pk, reason=reason, until=until
                )
                for pk in queryset.exclude(pk=request.user.pk).values_list("pk", flat=True)
            )
        except ServiceError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return
        self.message_user(request, f"Banned {banned} user(s).", messages.SUCCESS)

    @admin.action(description="Unban selected users")
    def unban_users(self, request, queryset):
        try:
            unbanned = sum(
                moderation.player_unban(moderator=request.user, user_id=pk)
                for pk in queryset.values_list("pk", flat=True)
            )
        except ServiceError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return
        self.message_user(request, f"Unbanned {unbanned} user(s).", messages.SUCCESS)
