"""The finished games tests/browser/test_variant_boards.py looks at: one game of each
variant (and rock-paper-scissors) between Sam and Mei, played to its end through the
services with the engine's casual moves (seeded: the same games each run). Made in the
platform's own database:

    python manage.py shell -c "from tests.browser.variant_boards_world import build; build()"

prints one JSON object: variant -> {"game": its id, "result": its result sentence}."""

from __future__ import annotations

import json

from accounts.models import User
from games import selectors
from games import services as game_services
from tests.factories import play_to_the_end

VARIANTS = ["classic", "t-tic-t-tac-toe", "tactic-toe", "tic-tac-two", "nine-square", "rock-paper-scissors"]
#: A seed per variant whose game ends on the board with something to show (a line, scores).
SEEDS = {"classic": 2, "t-tic-t-tac-toe": 1, "tactic-toe": 1, "tic-tac-two": 1, "nine-square": 1,
         "rock-paper-scissors": 1}


def build() -> None:
    sam, mei = User.objects.get(username="sam"), User.objects.get(username="mei")
    made = {}
    for variant in VARIANTS:
        game = game_services.create_game(creator=sam, opponent=mei, variant=variant, creator_seat=0)
        game_services.accept_challenge(game_id=game.pk, user=mei)
        play_to_the_end(game, [sam, mei], seed=SEEDS[variant])
        payload = selectors.game_payload(selectors.load_game(game.pk), None)
        made[variant] = {"game": game.pk, "result": payload["result"]["text"], "moves": len(payload["moves"])}
    print(json.dumps(made))
