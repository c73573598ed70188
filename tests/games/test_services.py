"""Live-play services on the real database: moves, secrets, dice, clocks, AI, matches."""

from __future__ import annotations

import hashlib
import random
from datetime import date, timedelta

import pytest
from django.utils import timezone

from accounts.errors import ServiceError
from games import matches, rule_sets, selectors, services
from games.models import Game, Match, Move, RuleSet
from games.rules import get_variant

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def players(make_player):
    return make_player(username="alice"), make_player(username="bob")


def started(game_or_id, user):
    game_id = getattr(game_or_id, "pk", game_or_id)
    return services.accept_challenge(game_id=game_id, user=user)


def user_at(game, seat):
    return game.seats.get(number=seat).user


def play_out(game: Game, rng: random.Random, max_plies: int = 500) -> Game:
    """Play a game to its end: AI seats through the service the Celery task calls,
    people with random legal moves."""
    variant = get_variant(game.variant)
    for _ in range(max_plies):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        seat = game.seats.get(number=game.to_move[0])
        if seat.ai_level:
            services.play_ai_move(game_id=game.pk, ply=game.ply)
        else:
            move = variant.random_move(variant.load(game.state), seat.number, rng)
            assert seat.user is not None  # a person's seat
            services.submit_move(game_id=game.pk, user=seat.user, ply=game.ply, move=move)
    raise AssertionError("the game did not end")


class TestClassicGame:
    def test_a_full_game_is_stored_and_replays(self, players):
        alice, bob = players
        game = services.create_game(creator=alice, variant="classic", opponent=bob)
        assert game.status == Game.Status.OPEN
        game = started(game, bob)
        for ply, cell in enumerate([1, 4, 2, 5, 3]):
            services.submit_move(game_id=game.pk, user=(alice, bob)[ply % 2], ply=ply, move={"cell": cell})
        game.refresh_from_db()
        assert (game.status, game.result, game.winner_seat, game.ply) == ("finished", "win", 0, 5)
        variant = get_variant("classic")
        log = [(m.seat, m.move) for m in game.moves.order_by("ply")]
        assert variant.dump(variant.replay(log, game.options, game.seed)) == game.state

    def test_an_illegal_move_gets_the_engine_code_and_changes_nothing(self, players):
        alice, bob = players
        game = started(services.create_game(creator=alice, variant="classic", opponent=bob), bob)
        services.submit_move(game_id=game.pk, user=alice, ply=0, move={"cell": 5})
        before = Game.objects.get(pk=game.pk).state
        with pytest.raises(ServiceError) as err:
            services.submit_move(game_id=game.pk, user=bob, ply=1, move={"cell": 5})
        assert err.value.code == "occupied" and "taken" in err.value.message
        assert Game.objects.get(pk=game.pk).state == before and Move.objects.filter(game=game).count() == 1

    def test_a_stale_ply_is_refused_and_never_applied_twice(self, players):
        alice, bob = players
        game = started(services.create_game(creator=alice, variant="classic", opponent=bob), bob)
        services.submit_move(game_id=game.pk, user=alice, ply=0, move={"cell": 5})
        with pytest.raises(ServiceError) as err:
            services.submit_move(game_id=game.pk, user=alice, ply=0, move={"cell": 5})
        assert err.value.code == "stale-ply"
        assert Move.objects.filter(game=game).count() == 1

    def test_out_of_turn_and_observers_are_refused(self, players, make_player):
        alice, bob = players
        game = started(services.create_game(creator=alice, variant="classic", opponent=bob), bob)
        with pytest.raises(ServiceError) as err:
            services.submit_move(game_id=game.pk, user=bob, ply=0, move={"cell": 1})
        assert err.value.code == "not-your-turn"
        with pytest.raises(ServiceError) as err:
            services.submit_move(game_id=game.pk, user=make_player(), ply=0, move={"cell": 1})
        assert err.value.code == "not-a-player"
        assert not Move.objects.exists()

    def test_open_challenge_is_taken_by_anyone_but_its_creator(self, players):
        alice, bob = players
        game = services.create_game(creator=alice, variant="classic")
        with pytest.raises(ServiceError):
            services.accept_challenge(game_id=game.pk, user=alice)
        started(game, bob)
        assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
        assert user_at(game, 1) == bob

    def test_a_challenge_to_someone_else_cannot_be_taken(self, players, make_player):
        alice, bob = players
        game = services.create_game(creator=alice, variant="classic", opponent=bob)
        with pytest.raises(ServiceError) as err:
            services.accept_challenge(game_id=game.pk, user=make_player())
        assert err.value.code == "not-invited"

    def test_a_challenge_to_someone_without_a_date_of_birth_names_them_not_the_challenger(self, players):
        """The reason speaks of the opponent: "Add your date of birth to your profile"
        told a challenger, whose profile was fine, to fix their own (walkthrough)."""
        from tests.factories import SuperuserFactory

        alice, _ = players
        root = SuperuserFactory.create()  # createsuperuser asks for no date of birth
        with pytest.raises(ServiceError) as err:
            services.create_game(creator=alice, variant="classic", opponent=root)
        assert err.value.code == "not-eligible"
        assert err.value.message == ("root cannot play: Their profile has no date of birth yet: "
                                     "they add it before they can play.")
        with pytest.raises(ServiceError) as err:  # their own challenge: told to add it
            services.create_game(creator=root, variant="classic", opponent=alice)
        assert err.value.message == "Add your date of birth to your profile before playing."
        assert not Game.objects.exists()

    def test_a_three_year_old_cannot_be_seated_and_a_105_year_old_can(self, players, make_player):
        alice, _ = players
        today = timezone.localdate()
        toddler = make_player(born=date(today.year - 3, 1, 1), open_account=False)
        elder = make_player(born=date(today.year - 106, 1, 1))
        with pytest.raises(ServiceError) as err:  # closed while the guardian's consent is pending
            services.create_game(creator=alice, variant="classic", opponent=toddler)
        assert err.value.code == "not-eligible" and "closed" in err.value.message
        toddler.is_active = True  # the guardian consented: still too young
        toddler.save()
        with pytest.raises(ServiceError) as err:
            services.create_game(creator=alice, variant="classic", opponent=toddler)
        assert err.value.code == "not-eligible" and "too young" in err.value.message
        assert services.create_game(creator=alice, variant="classic", opponent=elder).pk

    def test_house_rules_letters_other_than_x_and_o_are_refused(self, players):
        alice, bob = players
        with pytest.raises(ServiceError) as err:
            services.create_game(creator=alice, variant="classic", opponent=bob, options={"symbols": ["Q", "O"]})
        assert err.value.code == "bad-options" and "X" in err.value.message
        assert not Game.objects.exists()

    @pytest.mark.parametrize("variant, options", [("tactic-toe", {}), ("classic", {"first": "O"}),
                                                  ("nine-square", {"x_player": "player-one"})])
    def test_inline_house_rules_keep_the_standard_clock(self, players, variant, options):
        # "options": {} made a clockless copy: a rated game against a person with no clock,
        # which untimed-needs-ai refuses (rules probe).
        alice, bob = players
        game = services.create_game(creator=alice, variant=variant, opponent=bob, options=options, rated=True)
        standard = rule_sets.standard_rule_set(variant)
        assert game.rule_set.pk != standard.pk and game.rule_set.name == f"Custom {variant}"
        clock = ("seconds_per_move", "seconds_per_game", "no_show_seconds")
        assert [getattr(game.rule_set, f) for f in clock] == [getattr(standard, f) for f in clock]
        assert standard.seconds_per_move or standard.seconds_per_game

    def test_resign_and_abort(self, players):
        alice, bob = players
        game = started(services.create_game(creator=alice, variant="classic", opponent=bob), bob)
        services.resign(game_id=game.pk, user=bob)
        game.refresh_from_db()
        assert game.winner_seat == 0 and "resigned" in game.end_reason
        other = started(services.create_game(creator=alice, variant="classic", opponent=bob), bob)
        services.abort(game_id=other.pk, user=alice)
        assert Game.objects.get(pk=other.pk).status == Game.Status.ABORTED


class TestSecretsAndDice:
    def test_a_plan_is_committed_hidden_then_revealed_and_verifiable(self, players, make_player):
        alice, bob = players
        game = started(services.create_game(creator=alice, variant="tactic-toe", opponent=bob), bob)
        services.submit_move(game_id=game.pk, user=alice, ply=0, move={"plan": [1, 2, 6]})
        game = selectors.load_game(game.pk)
        for viewer in (1, None):
            payload = selectors.game_payload(game, viewer)
            assert "[1, 2, 6]" not in str(payload) and "'plan': [1, 2, 6]" not in str(payload)
            assert payload["moves"][0]["commitment"] and "nonce" not in payload["moves"][0]
        assert selectors.game_payload(game, 0)["moves"][0]["move"] == {"plan": [1, 2, 6]}
        services.submit_move(game_id=game.pk, user=bob, ply=1, move={"plan": [3, 4, 7]})
        for entry in selectors.game_payload(selectors.load_game(game.pk), None)["moves"]:
            expected = hashlib.sha256((services.canonical(entry["move"]) + entry["nonce"]).encode()).hexdigest()
            assert entry["commitment"] == expected

    def test_the_ai_decides_without_the_opponents_unrevealed_plan(self, players, monkeypatch):
        alice, _ = players
        game = services.create_game(creator=alice, variant="tactic-toe", ai_level="strong")
        variant = get_variant("tactic-toe")
        start_state = variant.dump(variant.load(Game.objects.get(pk=game.pk).state))
        services.submit_move(game_id=game.pk, user=alice, ply=0, move={"plan": [1, 2, 6]})
        seen = []
        real_choose = services.choose_move
        monkeypatch.setattr(
            services, "choose_move", lambda v, state, seat, level, rng: seen.append(v.dump(state)) or real_choose(v, state, seat, level, rng)
        )
        services.play_ai_move(game_id=game.pk, ply=1)
        assert seen == [start_state]
        assert Game.objects.get(pk=game.pk).ply == 2

    def test_dice_seed_is_hashed_at_the_start_and_published_at_the_end(self, players):
        alice, _ = players
        game = services.create_game(creator=alice, variant="nine-square", ai_level="random")
        payload = selectors.game_payload(selectors.load_game(game.pk), 0)
        assert payload["seed"] is None and payload["seed_hash"] == game.seed_hash
        game = play_out(game, random.Random(1))
        payload = selectors.game_payload(selectors.load_game(game.pk), None)
        assert hashlib.sha256(payload["seed"].encode()).hexdigest() == payload["seed_hash"]
        variant = get_variant("nine-square")
        log = [(m["seat"], m["move"]) for m in payload["moves"]]
        assert variant.dump(variant.replay(log, game.options, payload["seed"])) == game.state


class TestClocks:
    def test_a_per_move_clock_expires_and_the_opponent_wins(self, players):
        alice, bob = players
        rules = rule_sets.create_rule_set(name="Blitz", variant="classic", seconds_per_move=10, no_show_seconds=30)
        game = started(services.create_game(creator=alice, rule_set=rules, opponent=bob), bob)
        services.submit_move(game_id=game.pk, user=alice, ply=0, move={"cell": 5})
        assert services.flag_expired_clocks(now=timezone.now() + timedelta(seconds=5)) == 0
        assert services.flag_expired_clocks(now=timezone.now() + timedelta(seconds=11)) == 1
        game.refresh_from_db()
        assert game.winner_seat == 0 and "ran out of time" in game.end_reason

    def test_a_move_after_the_deadline_is_refused_and_the_time_out_is_kept(self, players):
        alice, bob = players
        rules = rule_sets.create_rule_set(name="Bullet", variant="classic", seconds_per_move=5, no_show_seconds=30)
        game = started(services.create_game(creator=alice, rule_set=rules, opponent=bob), bob)
        # The first move: the no-show grace (30 s, the least allowed) outlasts the 5 s.
        Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=31))
        with pytest.raises(ServiceError) as err:
            services.submit_move(game_id=game.pk, user=alice, ply=0, move={"cell": 5})
        assert err.value.code == "time-out"
        game.refresh_from_db()
        assert (game.status, game.winner_seat) == ("finished", 1) and not game.moves.exists()

    def test_a_no_show_forfeits_after_the_grace_period(self, players):
        alice, bob = players
        rules = rule_sets.create_rule_set(name="Grace", variant="classic", no_show_seconds=60)
        game = started(services.create_game(creator=alice, rule_set=rules, opponent=bob), bob)
        assert services.flag_expired_clocks(now=timezone.now() + timedelta(seconds=59)) == 0
        assert services.flag_expired_clocks(now=timezone.now() + timedelta(seconds=61)) == 1
        game.refresh_from_db()
        assert game.winner_seat == 1 and "did not show up" in game.end_reason

    @pytest.mark.parametrize(("field", "value"), [
        ("no_show_seconds", 0), ("no_show_seconds", 29), ("seconds_per_move", 0), ("seconds_per_game", 0),
        ("seconds_per_move", rule_sets.MAX_RULE_SECONDS + 1),
    ])
    def test_a_clock_or_grace_out_of_range_is_refused_and_nothing_is_made(self, field, value):
        with pytest.raises(ServiceError) as err:
            rule_sets.create_rule_set(name="Odd", variant="classic", **{field: value})
        assert err.value.code == "bad-time-control" and "whole number of seconds" in err.value.message
        assert not RuleSet.objects.filter(name="Odd").exists()

    def test_the_shortest_no_show_grace_is_allowed(self):
        assert rule_sets.create_rule_set(name="Brisk", variant="classic", no_show_seconds=30).no_show_seconds == 30

    def test_claiming_a_time_out_too_early_is_refused(self, players):
        alice, bob = players
        game = started(services.create_game(creator=alice, variant="classic", opponent=bob), bob)
        with pytest.raises(ServiceError) as err:
            services.claim_timeout(game_id=game.pk, user=bob)
        assert err.value.code == "no-time-out"

    def test_the_game_clock_is_charged_for_the_time_taken(self, players):
        alice, bob = players
        rules = rule_sets.create_rule_set(name="Five minutes", variant="classic", seconds_per_game=300)
        game = started(services.create_game(creator=alice, rule_set=rules, opponent=bob), bob)
        Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=30))
        services.submit_move(game_id=game.pk, user=alice, ply=0, move={"cell": 5})
        clock = game.seats.get(number=0).clock_ms
        assert 269_000 <= clock <= 271_000
        assert game.seats.get(number=1).clock_ms == 300_000


class TestRuleSets:
    def test_editing_makes_a_new_version_and_games_keep_theirs(self, players):
        alice, bob = players
        v1 = rule_sets.create_rule_set(name="House", variant="classic")
        game = services.create_game(creator=alice, rule_set=v1, opponent=bob)
        v2 = rule_sets.revise_rule_set(rule_set=v1, options={"symbols": ["O", "X"], "first": "X"})
        assert (v2.family, v2.version) == (v1.family, 2)
        assert Game.objects.get(pk=game.pk).rule_set == v1
        assert RuleSet.objects.get(pk=v1.pk).is_current is False and v2.is_current

    def test_a_revision_with_a_bad_letter_changes_nothing(self, players):
        v1 = rule_sets.create_rule_set(name="House", variant="classic")
        with pytest.raises(ServiceError):
            rule_sets.revise_rule_set(rule_set=v1, options={"symbols": ["C", "O"]})
        assert RuleSet.objects.count() == 1


class TestMatches:
    def test_best_of_three_against_the_ai_runs_game_after_game(self, players):
        alice, _ = players
        rules = rule_sets.create_rule_set(name="Bo3", variant="classic", match_format="best-of", match_games=3)
        game = services.create_game(creator=alice, rule_set=rules, ai_level="random")
        match = game.match
        rng = random.Random(5)
        for _ in range(10):
            match.refresh_from_db()
            if match.status != Match.Status.ACTIVE:
                break
            play_out(match.games.order_by("-number_in_match").first(), rng)
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        assert 2 <= match.games.count() <= 3 and all(g.status == "finished" for g in match.games.all())

    def test_a_match_challenge_waits_for_its_accept_and_a_decline_calls_the_match_off(self, players):
        from games.models import Match

        alice, bob = players
        rules = rule_sets.create_rule_set(name="Bo3", variant="classic", match_format="best-of", match_games=3)
        first = services.create_game(creator=alice, rule_set=rules, opponent=bob, rated=True)
        assert first.status == Game.Status.OPEN and first.turn_started_at is None  # no clock runs on bob
        services.decline_challenge(game_id=first.pk, user=bob)
        first.refresh_from_db()
        assert first.status == Game.Status.ABORTED and first.match.status == Match.Status.ABORTED
        assert first.match.games.count() == 1  # nothing followed
        against_ai = services.create_game(creator=alice, rule_set=rules, ai_level="random")
        assert against_ai.status == Game.Status.ACTIVE  # the AI needs no asking

    def test_rock_paper_scissors_decides_player_one_live(self, players):
        alice, bob = players
        rules = rule_sets.create_rule_set(name="RPS first", variant="classic", decider="rock-paper-scissors")
        decider = services.create_game(creator=alice, rule_set=rules, opponent=bob)
        # A challenge: nothing starts until bob accepts (an outside probe found a match
        # started, rated, and bob's clock running, without him).
        assert decider.variant == "rock-paper-scissors" and decider.status == Game.Status.OPEN
        decider = services.accept_challenge(game_id=decider.pk, user=bob)
        assert decider.status == Game.Status.ACTIVE
        services.submit_move(game_id=decider.pk, user=alice, ply=0, move={"throw": "rock"})
        services.submit_move(game_id=decider.pk, user=bob, ply=1, move={"throw": "scissors"})
        main = decider.match.games.get(number_in_match=2)
        assert main.variant == "classic" and user_at(main, 0) == alice

    def test_the_official_t_tic_t_tac_toe_match_runs_to_five_games(self, players):
        alice, _ = players
        rules = rule_sets.create_rule_set(name="Official", variant="t-tic-t-tac-toe", match_format="official")
        first = services.create_game(creator=alice, rule_set=rules, ai_level="random")
        match = first.match
        assert first.variant == "rock-paper-scissors"
        rng = random.Random(11)
        for _ in range(40):
            match.refresh_from_db()
            if match.status != Match.Status.ACTIVE:
                break
            current = match.games.order_by("-number_in_match").first()
            if current.status == Game.Status.FINISHED and match.state["stage"] == "version":
                matches.choose_match_version(match_id=match.pk, user=alice, version="1.0")
                continue
            play_out(current, rng)
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        five = match.games.filter(variant="t-tic-t-tac-toe")
        assert five.count() == 5 and all(g.status == "finished" for g in five)
        assert match.games.filter(variant="classic").exists()


def test_private_notes_belong_to_their_author(players, make_player):
    alice, bob = players
    game = started(services.create_game(creator=alice, variant="classic", opponent=bob), bob)
    note = services.save_note(game_id=game.pk, user=alice, text="Bob likes corners")
    assert note.author == alice
    with pytest.raises(ServiceError):
        services.save_note(game_id=game.pk, user=make_player(), text="spy")
