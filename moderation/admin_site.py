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

import functools
from collections.abc import Iterable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.apps import AdminConfig
from django.contrib.admin.options import BaseModelAdmin, IncorrectLookupParameters, InlineModelAdmin
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import ValidationError
from django.db.models import Field, Model, QuerySet
from django.http import HttpRequest, HttpResponse

from accounts.number_fields import hold_to

#: The range every database Django supports holds in an integer column (its model field
#: reference: "safe in all databases"): an admin number field is held to it at least.
COLUMN_RANGES = {
    "PositiveSmallIntegerField": (0, 32_767),
    "PositiveIntegerField": (0, 2_147_483_647),
    "PositiveBigIntegerField": (0, 9_223_372_036_854_775_807),
    "SmallIntegerField": (-32_768, 32_767),
    "IntegerField": (-2_147_483_648, 2_147_483_647),
    "BigIntegerField": (-9_223_372_036_854_775_808, 9_223_372_036_854_775_807),
}

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


class CheckedKeysField(forms.ModelMultipleChoiceField):
    """A many-to-many box (a policy's invited users, typed as ids) that refuses a key no
    row could have before the query: a 20-digit id was a 500 (OverflowError on SQLite,
    the database's own error on PostgreSQL), where "abc" was refused in words."""

    def clean(self, value: Any) -> Any:
        if self.queryset is not None and self.to_field_name in (None, "pk") and isinstance(value, list | tuple):
            for key in value:
                if not is_possible_key(self.queryset.model, str(key)):
                    raise ValidationError(self.error_messages["invalid_pk_value"], code="invalid_pk_value",
                                          params={"pk": key})
        return super().clean(value)


class NumbersInWords(BaseModelAdmin):
    """Number fields that say their name and range when they refuse a number
    (``formfield_for_dbfield``): every model admin on the console has it
    (``CheckedSelectionAdmin``), and so does every inline of theirs (``get_inlines``)."""

    def formfield_for_dbfield(self, db_field: Field[Any, Any], request: HttpRequest, **kwargs: Any) -> Any:
        """A number field says its name and range when it refuses a number: Django's
        own words were "Ensure this value is greater than or equal to 0." for -3, and
        for a number past the column the database's limit (9223372036854775807 on
        SQLite, whatever the column). A form with a narrower range of its own (a rule
        set's clocks, an observer cap) holds its field to that in its ``__init__``."""
        if db_field.many_to_many:
            kwargs.setdefault("form_class", CheckedKeysField)
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        bounds = COLUMN_RANGES.get(db_field.get_internal_type())
        if bounds is not None and isinstance(field, forms.IntegerField):
            least, most = bounds
            hold_to(field, least, most, f"The {db_field.verbose_name} is a whole number from {least:,} to {most:,}.")
        return field


@functools.cache
def with_numbers_in_words(inline: type[InlineModelAdmin]) -> type[InlineModelAdmin]:
    """``inline`` with ``NumbersInWords`` first, made once per class: an inline's forms
    are built by the inline, not by its model admin, so its rows kept Django's words."""
    if issubclass(inline, NumbersInWords):
        return inline
    return type(inline.__name__, (NumbersInWords, inline),
                {"__module__": inline.__module__, "__qualname__": inline.__qualname__})


class BoundedDatesChangeList(ChangeList):
    """Django's changelist, with a date hierarchy's year that no date can hold (``9999``
    whose next year is past ``datetime``'s last, a number past 64 bits) taken as any
    other bad filter: the list again with "?e=1". Django catches only the ValueError of
    the first day's date, so these were a 500 (OverflowError, or the next year's
    ValueError)."""

    def get_filters(self, request: HttpRequest) -> Any:
        try:
            return super().get_filters(request)
        except (OverflowError, ValueError) as err:
            raise IncorrectLookupParameters(err) from err


_BOUNDED: dict[type[ChangeList], type[ChangeList]] = {}


def with_bounded_dates(changelist: type[ChangeList]) -> type[ChangeList]:
    """``changelist`` with ``BoundedDatesChangeList`` first, made once per class (an admin
    may name its own changelist class)."""
    if issubclass(changelist, BoundedDatesChangeList):
        return changelist
    if changelist not in _BOUNDED:
        _BOUNDED[changelist] = type(changelist.__name__, (BoundedDatesChangeList, changelist),
                                    {"__module__": changelist.__module__})
    return _BOUNDED[changelist]


class CheckedSelectionAdmin(NumbersInWords, admin.ModelAdmin):
    """Put before every admin registered on the console (``ConsoleSite.register``): an
    action's selection (``_selected_action``) is checked before Django filters by it.
    Django's own passes any text to ``filter(pk__in=...)``, and ``abc`` for a number, or
    a number past the column's range, was a 500 (a ValueError, or the database's own
    error: OverflowError on SQLite). Such a selection now gets the admin's warning, back on the
    list, and nothing is changed, as an empty selection does. Its number fields, and its
    inlines', say their range in words (``NumbersInWords``)."""

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return with_bounded_dates(super().get_changelist(request, **kwargs))

    def get_inlines(self, request: HttpRequest, obj: Any) -> Any:
        return [with_numbers_in_words(inline) for inline in super().get_inlines(request, obj)]

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
