"""The project's admin site: the moderation console (docs/moderation.md).

``ConsoleAdminConfig`` takes django.contrib.admin's place in INSTALLED_APPS and makes
``ConsoleSite`` the default site (Django's "Overriding the default admin site"), so
``django.contrib.admin.site`` and ``@admin.register`` mean this site everywhere. Every
app's admin module is autodiscovered as usual and registers its own admins on it; the
admins of the games' and league's models that clubs moderate are declared by their
apps and registered once, by moderation/admin.py, which adds the club scoping and the
operations.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.apps import AdminConfig
from django.core.exceptions import ValidationError
from django.db.models import Field, Model, QuerySet
from django.http import HttpRequest, HttpResponse

#: What an action posted with a selection that names no possible row is told.
MALFORMED_SELECTION = "Those items could not be found. No items have been changed."


def is_possible_key(model: type[Model], text: str) -> bool:
    """Whether ``text`` could be the primary key of a row of ``model`` (a whole number
    in the column's range for an integer key, a UUID for a UUID key, ...): what the
    admin may pass to ``filter(pk__in=...)`` without the database failing on it."""
    field: Any = model._meta.pk
    while field.is_relation:  # a one-to-one key: the key of the row it points to
        field = field.target_field
    checked: Field[Any, Any] = field
    try:
        checked.run_validators(checked.to_python(text))
    except ValidationError:
        return False
    return True


class CheckedSelectionAdmin(admin.ModelAdmin):
    """Put before every admin registered on the console (``ConsoleSite.register``): an
    action's selection (``_selected_action``) is checked before Django filters by it.
    Django's own passes any text to ``filter(pk__in=...)``, and ``abc`` for a number, or
    a number past the column's range, was a 500 (a ValueError, or the database's own
    error: OverflowError on SQLite). Such a selection now gets the admin's warning, back on the
    list, and nothing is changed, as an empty selection does."""

    def response_action(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        selected = request.POST.getlist(helpers.ACTION_CHECKBOX_NAME)
        if not all(is_possible_key(self.model, key) for key in selected):
            self.message_user(request, MALFORMED_SELECTION, messages.WARNING)
            return None  # the changelist redirects back to itself, as for no selection
        return super().response_action(request, queryset)


class ConsoleSite(admin.AdminSite):
    """Django's admin site (title, header, index, URLs under the "admin" namespace),
    with one thing added for every model admin registered on it, the project's and the
    libraries' alike: an action's selection is checked (``CheckedSelectionAdmin``).
    What else the console adds lives in the admins registered on it
    (moderation/admin.py) and in the permissions (moderation/permissions.py)."""

    def register(
        self,
        model_or_iterable: type[Model] | Iterable[type[Model]],
        admin_class: type[admin.ModelAdmin[Any]] | None = None,
        **options: Any,
    ) -> None:
        admin_class = admin_class or admin.ModelAdmin
        if not issubclass(admin_class, CheckedSelectionAdmin):
            # The same name and module, so the admin reads as before (its str(), the
            # "already registered" message); ``@admin.register`` still hands back the
            # class as written.
            admin_class = type(admin_class.__name__, (CheckedSelectionAdmin, admin_class),
                               {"__module__": admin_class.__module__, "__qualname__": admin_class.__qualname__})
        super().register(model_or_iterable, admin_class, **options)


class ConsoleAdminConfig(AdminConfig):
    default_site = "moderation.admin_site.ConsoleSite"
