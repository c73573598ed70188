"""The project's admin site: the moderation console (docs/moderation.md).

``ConsoleAdminConfig`` takes django.contrib.admin's place in INSTALLED_APPS and makes
``ConsoleSite`` the default site (Django's "Overriding the default admin site"), so
``django.contrib.admin.site`` and ``@admin.register`` mean this site everywhere. Every
app's admin module is autodiscovered as usual and registers its own admins on it; the
admins of the games' and league's models that clubs moderate are declared by their
apps and registered once, by moderation/admin.py, which adds the club scoping and the
operations.
"""

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig


class ConsoleSite(admin.AdminSite):
    """Django's admin site as it is (title, header, index, URLs under the "admin"
    namespace); what the console adds lives in the admins registered on it
    (moderation/admin.py) and in the permissions (moderation/permissions.py)."""


class ConsoleAdminConfig(AdminConfig):
    default_site = "moderation.admin_site.ConsoleSite"
