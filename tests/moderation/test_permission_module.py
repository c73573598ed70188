"""moderation/permissions.py as a whole (docs/security.md, "Permissions"): every
permission the code asks is registered, no group or user row can grant one, and
superusers have exactly what the module says. Who else has each permission is tested
from the outside (tests/security/test_authorization_matrix.py, test_permissions.py,
test_rule_set_ownership.py, test_watching.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import rules
from django.contrib.auth.models import Permission

from games import rule_sets as game_rule_sets
from moderation.permissions import PERMISSIONS

ROOT = Path(__file__).resolve().parents[2]
ASKED = re.compile(r'has_perm\(\s*"([a-z_]+\.[a-z_]+)"')


def test_every_permission_asked_is_registered_and_every_registered_one_asked():
    asked = {
        name
        for app in ("accounts", "games", "league", "moderation", "config")
        for path in (ROOT / app).rglob("*.py")
        for name in ASKED.findall(path.read_text(encoding="utf-8"))
    }
    assert asked == set(PERMISSIONS)
    assert all(rules.perm_exists(name) for name in PERMISSIONS)


@pytest.mark.django_db
def test_no_permission_is_a_model_permission():
    for name in PERMISSIONS:
        app_label, codename = name.split(".")
        assert not Permission.objects.filter(content_type__app_label=app_label, codename=codename).exists(), name


@pytest.mark.django_db
def test_superusers_have_every_permission_but_a_players_set_and_only_while_active(world, make_player):
    root = world.superuser
    players_set = game_rule_sets.create_rule_set(name="Mine", variant="classic", created_by=make_player())
    objects = {
        "league.organise_club": world.club_a,
        "league.moderate_club": world.club_a,
        "games.revise_ruleset": world.rules_a,
        "league.recompute_ratings": None,
    }
    assert set(objects) == set(PERMISSIONS)
    for name, obj in objects.items():
        assert root.has_perm(name, obj) and rules.has_perm(name, root, obj), name
    # The one exception, which is why games asks it with rules.has_perm.
    assert not rules.has_perm("games.revise_ruleset", root, players_set)
    root.is_active = False
    for name, obj in objects.items():
        assert not root.has_perm(name, obj) and not rules.has_perm(name, root, obj), name
