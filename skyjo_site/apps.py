"""The site's own app configurations."""

from django.contrib.admin.apps import AdminConfig as DjangoAdminConfig


class AdminConfig(DjangoAdminConfig):
    """``django.contrib.admin`` with skyjo_site.admin_site.SiteAdmin as ``admin.site``."""

    default_site = "skyjo_site.admin_site.SiteAdmin"
