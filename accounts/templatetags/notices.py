"""The navigation's unread-notice count (templates/base.html), one indexed count a page."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.notices import unread_count

register = template.Library()


@register.simple_tag
def unread_notices(user: Any) -> int:
    return unread_count(user.pk) if user is not None and user.is_authenticated else 0
