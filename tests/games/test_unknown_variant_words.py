"""A variant that does not exist is refused naming what was asked for: a variant, and
the ones there are. It said "There is no rule set called 'chess'." to a bot that had
sent ``"variant": "chess"`` (a rule set is something else in the API: ``rule_set``)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db


def test_an_unknown_variant_is_named_a_variant_with_the_choices(make_player):
    bot = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=make_player(username='vbot')).key}")
    answer = bot.post("/api/v1/games/", {"variant": "chess", "ai_level": "random"}, content_type="application/json")
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "unknown-variant"
    assert body["message"].startswith("There is no variant called 'chess'")
    assert "classic" in body["message"] and "tic-tac-two" in body["message"] and "rule set" not in body["message"]
