"""Number fields of forms that say what they take: held to a range, with one sentence for
any number refused. Imports nothing but Django's forms, so the admin site (loaded with
the apps, before any model) can use it.
"""

from __future__ import annotations

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator


def hold_to(field: forms.Field, least: int, most: int, refusal: str) -> None:
    """Hold a number field to ``least``..``most``, with one message for any number it
    refuses (not a whole number, too small, too large): the field's own name and range in
    words, where Django says "Ensure this value is greater than or equal to 0." or, past
    the column, a second message with the database's limit. Refused here, the number is
    never tried on the service or the model."""
    assert isinstance(field, forms.IntegerField)
    field.min_value, field.max_value = least, most
    field.validators = [v for v in field.validators if not isinstance(v, (MinValueValidator, MaxValueValidator))]
    field.validators += [MinValueValidator(least), MaxValueValidator(most)]
    field.widget.attrs.update(min=least, max=most)
    field.error_messages.update(dict.fromkeys(("invalid", "min_value", "max_value"), refusal))
