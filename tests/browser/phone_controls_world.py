"""What tests/browser/test_phone_controls.py looks at, made in the platform's own database:

    python manage.py shell -c "from tests.browser.phone_controls_world import build; build()"

prints one JSON object: two Tic Tac Two games, each with X (Sam) to move, holding Shift and with
his Wall standing (so both Shift arrows and topple arrows can be aimed); a Nine-Square
open challenge by Sam; a finished Nine-Square game (lines drawn on its boards); and a
guardian's consent link (its path). The games have no clock: nothing ends while a test
looks at them."""

from __future__ import annotations

import json

from django.urls import reverse

from accounts import services as account_services
from accounts.models import GuardianConsent, User
from games import rule_sets
from games import services as game_services
from games.models import RuleSet
from tests.factories import play_to_the_end

#: O picks first; X (Sam) ends with Wall, Shift and Double.
DRAFT = ["swap", "wall", "dibs", "shift", "intersect", "double"]
#: Then (seat, move): X writes 6, O 11, X stands his Wall right of 6 and writes 1, O writes 16.
TURNS = [
    (0, {"type": "write", "cell": 6}),
    (1, {"type": "write", "cell": 11}),
    (0, {"type": "wall", "cell": 6, "side": "right"}),
    (0, {"type": "write", "cell": 1}),
    (1, {"type": "write", "cell": 16}),
]


def build() -> None:
    sam, mei = User.objects.get(username="sam"), User.objects.get(username="mei")
    players = [sam, mei]
    two = rule_sets.create_rule_set(name="Tic Tac Two, no clock", variant="tic-tac-two", created_by=sam)
    nine = rule_sets.create_rule_set(name="Nine-Square, no clock", variant="nine-square", created_by=sam)

    aiming = [aiming_game(players, two) for _ in range(2)]  # one per width looked at: each plays a Shift

    nine_open = game_services.create_game(creator=sam, rule_set=nine)
    finished = game_services.create_game(creator=sam, opponent=mei, variant="nine-square", creator_seat=0)
    game_services.accept_challenge(game_id=finished.pk, user=mei)
    play_to_the_end(finished, players, seed=1)

    kid = User.objects.create_user(username="phone-kid", email="phone-kid@example.org", is_active=False)
    consent = GuardianConsent.objects.create(user=kid, guardian_name="Pat Parent", guardian_email="pat@example.org")
    link = reverse("accounts:guardian-consent", args=[account_services.consent_token(consent)])
    print(json.dumps({"tic_tac_two": aiming, "nine_open": nine_open.pk, "nine_finished": finished.pk,
                      "consent": link}))


def aiming_game(players: list[User], rule_set: RuleSet) -> int:
    """A Tic Tac Two game after DRAFT and TURNS: X (Sam) to move."""
    game = game_services.create_game(creator=players[0], opponent=players[1], rule_set=rule_set, creator_seat=0)
    game_services.accept_challenge(game_id=game.pk, user=players[1])
    ply = 0
    for n, action in enumerate(DRAFT):
        move = {"type": "pick", "action": action}
        game_services.submit_move(game_id=game.pk, user=players[1 - n % 2], ply=ply, move=move)
        ply += 1
    for seat, turn in TURNS:
        game_services.submit_move(game_id=game.pk, user=players[seat], ply=ply, move=turn)
        ply += 1
    return game.pk
