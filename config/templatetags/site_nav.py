"""The main menu's marks: which link is the page you are on (templates/base.html)."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html

register = template.Library()


@register.simple_tag(takes_context=True)
def nav_current(context: template.Context, url_name: str) -> str:
    """` aria-current="page"` on the link to this very page, ` aria-current="true"` on
    the link to the section it is in (/clubs/ on a tournament's page), else nothing."""
    request = context.get("request")
    if request is None:  # the error pages rendered without one
        return ""
    target = reverse(url_name)
    if request.path == target:
        return format_html(' aria-current="{}"', "page")
    if target != "/" and request.path.startswith(target):
        return format_html(' aria-current="{}"', "true")
    return ""
