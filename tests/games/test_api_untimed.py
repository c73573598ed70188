"""The API's game against the computer without a clock (``"untimed": true`` on
POST /api/v1/games/): the same practice copy of the rules as the lobby's "No clock",
through the same service; the rules' clock by default (docs/api.md says why); refused,
with nothing created, for a game against a person and for anything but true or false."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from django.test import Client

from games import rule_sets, tasks
from games.models import Game, RuleSet
from games.rules import get_variant
from tests.games.test_api import GAMES, assert_error, create
from tests.support import token_client as client_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_ai_worker(monkeypatch) -> None:
    # The computer's reply would go to a broker; nothing here needs it.
    monkeypatch.setattr(tasks.play_ai_move, "apply_async", lambda *args, **kwargs: None)


def test_untimed_plays_the_same_clockless_copy_as_the_lobby(alice):
    answer = create(client_for(alice), variant="tactic-toe", ai_level="casual", untimed=True)
    assert answer.status_code == 201, answer.json()
    rules = answer.json()["rules"]
    assert (rules["seconds_per_move"], rules["seconds_per_game"]) == (None, None)
    assert rules["name"].endswith(" (no clock)")
    # The lobby's "No clock" plays the very same copy: one service makes it for both.
    lobby = Client()
    lobby.force_login(alice)
    lobby.post("/play/new/", {"variant": "tactic-toe", "opponent": "ai", "ai_level": "casual", "ai_clock": "none"})
    assert Game.objects.filter(created_by=alice).latest("pk").rule_set_id == rules["id"]


def test_without_untimed_the_api_keeps_the_rules_clock(alice):
    for body in ({}, {"untimed": False}):
        answer = create(client_for(alice), variant="tactic-toe", ai_level="casual", **body)
        assert answer.status_code == 201, answer.json()
        rules = answer.json()["rules"]
        assert rules["id"] == rule_sets.standard_rule_set("tactic-toe").pk
        assert rules["seconds_per_move"] == get_variant("tactic-toe").default_seconds_per_move is not None


@pytest.mark.parametrize("body", [
    {"variant": "classic", "opponent": "bob", "untimed": True},  # a person keeps the clock
    {"variant": "classic", "untimed": True},  # an open challenge too
])
def test_untimed_without_the_computer_is_refused_and_creates_nothing(alice, bob, body):
    before = (Game.objects.count(), RuleSet.objects.count())
    error = assert_error(client_for(alice).post(GAMES, body, format="json"), 400, "untimed-needs-ai")
    assert "computer" in error["message"]
    assert (Game.objects.count(), RuleSet.objects.count()) == before


@pytest.mark.parametrize("value", ["yes", "true", 1, None, [True]])
def test_untimed_is_true_or_false_and_nothing_else(alice, value):
    before = (Game.objects.count(), RuleSet.objects.count())
    error = assert_error(create(client_for(alice), variant="classic", ai_level="random", untimed=value), 400, "invalid")
    assert "untimed" in error["fields"]
    assert (Game.objects.count(), RuleSet.objects.count()) == before


def test_the_schema_documents_untimed(tmp_path: Path):
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--fail-on-warn", "--file", str(out))
    field = yaml.safe_load(out.read_text())["components"]["schemas"]["GameCreateRequest"]["properties"]["untimed"]
    assert field["type"] == "boolean" and field["default"] is False
    assert "untimed-needs-ai" in field["description"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_games_created_at_once_share_one_clockless_copy():
    """Two untimed games created at once (an outside probe's ten made two copies of one
    set): the second waits on the set's row until the first commits, then finds its copy."""
    import threading

    from django.db import connection, transaction

    from games.services import practice_rules

    rules = rule_sets.standard_rule_set("classic")
    made, release, copies = threading.Event(), threading.Event(), []

    def create(first: bool) -> None:
        try:
            with transaction.atomic():
                copies.append(practice_rules(rules).pk)
                if first:
                    made.set()
                    release.wait(10)
        finally:
            connection.close()

    first = threading.Thread(target=create, args=(True,))
    first.start()
    assert made.wait(10)
    second = threading.Thread(target=create, args=(False,))
    second.start()
    with connection.cursor() as cursor:  # until the second has made its copy or waits on the lock
        while second.is_alive():
            cursor.execute("SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)"
                           " WHERE NOT l.granted AND a.datname = current_database()")
            if cursor.fetchone()[0]:
                break
    release.set()
    first.join(10)
    second.join(10)
    assert len(copies) == 2 and copies[0] == copies[1]
    assert RuleSet.objects.filter(name__endswith=" (no clock)").count() == 1
