"""A finished section's results: the shareable page (podium, prizes, final table, and
the Open Graph tags a chat turns into a card) and its image, a PNG drawn with Pillow
(docs/competitions.md, "Results announced")."""

from __future__ import annotations

import hashlib
import io
from functools import lru_cache
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import condition, require_safe
from PIL import Image, ImageDraw, ImageFont

from league.competitions import event_selectors
from league.competitions.formats import format_of
from league.competitions.podium import Podium, ordinal, podium
from league.models import Section

from .competitions import _section

#: The card size chats and social sites expect of an og:image.
IMAGE_SIZE = (1200, 630)
#: Caches keep the image five minutes, then revalidate by its ETag (a 304 is cheap): an
#: arbiter's correction after the finish changes it, and shows within that time.
IMAGE_MAX_AGE = 5 * 60


def _finished_podium(request: HttpRequest, club_slug: str, tournament_slug: str, section_slug: str
                     ) -> tuple[Section, Podium | None]:
    section = _section(club_slug, tournament_slug, section_slug, request.user)
    return section, podium(section)


def _card_description(result: Podium) -> str:
    """og:description: the podium in words, children named as on the image."""
    section = result.section
    places = "; ".join(f"{step.label}: {', '.join(p.public_name for p in step.players)}" for step in result.steps)
    return f"{section.tournament.name}, {section.name}: {result.headline(public=True)}. {places}."


@require_safe
def results(request: HttpRequest, club_slug: str, tournament_slug: str, section_slug: str) -> HttpResponse:
    """The results page; before the section finishes it says when they come."""
    section, result = _finished_podium(request, club_slug, tournament_slug, section_slug)
    following = section.next_stages.first()
    if following is not None:  # an earlier stage: the event's results are the last stage's
        return redirect("competitions:section-results", club_slug, tournament_slug, following.slug)
    context: dict[str, Any] = {"club": section.tournament.club, "tournament": section.tournament, "section": section,
               "podium": result}
    if result is not None:
        standings = event_selectors.standings(section)
        context.update(
            standings=standings,
            tiebreak_columns=event_selectors.tiebreak_columns(section),
            standings_key=event_selectors.standings_key(event_selectors.tiebreak_columns(section),
                                                        knockout=format_of(section).has_bracket, rows=standings,
                                                        tie_order=format_of(section).tie_order,
                                                        points=format_of(section).points_meaning(section)),
            card_description=_card_description(result),
        )
    return render(request, "league/results.html", context)


def _image_etag(request: HttpRequest, club_slug: str, tournament_slug: str, section_slug: str) -> str | None:
    """What the image is drawn from: the event's and players' names and the final table (a
    correction after the finish changes the table, a renaming the names)."""
    section = _section(club_slug, tournament_slug, section_slug, request.user)
    if section.finished_at is None:
        return None
    table = list(section.standings.order_by("rank", "user_id").values_list(
        "user_id", "rank", "points", "user__username", "user__profile__display_name"))
    drawn = repr((section.tournament.name, section.name, table)).encode()
    return f"results-{section.pk}-{hashlib.sha256(drawn).hexdigest()[:20]}"


@require_safe
@condition(etag_func=_image_etag)
def results_image(request: HttpRequest, club_slug: str, tournament_slug: str, section_slug: str) -> HttpResponse:
    """The podium as a 1200x630 PNG (the page's og:image); 404 until the section finishes."""
    _section_row, result = _finished_podium(request, club_slug, tournament_slug, section_slug)
    if result is None:
        raise Http404("The results come when the section finishes.")
    response = HttpResponse(draw_results(result), content_type="image/png")
    patch_cache_control(response, public=True, max_age=IMAGE_MAX_AGE)
    return response


# -- drawing ----------------------------------------------------------------------------

INK = (31, 41, 55)
MUTED = (90, 100, 115)
PAPER = (250, 248, 243)
COLUMN_OF_PLACE = {2: 0, 1: 1, 3: 2}
STEP_COLOURS = {1: (212, 175, 55), 2: (176, 184, 192), 3: (205, 127, 50)}


#: Fonts with accented Latin, Greek and Cyrillic letters, the first found is used: Pillow's
#: own (Aileron) draws "Lucía" as "Luc□a". Debian's fonts-dejavu-core and
#: fonts-liberation (a dependency of chromium) put them here.
FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
)


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for path in FONT_FILES:
        try:
            return ImageFont.truetype(path, size=size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)  # no system font: Pillow's own (Latin letters without accents)


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> tuple[str, ImageFont.FreeTypeFont | ImageFont.ImageFont]:
    """The text in the largest size up to ``size`` that fits ``width``, cut with an ellipsis at the smallest."""
    while size > 18 and draw.textlength(text, font=_font(size)) > width:
        size -= 2
    font = _font(size)
    while draw.textlength(text, font=font) > width and len(text) > 1:
        text = text[:-2] + "…"
    return text, font


def draw_results(result: Podium) -> bytes:
    width, height = IMAGE_SIZE
    image = Image.new("RGB", IMAGE_SIZE, PAPER)
    draw = ImageDraw.Draw(image)
    section = result.section
    margin = 60
    text, font = _fit(draw, section.tournament.name, 56, width - 2 * margin)
    draw.text((margin, 50), text, fill=INK, font=font)
    text, font = _fit(draw, f"{section.name} · final results", 34, width - 2 * margin)
    draw.text((margin, 125), text, fill=MUTED, font=font)
    # The podium: 2nd, 1st, 3rd from left to right, the 1st step highest.
    column = (width - 2 * margin) // 3
    heights = {1: 210, 2: 160, 3: 120}
    base = height - 50
    for step in result.steps:
        left = margin + COLUMN_OF_PLACE[step.place] * column + 10
        right = left + column - 20
        top = base - heights.get(step.place, 100)
        draw.rounded_rectangle((left, top, right, base), radius=14, fill=STEP_COLOURS.get(step.place, MUTED))
        label, font = _fit(draw, ordinal(step.place), 64, right - left - 20)
        draw.text(((left + right) / 2, top + 20), label, fill="white", font=font, anchor="ma")
        names = step.players[:2]
        # A knockout's place says how far they got: no points (there are none to tell).
        lines = [p.public_name if p.progress else f"{p.public_name} · {p.points_words}" for p in names]
        if len(step.players) > 2:
            lines.append(f"and {len(step.players) - 2} more")
        y = top - 16 - 44 * len(lines)
        for line in lines:
            text, font = _fit(draw, line, 36, column - 10)
            draw.text(((left + right) / 2, y), text, fill=INK, font=font, anchor="ma")
            y += 44
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
