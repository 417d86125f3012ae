from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin

from accounts import services
from accounts.admin_saves import ChangedColumnsOnly
from accounts.forms import AdminPasswordOnlyForm
from accounts.models import User


class BanActionForm(ActionForm):
    reason = forms.CharField(
        required=False,
        max_length=services.MAX_REASON,
        help_text="Shown to the player when they try to log in.",
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
            "Ban (use the Ban and Unban actions of the list)",
            {"fields": ("is_banned", "ban_reason", "banned_at")},
        ),
    )
    # Bans go through accounts.services (the actions), which also ends the player's access.
    readonly_fields = ("is_banned", "ban_reason", "banned_at")
    action_form = BanActionForm
    actions = ("ban_users", "unban_users")

    @admin.action(description="Ban selected users (with the reason typed beside the action)")
    def ban_users(self, request, queryset):
        reason = request.POST.get("reason", "")
        banned = sum(
            services.user_ban(user_id=pk, reason=reason, moderator=request.user)
            for pk in queryset.values_list("pk", flat=True)
        )
        self.message_user(request, f"Banned {banned} user(s).", messages.SUCCESS)

    @admin.action(description="Unban selected users")
    def unban_users(self, request, queryset):
        unbanned = sum(
            services.user_unban(user_id=pk) for pk in queryset.values_list("pk", flat=True)
        )
        self.message_user(request, f"Unbanned {unbanned} user(s).", messages.SUCCESS)
