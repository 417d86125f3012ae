"""The admin site: a staff member's own password change saves the password column alone (the
whole row would put back a rating or a ban written meanwhile)."""

from django.contrib.admin import AdminSite
from django.contrib.admin.forms import AdminPasswordChangeForm
from django.contrib.auth.views import PasswordChangeView
from django.urls import reverse

from web.accounts.forms import PasswordOnlyMixin


class OwnPasswordChangeForm(PasswordOnlyMixin, AdminPasswordChangeForm):
    pass


class SiteAdmin(AdminSite):
    def password_change(self, request, extra_context=None):
        """AdminSite.password_change with OwnPasswordChangeForm (and no password_change_template)."""
        view = PasswordChangeView.as_view(
            form_class=OwnPasswordChangeForm,
            success_url=reverse("admin:password_change_done", current_app=self.name),
            extra_context={**self.each_context(request), **(extra_context or {})},
        )
        request.current_app = self.name
        return view(request)
