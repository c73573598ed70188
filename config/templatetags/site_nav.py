"""The main menu's links (templates/base.html): each link's address, and which one is
the page you are on."""

from __future__ import annotations

import functools

from django import template
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@functools.lru_cache(maxsize=256)
def _address(url_name: str, prefix: str, urlconf: str | None) -> str:
    return reverse(url_name, urlconf=urlconf)


def address(url_name: str) -> str:
    """``reverse(url_name)``, worked out once per process: the menu's 11 links reversed
    twice each took 0.65 ms of every page; a signed-in 404 went from 4.4 to 3.8-4.2 ms
    of CPU with this and the board's changes (bench/live_costs.py; docs/benchmarks-live.md,
    seventh round)."""
    return _address(url_name, get_script_prefix(), get_urlconf())


def _section_of(context: template.Context) -> str | None:
    """The menu item (URL name) the page belongs to where its address does not say it: a
    guided lesson is played on a game page (/play/<id>/, and replayed on its replay), but
    it is part of Learn, not Play (docs/lessons.md)."""
    if getattr(context.get("game"), "lesson", ""):
        return "games:learn"
    return None


@register.simple_tag(takes_context=True)
def nav_href(context: template.Context, url_name: str) -> SafeString:
    """`href="..."`, with ` aria-current="page"` on the link to this very page and
    ` aria-current="true"` on the link to the section it is in (/clubs/ on a
    tournament's page; Learn on a lesson's game page)."""
    target = address(url_name)
    section = _section_of(context)
    if section is not None:
        if url_name == section:
            return format_html('href="{}" aria-current="true"', target)
        return format_html('href="{}"', target)
    request = context.get("request")
    path = request.path if request is not None else None  # the error pages render without one
    if path == target:
        return format_html('href="{}" aria-current="page"', target)
    if path is not None and target != "/" and path.startswith(target):
        return format_html('href="{}" aria-current="true"', target)
    return format_html('href="{}"', target)
