"""The games tests/browser/test_walkthrough_boards.py looks at, between Sam and Mei:
a Nine-Square game just started (nobody has marked yet) for each width and a Tic Tac Two game played
to its end with the engine's casual moves (seeded), in which special-action cards were
used. Made in the platform's own database:

    python manage.py shell -c "from tests.browser.walkthrough_boards_world import build; build()"

prints one JSON object: {"nine": {width: {"game", "to_move"}}, "two": {"game"}}."""

from __future__ import annotations

import json

from accounts.models import User
from games import services as game_services
from games.models import Game
from tests.factories import play_to_the_end


def build() -> None:
    sam, mei = User.objects.get(username="sam"), User.objects.get(username="mei")
    nines = {}
    for width in ("1280", "390"):  # one each: the test at 1280 plays its first turn
        nine = game_services.create_game(creator=sam, opponent=mei, variant="nine-square", creator_seat=0)
        game_services.accept_challenge(game_id=nine.pk, user=mei)
        nine = Game.objects.get(pk=nine.pk)
        nines[width] = {"game": nine.pk, "to_move": [sam, mei][nine.to_move[0]].username}
    two = game_services.create_game(creator=sam, opponent=mei, variant="tic-tac-two", creator_seat=0)
    game_services.accept_challenge(game_id=two.pk, user=mei)
    play_to_the_end(two, [sam, mei], seed=1)
    print(json.dumps({"nine": nines, "two": {"game": two.pk}}))
