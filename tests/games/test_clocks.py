"""Every game ends: each variant's standard clock, simultaneous steps, the idle limit
for games without a clock, challenges nobody takes, the words people read, and the
lobby's filter by variant and time control (docs/game-page.md, "Clocks")."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.errors import ServiceError
from accounts.models import Notice
from games import rule_sets, selectors, services, time_controls
from games.models import Game, Match, RuleSet
from games.rules import get_variant, variant_slugs
from games.rules.ai import choose_move

pytestmark = pytest.mark.django_db

FIVE_VARIANTS = ["classic", "t-tic-t-tac-toe", "nine-square", "tactic-toe", "tic-tac-two"]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def started(game: Game, user) -> Game:
    return services.accept_challenge(game_id=game.pk, user=user)


def play_one(game: Game, players, seat: int | None = None) -> Game:
    """One legal move (the random AI's choice) for ``seat``, or the first seat to move."""
    game = selectors.load_game(game.pk)
    variant = get_variant(game.variant)
    seat = game.to_move[0] if seat is None else seat
    move = choose_move(variant, variant.load(game.state), seat, "random", random.Random(game.ply))
    user = next(s.user for s in game.seats_in_hand if s.number == seat)
    assert user is not None and user in players
    return services.submit_move(game_id=game.pk, user=user, ply=game.ply, move=move)


def sweep_at(game: Game, seconds: float) -> int:
    """The periodic clock check, ``seconds`` after the current turn began."""
    game.refresh_from_db()
    assert game.turn_started_at is not None
    return services.flag_expired_clocks(now=game.turn_started_at + timedelta(seconds=seconds))


# -- each variant's standard clock -------------------------------------------------------


@pytest.mark.parametrize("slug", variant_slugs())
def test_every_variants_standard_rules_have_its_default_clock(slug):
    engine = get_variant(slug)
    rules = rule_sets.standard_rule_set(slug)
    assert (rules.seconds_per_move, rules.seconds_per_game) == (
        engine.default_seconds_per_move, engine.default_seconds_per_game)
    assert rules.seconds_per_move or rules.seconds_per_game, "every variant's standard game has a clock"
    assert time_controls.label_of(rules) != "No clock"


@pytest.mark.parametrize("slug", FIVE_VARIANTS)
def test_an_abandoned_game_of_each_variant_ends_on_time(slug, alice, bob):
    game = started(services.create_game(creator=alice, variant=slug, opponent=bob, rated=True), bob)
    game = play_one(game, (alice, bob))
    # Tactic-Toe's first step is simultaneous: the other seat plays its half too.
    while game.ply < 2 or len(game.to_move) == 2:
        game = play_one(game, (alice, bob))
    assert game.status == Game.Status.ACTIVE
    [late] = game.to_move
    rules = game.rule_set
    seat = game.seats.get(number=late)
    limit = min(x for x in (rules.seconds_per_move, (seat.clock_ms or 0) / 1000 or None) if x)
    assert sweep_at(game, limit - 1) == 0
    assert sweep_at(game, limit + 1) == 1
    game.refresh_from_db()
    assert (game.status, game.result, game.winner_seat) == ("finished", "win", 1 - late)
    assert game.end_reason == f"Player {late + 1} ran out of time."
    assert game.rated  # walking away from a rated game is no way out of its rating
    loser = seat.user
    notice = Notice.objects.get(recipient=game.seats.get(number=1 - late).user, kind="game-ended")
    assert f"{loser.name} ran out of time." in notice.message


def test_a_per_game_clock_is_shown_for_both_seats_and_runs_for_the_seat_to_move(alice, bob):
    game = started(services.create_game(creator=alice, variant="classic", opponent=bob), bob)
    game = play_one(game, (alice, bob))
    payload = selectors.game_payload(selectors.load_game(game.pk), 0)
    assert payload["rules"]["time_control"] == "3 min per game"
    running = {s["seat"]: s["running"] for s in payload["seats"]}
    assert running == {0: False, 1: True}
    html = client_for(alice).get(reverse("games:game", args=[game.pk])).content.decode()
    clocks = re.findall(r'<span class="clock( running)?[^"]*"[^>]*>([^<]*)</span>', html)
    assert len(clocks) == 2
    assert clocks[1][0] == " running" and clocks[0][0] == ""
    assert re.fullmatch(r"[23]:\d\d", clocks[0][1]) and re.fullmatch(r"[23]:\d\d", clocks[1][1])
    assert "3 min per game" in html


# -- simultaneous steps --------------------------------------------------------------------


def test_in_a_simultaneous_step_only_the_seat_that_has_not_played_is_flagged(alice, bob):
    game = started(services.create_game(creator=alice, variant="tactic-toe", opponent=bob), bob)
    assert sorted(game.to_move) == [0, 1]
    payload = selectors.game_payload(selectors.load_game(game.pk), None)
    assert [s["running"] for s in payload["seats"]] == [True, True]
    html = Client().get(reverse("games:game", args=[game.pk])).content.decode()
    assert html.count('class="clock running') == 2
    game = play_one(game, (alice, bob), seat=0)
    game = play_one(game, (alice, bob), seat=1)  # the first step, both plans: a second step begins
    game = play_one(game, (alice, bob), seat=1)  # seat 1 writes its plan; seat 0 never does
    assert game.to_move == [0]
    payload = selectors.game_payload(selectors.load_game(game.pk), None)
    assert [s["running"] for s in payload["seats"]] == [True, False]
    wait = game.rule_set.seconds_per_move  # 2 min per plan, from the start of the step
    assert sweep_at(game, wait - 1) == 0
    assert sweep_at(game, wait + 1) == 1
    game.refresh_from_db()
    assert (game.result, game.winner_seat, game.end_reason) == ("win", 1, "Player 1 ran out of time.")


def back_in_time(game: Game, seconds: float) -> Game:
    """The game as if it had started, and its first step begun, ``seconds`` earlier."""
    assert game.started_at is not None
    earlier = game.started_at - timedelta(seconds=seconds)
    Game.objects.filter(pk=game.pk).update(started_at=earlier, turn_started_at=earlier)
    return selectors.load_game(game.pk)


def test_the_first_move_is_not_charged_to_the_game_clock(alice, bob):
    """An outside walkthrough: "The first move may take up to 5 min ...; after it, the
    clock is 3 min per game", yet a first move 3½ minutes in left a 3-minute clock at
    0:00, and its player lost on time at the opponent's reply (rated)."""
    game = started(services.create_game(creator=alice, variant="classic", opponent=bob), bob)
    assert game.rule_set.seconds_per_game == 180 and game.rule_set.no_show_seconds == 300
    game = play_one(back_in_time(game, 210), (alice, bob))
    clocks = {s.number: s.clock_ms for s in selectors.load_game(game.pk).seats_in_hand}
    assert clocks == {0: 180_000, 1: 180_000}
    assert sweep_at(game, 30) == 0
    game = play_one(game, (alice, bob))  # the reply, at once: Player 1's clock is whole
    assert game.status == Game.Status.ACTIVE
    assert sweep_at(game, 179) == 0 and sweep_at(game, 181) == 1  # a full 3 minutes from here
    game.refresh_from_db()
    assert game.end_reason == "Player 1 ran out of time."
    # The second move is charged as every later one: Player 2's clock is what it spent.
    second = next(s for s in selectors.load_game(game.pk).seats_in_hand if s.number == 1)
    assert 179_000 <= second.clock_ms <= 180_000


def test_both_halves_of_a_simultaneous_first_step_have_the_no_show_grace(alice, bob):
    """Both players' first plans are first moves: the one still to plan has the grace,
    not the per-move limit, and one who never comes is a no-show (unrated)."""
    game = started(services.create_game(creator=alice, variant="tactic-toe", opponent=bob, rated=True), bob)
    game = play_one(back_in_time(game, 150), (alice, bob), seat=1)  # 2½ minutes in, past the 2-minute limit
    assert game.to_move == [0]
    assert sweep_at(game, 0) == 0  # still inside the 5-minute grace (the old rule flagged it here)
    assert sweep_at(game, game.rule_set.no_show_seconds + 1) == 1
    game.refresh_from_db()
    assert (game.winner_seat, game.end_reason, game.rated) == (1, "Player 1 did not show up.", False)


def test_the_page_says_the_first_moves_grace_for_both_halves_of_a_simultaneous_first_step(alice, bob):
    """The page's note on the first move ("The first move may take up to 5 min ...") follows
    the clocks' first step (Game.on_first_step), not ply 0: after one player's first plan
    the other still has the grace, and the page said nothing of it."""
    game = started(services.create_game(creator=alice, variant="tactic-toe", opponent=bob), bob)
    note = "The first move may take up to 5 min"
    assert note in client_for(bob).get(reverse("games:game", args=[game.pk])).content.decode()
    game = play_one(game, (alice, bob), seat=0)
    assert game.ply == 1 and game.on_first_step
    assert note in client_for(bob).get(reverse("games:game", args=[game.pk])).content.decode()
    game = play_one(game, (alice, bob), seat=1)  # the round is revealed: the clocks run
    assert not selectors.load_game(game.pk).on_first_step
    assert note not in client_for(bob).get(reverse("games:game", args=[game.pk])).content.decode()


def test_when_both_seats_of_a_simultaneous_step_run_out_it_is_a_draw(alice, bob):
    game = started(services.create_game(creator=alice, variant="tactic-toe", opponent=bob), bob)
    game = play_one(game, (alice, bob), seat=0)
    game = play_one(game, (alice, bob), seat=1)
    while game.status == Game.Status.ACTIVE and len(game.to_move) < 2:
        game = play_one(game, (alice, bob))  # the plans are played out, to the next planning step
    assert sorted(game.to_move) == [0, 1]
    assert sweep_at(game, game.rule_set.seconds_per_move + 1) == 1
    game.refresh_from_db()
    assert (game.result, game.winner_seat, game.end_reason) == ("draw", None, "Both players ran out of time.")


def test_when_neither_seat_ever_moves_nobody_is_told_it_was_drawn(alice, bob):
    """The organiser walkthrough's find: a double no-show was told "drawn. Both players
    ran out of time", and scored 0-0 (a double forfeit) by its tournament."""
    from accounts.models import Notice

    game = started(services.create_game(creator=alice, variant="tactic-toe", opponent=bob), bob)
    assert sorted(game.to_move) == [0, 1] and game.ply == 0
    assert sweep_at(game, max(game.rule_set.no_show_seconds, game.rule_set.seconds_per_move) + 1) == 1
    game.refresh_from_db()
    assert (game.result, game.end_reason) == ("draw", "Neither player showed up.")
    told = Notice.objects.get(recipient=alice, kind="game-ended").message
    assert "ended without a move" in told and "drawn" not in told


def test_the_rock_paper_scissors_decider_and_the_match_game_after_it_both_have_clocks(alice, bob):
    rules = rule_sets.create_rule_set(name="Thrown for", variant="classic", decider="rock-paper-scissors",
                                      seconds_per_move=20)
    first = services.create_game(creator=alice, rule_set=rules, opponent=bob)
    first = services.accept_challenge(game_id=first.pk, user=bob)  # then each game of the match starts at once
    assert first.variant == "rock-paper-scissors" and first.rule_set.seconds_per_move == 30
    first = play_one(first, (alice, bob), seat=0)  # bob never throws
    grace = first.rule_set.no_show_seconds  # a first throw is a first move: the no-show grace, not 30 s
    assert sweep_at(first, grace - 1) == 0
    assert sweep_at(first, grace + 1) == 1
    match = Match.objects.get(pk=first.match_id)
    game = match.games.order_by("-number_in_match").first()
    assert game.variant == "classic" and game.status == Game.Status.ACTIVE and game.rule_set == rules
    game = play_one(game, (alice, bob))
    assert sweep_at(game, 21) == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and "ran out of time" in game.end_reason


def test_a_decider_neither_player_throws_calls_the_match_off_and_the_sweep_goes_on(alice, bob):
    """An outside probe: the decider drawn by the clock (no throw from either) stopped
    the clock sweep at an assertion, every 5 s for good, and the games after it in the
    sweep's list were never ended. Now the match is called off, and the sweep ends the
    others."""
    classic = rule_sets.create_rule_set(name="Plain", variant="classic", seconds_per_move=20)
    older = started(services.create_game(creator=alice, rule_set=classic, opponent=bob), bob)
    rules = rule_sets.create_rule_set(name="Thrown for", variant="classic", decider="rock-paper-scissors")
    decider = started(services.create_game(creator=alice, rule_set=rules, opponent=bob), bob)
    assert decider.variant == "rock-paper-scissors"
    later = max(selectors.deadline_for(g, s) for g in (older, decider) for s in g.seats_in_hand if s.number in g.to_move)
    assert services.flag_expired_clocks(now=later + timedelta(seconds=1)) == 2
    decider.refresh_from_db()
    older.refresh_from_db()
    assert (decider.result, older.status) == ("draw", Game.Status.FINISHED)
    match = Match.objects.get(pk=decider.match_id)
    assert match.status == Match.Status.ABORTED and match.games.count() == 1  # no second throw-off
    with pytest.raises(ServiceError) as refused:  # asked by hand, an answer, not a 500
        services.claim_timeout(game_id=decider.pk, user=alice)
    assert refused.value.code == "game-over"


def test_one_games_failure_does_not_stop_the_clock_sweep(alice, bob, monkeypatch, caplog):
    classic = rule_sets.create_rule_set(name="Plain", variant="classic", seconds_per_move=20)
    games = [started(services.create_game(creator=alice, rule_set=classic, opponent=bob), bob) for _ in range(3)]
    broken = games[1].pk
    real = services._flag_if_expired

    def flag(game, now):
        if game.pk == broken:
            raise RuntimeError("a game the sweep cannot end")
        return real(game, now)

    monkeypatch.setattr(services, "_flag_if_expired", flag)
    assert services.flag_expired_clocks(now=timezone.now() + timedelta(minutes=5)) == 2
    assert sorted(Game.objects.filter(status=Game.Status.FINISHED).values_list("pk", flat=True)) == sorted(
        g.pk for g in games if g.pk != broken)
    assert f"could not end game {broken}" in caplog.text


# -- the idle limit ---------------------------------------------------------------------------


def test_a_game_without_a_clock_ends_after_the_idle_limit_and_the_seat_to_move_loses(alice, bob):
    rules = rule_sets.create_rule_set(name="Take your time", variant="classic")
    game = started(services.create_game(creator=alice, rule_set=rules, opponent=bob, rated=True), bob)
    game = play_one(game, (alice, bob))
    assert game.to_move == [1]
    payload = selectors.game_payload(selectors.load_game(game.pk), 1)
    assert payload["rules"]["time_control"] == "No clock" and payload["idle_deadline"]
    html = client_for(bob).get(reverse("games:game", args=[game.pk])).content.decode()
    assert "No clock" in html and "if nobody moves for 3 days" in html and 'class="clock' not in html
    idle = settings.GAME_IDLE_SECONDS
    assert sweep_at(game, idle - 1) == 0
    assert sweep_at(game, idle + 1) == 1
    game.refresh_from_db()
    assert (game.status, game.winner_seat, game.rated) == ("finished", 0, True)
    assert game.end_reason == "The game was abandoned: Player 2 did not move for 3 days."
    notice = Notice.objects.get(recipient=alice, kind="game-ended")
    assert notice.message.endswith(f"The game was abandoned: {bob.name} did not move for 3 days.")


def test_a_game_without_a_clock_says_what_its_cards_countdown_is(alice, bob):
    """The newcomer walkthrough's find: "No clock" in the head and a bare "2d 23:59" on
    the card before the first move looked contradictory. The face counts the first
    move's grace, and its label says so; after the first move there is no face."""
    rules = rule_sets.create_rule_set(name="Take your time", variant="classic")
    game = started(services.create_game(creator=alice, rule_set=rules, opponent=bob), bob)
    html = client_for(alice).get(reverse("games:game", args=[game.pk])).content.decode()
    card = re.search(r'<span class="clock-box"><span class="clock-label">first move within</span>'
                     r'<span class="clock running"[^>]*>([^<]+)</span></span>', html)
    assert card and re.fullmatch(r"\d+:\d\d", card.group(1))  # the 5 minutes' grace, counting
    assert html.count('class="clock-label"') == 1  # the seat to move only
    game = play_one(selectors.load_game(game.pk), (alice, bob))
    assert "first move within" not in client_for(alice).get(reverse("games:game", args=[game.pk])).content.decode()


def test_no_clock_is_said_with_the_idle_limit_in_the_lobby_and_the_games_head(alice, bob):
    """A tester: the lobby's "No clock: take your time" and then the game's "first move
    within 2d 23:59" countdown disagreed. Both say the limit there is: 3 days a move."""
    lobby = client_for(alice).get(reverse("games:lobby")).content.decode()
    assert ">No clock: 3 days a move</option>" in lobby and "take your time" not in lobby
    rules = rule_sets.create_rule_set(name="Take your time", variant="classic")
    game = started(services.create_game(creator=alice, rule_set=rules, opponent=bob), bob)
    html = client_for(alice).get(reverse("games:game", args=[game.pk])).content.decode()
    assert '<span class="time-control" title="The time control">No clock: 3 days a move</span>' in html
    timed = started(services.create_game(creator=alice, variant="classic", opponent=bob), bob)
    html = client_for(alice).get(reverse("games:game", args=[timed.pk])).content.decode()
    assert '<span class="time-control" title="The time control">3 min per game</span>' in html


def test_a_timed_games_countdown_before_the_first_move_says_what_it_counts(alice, bob):
    """A walkthrough's find: "3 min per game" in the head and a bare 4:55 on the card of
    the seat to move. The face counts the first move's grace (5 min), under the label the
    game without a clock has; the waiting seat's 3:00 is its clock, unlabelled. After the
    first move the faces are the clock's, and no label is left."""
    game = started(services.create_game(creator=alice, variant="classic", opponent=bob), bob)
    assert game.rule_set.seconds_per_game == 180 and game.rule_set.no_show_seconds == 300
    html = client_for(alice).get(reverse("games:game", args=[game.pk])).content.decode()
    card = re.search(r'<span class="clock-box"><span class="clock-label">first move within</span>'
                     r'<span class="clock running"[^>]*aria-label="Time left for [^"]+\'s first move">'
                     r'(\d+:\d\d)</span></span>', html)
    assert card and card.group(1) > "3:00"  # the grace, not the 3 minutes
    assert html.count('class="clock-label"') == 1  # the seat to move only
    game = play_one(selectors.load_game(game.pk), (alice, bob))
    html = client_for(alice).get(reverse("games:game", args=[game.pk])).content.decode()
    assert "first move within" not in html and html.count('class="clock running"') == 1


def test_a_game_without_a_clock_and_no_first_move_is_a_no_show(alice, bob):
    rules = rule_sets.create_rule_set(name="Take your time", variant="classic", no_show_seconds=600)
    game = started(services.create_game(creator=alice, rule_set=rules, opponent=bob), bob)
    assert sweep_at(game, 599) == 0
    assert sweep_at(game, 601) == 1
    game.refresh_from_db()
    assert (game.winner_seat, game.end_reason) == (1, "Player 1 did not show up.")


def test_a_simultaneous_game_without_a_clock_both_idle_is_drawn(alice, bob):
    rules = rule_sets.create_rule_set(name="Slow plans", variant="tactic-toe")
    game = started(services.create_game(creator=alice, rule_set=rules, opponent=bob), bob)
    game = play_one(game, (alice, bob), seat=0)
    game = play_one(game, (alice, bob), seat=1)
    while game.status == Game.Status.ACTIVE and len(game.to_move) < 2:
        game = play_one(game, (alice, bob))
    assert sweep_at(game, settings.GAME_IDLE_SECONDS + 1) == 1
    game.refresh_from_db()
    assert (game.result, game.end_reason) == ("draw", "The game was abandoned: neither player moved for 3 days.")


def test_the_idle_limit_is_a_setting(alice, bob, settings):
    settings.GAME_IDLE_SECONDS = 3600
    rules = rule_sets.create_rule_set(name="Take your time", variant="classic")
    game = play_one(started(services.create_game(creator=alice, rule_set=rules, opponent=bob), bob), (alice, bob))
    assert sweep_at(game, 3601) == 1
    assert Game.objects.get(pk=game.pk).end_reason.endswith("did not move for 1 hour.")


def test_a_challenge_nobody_accepts_is_called_off_after_the_idle_limit(alice):
    game = services.create_game(creator=alice, variant="classic")
    later = game.created_at + timedelta(seconds=settings.GAME_IDLE_SECONDS)
    assert services.flag_expired_clocks(now=later - timedelta(seconds=1)) == 0
    assert services.flag_expired_clocks(now=later + timedelta(seconds=1)) == 1
    game.refresh_from_db()
    assert (game.status, game.end_reason) == ("aborted", "Nobody accepted the challenge within 3 days.")


def test_the_sweep_leaves_games_with_time_left_alone(alice, bob):
    games = [started(services.create_game(creator=alice, variant=slug, opponent=bob), bob) for slug in FIVE_VARIANTS]
    assert services.flag_expired_clocks(now=timezone.now() + timedelta(seconds=5)) == 0
    assert not Game.objects.filter(pk__in=[g.pk for g in games]).exclude(status="active").exists()


# -- the vocabulary --------------------------------------------------------------------------


@pytest.mark.parametrize(("per_move", "per_game", "label", "pace"), [
    (None, None, "No clock", "none"),
    (60, None, "1 min per move", "quick"),
    (30, None, "30 s per move", "quick"),
    (None, 300, "5 min per game", "quick"),
    (90, None, "1 min 30 s per move", "long"),
    (None, 3600, "1 h per game", "long"),
    (30, 600, "10 min per game, 30 s per move", "quick"),
    (3 * 24 * 3600, None, "3 days per move", "correspondence"),
    (None, 86400, "1 day per game", "correspondence"),
])
def test_time_control_labels_and_paces(per_move, per_game, label, pace, alice):
    assert time_controls.label(per_move, per_game) == label
    assert time_controls.pace(per_move, per_game) == pace
    # The lobby's database filter sorts the set as the words do.
    rules = rule_sets.create_rule_set(name="Any", variant="classic", seconds_per_move=per_move,
                                      seconds_per_game=per_game)
    matching = {key for key in time_controls.PACES
                if RuleSet.objects.filter(time_controls.pace_filter(key, prefix=""), pk=rules.pk).exists()}
    assert matching == {pace}


def test_clock_faces():
    assert [time_controls.clock_text(ms) for ms in (0, 1, 9_001, 180_000, 3_723_000, 3 * 86_400_000)] == [
        "0:00", "0:01", "0:10", "3:00", "1:02:03", "3d 00:00"]


# -- the standard sets made before the defaults -------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_old_standard_sets_a_clock_and_games_keep_their_version(alice, bob):
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0003_match_kind_label")])
    try:
        old = MigrationExecutor(connection).loader.project_state([("games", "0003_match_kind_label")]).apps
        OldRuleSet = old.get_model("games", "RuleSet")
        unclocked = OldRuleSet.objects.create(name="Standard nine-square", variant="nine-square", is_standard=True,
                                              options=get_variant("nine-square").default_options())
        house = OldRuleSet.objects.create(name="Mine", variant="nine-square", created_by_id=alice.pk)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    current = rule_sets.standard_rule_set("nine-square")
    assert (current.family, current.version, current.seconds_per_move) == (unclocked.family, 2, 60)
    assert not RuleSet.objects.get(pk=unclocked.pk).is_current
    assert RuleSet.objects.get(pk=house.pk).seconds_per_move is None  # a player's set is theirs


# -- the lobby's filter ------------------------------------------------------------------------


@pytest.fixture
def open_challenges(alice, make_player):
    quick = services.create_game(creator=alice, variant="classic")
    planned = services.create_game(creator=alice, variant="tactic-toe")
    slow = services.create_game(creator=alice, rule_set=rule_sets.create_rule_set(
        name="Slow", variant="classic", seconds_per_move=2 * 86400))
    return {"quick": quick, "planned": planned, "slow": slow}


def listed(html: str) -> set[int]:
    return {int(pk) for pk in re.findall(r'id="open-(\d+)"', html)}


def test_the_lobby_shows_each_challenges_time_control(open_challenges):
    html = Client().get(reverse("games:lobby")).content.decode()
    assert listed(html) == {g.pk for g in open_challenges.values()}
    assert "3 min per game" in html and "2 min per move" in html and "2 days per move" in html
    assert 'name="pace"' in html and 'name="variant"' in html


@pytest.mark.parametrize(("query", "expected"), [
    ({"variant": "classic"}, {"quick", "slow"}),
    ({"variant": "tactic-toe"}, {"planned"}),
    ({"pace": "quick"}, {"quick"}),
    ({"pace": "long"}, {"planned"}),
    ({"pace": "correspondence"}, {"slow"}),
    ({"variant": "classic", "pace": "correspondence"}, {"slow"}),
    ({"pace": "none"}, set()),
])
def test_the_lobby_filters_by_variant_and_time_control(open_challenges, query, expected):
    html = Client().get(reverse("games:lobby"), query).content.decode()
    assert listed(html) == {open_challenges[key].pk for key in expected}
    # The lists' periodic refresh keeps the filter.
    refresh = re.search(r'id="lobby-lists"[^>]*hx-get="([^"]*)"', html).group(1)
    for key, value in query.items():
        assert f"{key}={value}" in refresh


def test_the_filter_bar_gets_the_lists_alone_with_htmx(open_challenges):
    response = Client().get(reverse("games:lobby"), {"variant": "tactic-toe"}, HTTP_HX_REQUEST="true",
                            HTTP_HX_TARGET="lobby-lists")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html and html.lstrip().startswith('<div id="lobby-lists"')
    assert listed(html) == {open_challenges["planned"].pk}
    refresh = Client().get(reverse("games:lobby"), {"part": "lists", "pace": "correspondence"},
                           HTTP_HX_REQUEST="true").content.decode()
    assert listed(refresh) == {open_challenges["slow"].pk}


@pytest.mark.parametrize("query", [
    {"variant": "chess"}, {"pace": "lightning"}, {"variant": "x" * 5000}, {"pace": "\u202e"},
    {"variant": "' OR 1=1 --"},
])
def test_a_bad_filter_value_is_ignored_with_a_word_why(open_challenges, query):
    response = Client().get(reverse("games:lobby"), query)
    html = response.content.decode()
    assert response.status_code == 200
    assert listed(html) == {g.pk for g in open_challenges.values()}
    assert "There is no such" in html
