"""games/sql.py: the hand-written reads of the live path give what the ORM gives.

Every concrete field of the game, its rules, its match, its seats (with users and
profiles) and its moves is compared with the ORM's own read, for games in the states
the live path meets: an open challenge, an AI seat, a match game, a user without a
profile, secret moves (Tactic-Toe's commitments), a finished game with its result.
"""

from __future__ import annotations

import random
from typing import cast

import pytest
from django.db import transaction

from accounts.models import Profile, User
from games import observing, rule_sets, services, sql
from games.models import Game, Match, Move, RuleSet, Seat
from games.rules import get_variant

pytestmark = pytest.mark.django_db(transaction=True)


def fields_of(instance) -> dict:
    if instance is None:
        return {}
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def name_of(seat: Seat) -> tuple[str, str] | None:
    """The seat's player's username and name; None for an AI seat (no user_id)."""
    if not seat.user_id:
        return None
    user = cast(User, seat.user)  # a seat with a user_id has its user
    return (user.username, user.name)


def assert_same_game(game_id: int) -> None:
    fast = sql.game(game_id)
    orm = Game.objects.select_related("rule_set", "match").get(pk=game_id)
    assert fields_of(fast) == fields_of(orm)
    assert fast is not None
    assert fields_of(fast.rule_set) == fields_of(orm.rule_set)
    assert fields_of(fast.match) == fields_of(orm.match)
    orm_seats = list(Seat.objects.filter(game_id=game_id).select_related("user__profile").order_by("number"))
    # The seats come with the game, and game.seats_in_hand asks nothing more.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        fast_seats = list(fast.seats_in_hand)
        names = [name_of(s) for s in fast_seats]
    assert len(queries) == 0
    assert [fields_of(s) for s in fast_seats] == [fields_of(s) for s in orm_seats]
    assert names == [name_of(s) for s in orm_seats]
    assert all(s.game is fast for s in fast_seats)
    assert [fields_of(m) for m in sql.moves(game_id)] == [
        fields_of(m) for m in Move.objects.filter(game_id=game_id).order_by("ply")
    ]


def play(game: Game, plies: int, rng: random.Random) -> Game:
    variant = get_variant(game.variant)
    for _ in range(plies):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        for seat_number in list(game.to_move):
            seat = game.seats.get(number=seat_number)
            if seat.ai_level:
                services.play_ai_move(game_id=game.pk, ply=game.ply)
                break
            move = variant.random_move(variant.load(game.state), seat_number, rng)
            assert seat.user is not None  # a person's seat
            services.submit_move(game_id=game.pk, user=seat.user, ply=game.ply, move=move)
            game.refresh_from_db()
    game.refresh_from_db()
    return game


def test_the_hand_written_reads_equal_the_orms_in_every_state(alice, bob, carol):
    rng = random.Random(7)

    open_challenge = services.create_game(creator=alice, variant="classic")
    assert_same_game(open_challenge.pk)

    against_ai = services.create_game(creator=alice, variant="classic", ai_level="random")
    assert_same_game(against_ai.pk)

    secret = services.accept_challenge(
        game_id=services.create_game(creator=alice, variant="tactic-toe", opponent=bob).pk, user=bob
    )
    variant = get_variant("tactic-toe")
    state = variant.load(secret.state)
    services.submit_move(game_id=secret.pk, user=alice, ply=0, move=variant.random_move(state, 0, rng))
    assert Move.objects.filter(game=secret, revealed=False).exists()  # a commitment, not yet revealed
    assert_same_game(secret.pk)

    finished = services.accept_challenge(
        game_id=services.create_game(creator=carol, variant="classic", opponent=bob).pk, user=bob
    )
    finished = play(finished, 20, rng)
    assert finished.status == Game.Status.FINISHED
    assert_same_game(finished.pk)
    # A user whose profile is gone (an admin's doing): the name falls back, no query.
    Profile.objects.filter(user=carol).delete()
    assert_same_game(finished.pk)

    best_of = rule_sets.create_rule_set(variant="classic", name="Best of 3", match_format="best-of", match_games=3)
    in_match = services.create_game(creator=alice, rule_set=best_of, opponent=bob)
    assert in_match.match_id is not None and Match.objects.filter(pk=in_match.match_id).exists()
    assert_same_game(in_match.pk)
    clocked = rule_sets.create_rule_set(variant="classic", name="Blitz", seconds_per_game=60)
    with_clock = services.accept_challenge(
        game_id=services.create_game(creator=alice, rule_set=clocked, opponent=bob).pk, user=bob
    )
    play(with_clock, 2, rng)
    assert Seat.objects.filter(game=with_clock, clock_ms__isnull=False).exists()
    assert_same_game(with_clock.pk)
    assert RuleSet.objects.filter(pk=with_clock.rule_set_id, seconds_per_game=60).exists()


def test_a_missing_or_impossible_game_is_none_and_the_lock_works(alice, bob):
    game = services.create_game(creator=alice, variant="classic", opponent=bob)
    assert sql.game(game.pk + 1000) is None
    assert sql.game(0) is None and sql.game(-1) is None
    assert sql.game(2**63) is None  # past the largest id: no query the database would refuse
    with transaction.atomic():
        locked = sql.game(game.pk, lock=True)
        assert locked is not None and locked.pk == game.pk


# -- observer rows (through the ORM) -----------------------------------------------------


def test_observer_rows_are_recorded_counted_and_forgotten(make_player):
    from games.models import Observer

    p0, p1 = make_player(), make_player()
    game = services.create_game(creator=p0, variant="classic", opponent=p1)
    assert observing.observer_joined(game_id=game.pk, user=p0, channel_name="chan.a") == 1
    from django.contrib.auth.models import AnonymousUser

    assert observing.observer_joined(game_id=game.pk, user=AnonymousUser(), channel_name="chan.b") == 2
    rows = {o.channel_name: o.user_id for o in Observer.objects.filter(game=game)}
    assert rows == {"chan.a": p0.pk, "chan.b": None}
    observing.observer_left(channel_name="chan.a")
    observing.observer_left(channel_name="chan.a")  # gone already: nothing to do, no error
    assert list(Observer.objects.filter(game=game).values_list("channel_name", flat=True)) == ["chan.b"]


def test_observers_are_counted_by_viewer_not_by_socket(make_player):
    """A second tab is the same observer: an account, else an address, else a socket."""
    from django.contrib.auth.models import AnonymousUser

    p0, p1, watcher = make_player(), make_player(), make_player()
    game = services.create_game(creator=p0, variant="classic", opponent=p1)
    nobody = AnonymousUser()
    joins = [
        (watcher, "10.0.0.1", 1), (watcher, "10.0.0.2", 1),  # one account from two places
        (nobody, "10.0.0.1", 2), (nobody, "10.0.0.1", 2),  # one address, two tabs
        (nobody, None, 3), (nobody, None, 4),  # no address known: each socket its own
    ]
    for n, (user, address, count) in enumerate(joins):
        assert observing.observer_joined(game_id=game.pk, user=user, channel_name=f"chan.{n}", address=address) == count
    assert not observing.cap_reached(game_id=game.pk, cap=4, viewer="address:10.0.0.1")  # counted already
    assert observing.cap_reached(game_id=game.pk, cap=4, viewer="address:10.0.0.3")
    observing.observer_left(channel_name="chan.2")
    assert observing.observer_count(game_id=game.pk) == 4  # chan.3 still holds the address
    observing.observer_left(channel_name="chan.3")
    assert observing.observer_count(game_id=game.pk) == 3
