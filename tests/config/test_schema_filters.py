"""Text filters whose values the API checks say which values those are, as a pattern in
the schema: a fuzzer (schemathesis, from outside) sent ``?status=registration`` to the
lobby and ``?list=%05`` to a rating history as schema-valid values, and they were 400."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from league.models import Club


def _pattern(path: str, name: str) -> str:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    [parameter] = [p for p in schema["paths"][path]["get"]["parameters"] if p["name"] == name]
    return str(parameter["schema"]["pattern"])


@pytest.mark.django_db
def test_the_lobbys_status_pattern_takes_what_the_lobby_takes():
    pattern = _pattern("/api/v1/games/", "status")
    for value in ("", "open", "open,active", " open , aborted ", ",,", "finished,", "open,open",
                  "registration", "open active", "OPEN", "open;active", "¬", "open,bogus"):
        answer = Client().get("/api/v1/games/", {"status": value})
        assert (re.fullmatch(pattern, value) is not None) == (answer.status_code == 200), (value, answer.json())


@pytest.mark.django_db
def test_the_rating_lists_pattern_takes_the_lists_there_can_be(django_user_model):
    django_user_model.objects.create_user("rated", password="x" * 12)
    club = Club.objects.create(name="Own list", slug="own-list", own_rating_list=True)
    pattern = _pattern("/api/v1/ratings/players/{username}/history/", "list")
    for value in ("", "league", f"club-{club.pk}", "\x05", "League", "club-", "club-x", "club--1", "clubs-1"):
        answer = Client().get("/api/v1/ratings/players/rated/history/", {"list": value})
        assert (re.fullmatch(pattern, value) is not None) == (answer.status_code == 200), (value, answer.json())
