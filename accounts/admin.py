from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils import timezone

from accounts import sockets
from accounts.admin_saves import ChangedColumnsOnly
from accounts.forms import AdminPasswordOnlyForm
from accounts.models import User


@admin.register(User)
class UserAdmin(ChangedColumnsOnly, DjangoUserAdmin):
    change_password_form = AdminPasswordOnlyForm

    list_display = ("username", "email", "date_joined", "last_login", "is_staff", "is_banned")
    list_filter = ("is_banned", "is_staff", "is_superuser", "is_active")
    search_fields = ("username", "email", "first_name", "last_name")
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        ("Profile and preferences", {"fields": ("bio", "language", "show_online_status")}),
        ("Ban", {"fields": ("is_banned", "ban_reason", "banned_at")}),
    )
    actions = ("ban_users", "unban_users")

    @admin.action(description="Ban selected users")
    def ban_users(self, request, queryset):
        banned = queryset.exclude(pk=request.user.pk)
        ids = list(banned.values_list("pk", flat=True))
        count = banned.update(is_banned=True, banned_at=timezone.now())
        for user_id in ids:
            sockets.close_user_sockets(user_id)
        self.message_user(request, f"Banned {count} user(s).", messages.SUCCESS)

    @admin.action(description="Unban selected users")
    def unban_users(self, request, queryset):
        count = queryset.update(is_banned=False, ban_reason="", banned_at=None)
        self.message_user(request, f"Unbanned {count} user(s).", messages.SUCCESS)
