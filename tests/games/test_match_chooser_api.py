"""A bot learns from the game payload alone whether it chooses the official match's
version: ``match.choose_version.chooser`` is the player's display name and ``chooser_id``
a user id the API never tells a player (``/accounts/me/`` has none), so a player whose
name is not their username ("Mei" for ``mei``) could not tell; ``chooser_username`` says."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.factories import official_match_to_choose

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_chooser_is_named_by_username_to_a_bot(make_player):
    mei, sam = make_player(username="mei", display_name="Mei"), make_player(username="sam", display_name="Sam")
    match = official_match_to_choose(mei, sam)
    classic = match.games.get(number_in_match=2)
    bot = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=sam).key}")
    choice = bot.get(f"/api/v1/games/{classic.pk}/").json()["match"]["choose_version"]
    assert choice["chooser"] == "Mei" and choice["chooser_username"] == "mei"
    assert "id" not in bot.get("/api/v1/accounts/me/").json()  # why chooser_id is no help


def test_the_match_text_names_the_players(make_player):
    """The engine's text counts match players from 0 ("Player 0, who won the classic
    game, chooses ..."), where a result counts them from 1 ("Player 1 resigned." is seat
    0): the page showed "Player 0" to people. The payload names them instead."""
    mei, sam = make_player(username="mei", display_name="Mei"), make_player(username="sam", display_name="Sam")
    match = official_match_to_choose(mei, sam)
    classic = match.games.get(number_in_match=2)
    bot = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=sam).key}")
    summary = bot.get(f"/api/v1/games/{classic.pk}/").json()["match"]
    assert summary["text"] == "Mei, who won the classic game, chooses Version 1.0 or 2.0."
    rps = match.games.get(number_in_match=1)
    assert bot.get(f"/api/v1/games/{rps.pk}/").json()["match"]["text"] == (
        "Mei, who won the classic game, chooses Version 1.0 or 2.0.")  # every game shows where the match stands
