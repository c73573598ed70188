"""Helpers for the rating tests: real games played through games.services."""

from __future__ import annotations

from games import services
from games.models import Game


def finished_game(winner, loser, *, rated: bool = True, variant: str = "classic") -> Game:
    """A game between two people that ``winner`` wins when ``loser`` resigns."""
    game = services.create_game(creator=winner, variant=variant, opponent=loser, rated=rated)
    services.accept_challenge(game_id=game.pk, user=loser)
    services.resign(game_id=game.pk, user=loser)
    game.refresh_from_db()
    return game


def snapshot() -> tuple[list, list]:
    """Every rating change and rating, as comparable tuples."""
    from league.models import Rating, RatingChange

    changes = sorted(
        RatingChange.objects.values_list(
            "game_id", "user_id", "list_key", "system", "period", "opponent_rating", "score", "k",
            "rating_before", "rating_after", "rd_before", "rd_after", "volatility_before", "volatility_after",
            "provisional", "sequence",
        )
    )
    ratings = sorted(
        Rating.objects.values_list(
            "user_id", "variant", "list_key", "system", "rating", "rd", "volatility", "games", "established",
            "reached_2400", "provisional", "initial_results",
        ),
        key=repr,
    )
    return changes, ratings
