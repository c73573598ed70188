"""Tournament operations from the console (moderation/operations.py) on league's real
competition services: start a round now, forfeit, adjudicate, withdraw; each audited,
each refused for another club and without a reason, changing nothing then."""

from __future__ import annotations

import pytest
from django.db.models import Q

from accounts.errors import ServiceError
from games.models import Game
from league import competitions as cs
from league.models import Entry, Pairing, Round, Standing
from moderation import operations
from moderation.models import AuditEntry

from .support import refused, tournament_section

pytestmark = pytest.mark.django_db


def test_start_a_round_now(world):
    section = tournament_section(world, [world.player_1, world.player_2], start=False)
    round_1 = Round.objects.get(section=section, number=1)
    refused("not-organiser", operations.start_round_now, actor=world.arbiter_a, round_id=round_1.pk)
    refused("not-organiser", operations.start_round_now, actor=world.organiser_b, round_id=round_1.pk)
    started = operations.start_round_now(actor=world.organiser_a, round_id=round_1.pk, reason="Everyone is here")
    assert started.status == Round.Status.IN_PLAY and started.pairings.count() == 1
    entry = AuditEntry.objects.get(action="round.start-now")
    assert entry.club == world.club_a and entry.reason == "Everyone is here" and entry.details["round"] == 1
    refused("round-started", operations.start_round_now, actor=world.organiser_a, round_id=round_1.pk)
    # A later stage waits for the stage before it, and says so (it said "the section is over").
    later = cs.create_section(tournament=section.tournament, name="Final", format="single-elimination",
                              rule_set=section.rule_set, previous_stage=section, advance=2,
                              starts_at=section.starts_at)
    with pytest.raises(ServiceError) as err:
        operations.start_round_now(actor=world.organiser_a, round_id=Round.objects.get(section=later, number=1).pk)
    assert (err.value.code, err.value.message) == ("later-stage", f"Final starts when {section.name} finishes, "
                                                                  "with the top 2: its round 1 is paired then.")


def test_forfeit_a_game_not_begun_scores_it_and_moves_the_standings(world):
    section = tournament_section(world, [world.player_1, world.player_2])
    pairing = Pairing.objects.get(section=section)
    assert pairing.status == Pairing.Status.IN_PLAY and not Standing.objects.filter(section=section, points__gt=0).exists()
    refused("reason-required", operations.forfeit, actor=world.arbiter_a, pairing_id=pairing.pk, loser="second",
            reason=" ")
    refused("not-a-moderator", operations.forfeit, actor=world.organiser_b, pairing_id=pairing.pk, loser="second",
            reason="No show")
    refused("bad-loser", operations.forfeit, actor=world.arbiter_a, pairing_id=pairing.pk, loser="nobody",
            reason="No show")
    operations.forfeit(actor=world.arbiter_a, pairing_id=pairing.pk, loser="second", reason="No show")
    pairing.refresh_from_db()
    assert pairing.result == Pairing.Result.FIRST_FORFEIT_WIN
    assert (pairing.first_points, pairing.second_points) == (1.0, 0.0)
    assert Game.objects.get(pk=pairing.game_id).status == Game.Status.ABORTED  # never rated
    points = dict(Standing.objects.filter(section=section).values_list("user_id", "points"))
    assert points[pairing.first_id] == 1.0 and points[pairing.second_id] == 0.0
    audit = AuditEntry.objects.get(action="game.forfeit")
    assert audit.actor == world.arbiter_a and audit.reason == "No show" and audit.club == world.club_a
    refused("already-scored", operations.forfeit, actor=world.arbiter_a, pairing_id=pairing.pk, loser="first",
            reason="Again")


def test_forfeit_a_game_begun_resigns_it_for_the_forfeiting_player(world):
    from games import services as games

    section = tournament_section(world, [world.player_1, world.player_2])
    pairing = Pairing.objects.get(section=section)
    game = Game.objects.get(pk=pairing.game_id)
    mover = game.seats.get(number=game.to_move[0]).user
    games.submit_move(game_id=game.pk, user=mover, ply=0, move={"cell": 5})
    operations.forfeit(actor=world.organiser_a, pairing_id=pairing.pk, loser="first", reason="Left the hall")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.seats.get(number=game.winner_seat).user_id == pairing.second_id
    assert not game.rated  # a forfeit is never rated


def test_adjudicate(world):
    section = tournament_section(world, [world.player_1, world.player_2])
    pairing = Pairing.objects.get(section=section)
    refused("game-in-play", operations.adjudicate, actor=world.arbiter_a, pairing_id=pairing.pk, result="draw",
            reason="Dead drawn")
    refused("bad-result", operations.adjudicate, actor=world.arbiter_a, pairing_id=pairing.pk, result="2-0",
            reason="x")
    operations.adjudicate(actor=world.arbiter_a, pairing_id=pairing.pk, result="0-1", reason="Flag fell on paper")
    pairing.refresh_from_db()
    assert pairing.result == Pairing.Result.SECOND_WON and pairing.second_points == 1.0
    assert AuditEntry.objects.filter(action="game.adjudicate", reason="Flag fell on paper").exists()


def test_withdraw_a_player(world, make_player):
    extra = make_player(username="third")
    section = tournament_section(world, [world.player_1, world.player_2, extra])
    entry = Entry.objects.get(section=section, user=extra)
    refused("not-a-moderator", operations.withdraw_player, actor=world.organiser_b, entry_id=entry.pk,
            reason="Ill")
    operations.withdraw_player(actor=world.arbiter_a, entry_id=entry.pk, reason="Ill")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN and entry.withdrawn_reason == "Ill"
    assert AuditEntry.objects.filter(action="entry.withdraw", club=world.club_a).exists()


def test_nobody_decides_a_game_or_pairs_a_section_they_play_in(world, make_player):
    """Recusal (docs/moderation.md): found by an outside probe, an arbiter who played in
    a section corrected her own game's result."""
    extra = make_player(username="third")
    section = tournament_section(world, [world.arbiter_a, world.player_1, world.player_2, extra])
    own = Pairing.objects.get(Q(first=world.arbiter_a) | Q(second=world.arbiter_a), section=section)
    rivals = Pairing.objects.filter(section=section).exclude(pk=own.pk).get()
    for call, kwargs in ((operations.forfeit, {"loser": "first"}), (operations.adjudicate, {"result": "1-0"})):
        refused("own-game", call, actor=world.arbiter_a, pairing_id=own.pk, reason="Mine", **kwargs)
        # Nor a rival's game in her section: its result moves her own standing (an outside
        # probe's find: she forfeited a rival's game).
        refused("own-section", call, actor=world.arbiter_a, pairing_id=rivals.pk, reason="Rival", **kwargs)
    refused("own-section", operations.withdraw_player, actor=world.arbiter_a,
            entry_id=Entry.objects.get(section=section, user=extra).pk, reason="Rival")
    refused("own-section", operations.set_round_pairings, actor=world.arbiter_a,
            round_id=Round.objects.filter(section=section).first().pk, text="001    1      A")
    # Another arbiter of the club decides her game; she withdraws herself, as any player.
    operations.forfeit(actor=world.organiser_a, pairing_id=own.pk, loser="first", reason="Left")
    refused("own-game", operations.correct_result, actor=world.arbiter_a, pairing_id=own.pk, result="0-1",
            reason="Mine")
    operations.withdraw_player(actor=world.arbiter_a, entry_id=Entry.objects.get(section=section,
                                                                                user=world.arbiter_a).pk, reason="Done")
    assert AuditEntry.objects.filter(action="entry.withdraw", actor=world.arbiter_a).exists()


def test_tournament_games_follow_the_section_policy_and_tournament_bans(world, make_player):
    from league.models import Section
    from moderation import services
    from moderation.watching import effective_policy, watch_gate

    section = tournament_section(world, [world.player_1, world.player_2])
    game = Game.objects.get(pk=Pairing.objects.get(section=section).game_id)
    outsider = make_player(username="outsider")
    assert effective_policy(game).source == "section"
    Section.objects.filter(pk=section.pk).update(observer_policy="members")
    assert watch_gate(game, outsider).code == "members-only"
    assert watch_gate(game, world.member_a) is None
    services.set_observer_policy(actor=world.organiser_a, section=section, policy="signed-in", cap=5)
    assert effective_policy(game).source == "section override"
    assert watch_gate(game, outsider) is None
    services.set_observer_policy(actor=world.organiser_a, game=game, policy="none")
    assert watch_gate(game, outsider).code == "observers-not-allowed"
    services.remove_observer_policy(actor=world.organiser_a, policy=game.observer_policy)
    services.ban_user(actor=world.arbiter_a, user=outsider, tournament=section.tournament, reason="Heckling")
    assert watch_gate(game, outsider).code == "banned"
    assert watch_gate(world.game_a, outsider) is None  # not a game of that tournament


def test_the_watch_gates_one_query_place_agrees_with_place_of_game(world, make_player):
    """watch_place (hand-written SQL) and selectors.place_of_game (the ORM) must say the
    same for a tournament game, a club's game, a match game and a platform game."""
    from games import rule_sets as game_rule_sets
    from games import services as games
    from moderation.selectors import place_of_game
    from moderation.watching import watch_place

    section = tournament_section(world, [world.player_1, world.player_2])
    tournament_game = Game.objects.get(pk=Pairing.objects.get(section=section).game_id)
    platform_game = games.create_game(creator=world.player_1, variant="classic", opponent=world.player_2)
    best_of_3 = game_rule_sets.create_rule_set(variant="classic", name="A's best of 3", match_format="best-of", match_games=3)
    from moderation.models import ClubRuleSet

    ClubRuleSet.objects.create(family=best_of_3.family, club=world.club_b)
    match_game = games.create_game(creator=world.player_1, rule_set=best_of_3, opponent=world.player_2)
    assert match_game.match_id is not None
    for game in (tournament_game, world.game_a, world.game_b, platform_game, match_game):
        game = Game.objects.select_related("rule_set").get(pk=game.pk)
        place, fast = place_of_game(game), watch_place(game)
        assert fast.club_id == (place.club.pk if place.club else None), game
        assert fast.section_id == (place.section.pk if place.section else None), game
        assert fast.tournament_id == (place.section.tournament_id if place.section else None)
        assert fast.section_policy == (place.section.observer_policy if place.section else None)
    assert watch_place(tournament_game).club_id == world.club_a.pk
    assert watch_place(match_game).club_id == world.club_b.pk
    assert watch_place(platform_game).club_id is None


def test_the_watch_gates_ban_lookup_finds_the_newest_ban_in_force_in_each_scope(world, make_player):
    """active_ban (hand-written SQL): a ban of the game, its tournament or its club keeps
    the user out, the newest first; a lifted ban, another user's or another club's does not."""
    from moderation import services
    from moderation.watching import active_ban, watch_place

    section = tournament_section(world, [world.player_1, world.player_2])
    game = Game.objects.select_related("rule_set").get(pk=Pairing.objects.get(section=section).game_id)
    place = watch_place(game)
    viewer, other = make_player(username="viewer"), make_player(username="other")
    assert active_ban(user=viewer, game=game, place=place) is None
    services.ban_user(actor=world.organiser_b, user=viewer, club=world.club_b, reason="Elsewhere")
    services.ban_user(actor=world.arbiter_a, user=other, game=game, reason="Not them")
    assert active_ban(user=viewer, game=game, place=place) is None
    for scope, reason in (({"club": world.club_a}, "Club"), ({"tournament": section.tournament}, "Tournament"),
                          ({"game": game}, "Game")):
        ban = services.ban_user(actor=world.organiser_a, user=viewer, reason=reason, **scope)
        found = active_ban(user=viewer, game=game, place=place)
        assert found is not None and (found.pk, found.reason) == (ban.pk, reason)
    services.lift_ban(actor=world.organiser_a, ban=found)
    found = active_ban(user=viewer, game=game, place=place)
    assert found is not None and found.reason == "Tournament"


@pytest.mark.parametrize("who,allowed", [("superuser", True), ("organiser_a", True), ("arbiter_a", True),
                                         ("organiser_b", False), ("member_a", False)])
def test_the_forfeit_action_in_the_admin(client, world, who, allowed):
    section = tournament_section(world, [world.player_1, world.player_2])
    pairing = Pairing.objects.get(section=section)
    client.force_login(getattr(world, who))
    listed = client.get("/admin/league/pairing/")
    assert (listed.status_code == 200 and f"/{pairing.pk}/change/" in listed.content.decode()) == allowed
    confirm = client.post("/admin/league/pairing/", {"action": "forfeit_second", "_selected_action": [pairing.pk]})
    if allowed:
        assert "please confirm" in confirm.content.decode()
    client.post("/admin/league/pairing/", {"action": "forfeit_second", "_selected_action": [pairing.pk],
                                           "confirm": "yes", "reason": "No show"})
    pairing.refresh_from_db()
    assert (pairing.result == Pairing.Result.FIRST_FORFEIT_WIN) == allowed
    # Nobody edits a pairing's fields by hand.
    client.post(f"/admin/league/pairing/{pairing.pk}/change/", {"result": "0-1"})
    pairing.refresh_from_db()
    assert pairing.result != Pairing.Result.SECOND_WON


def test_correct_a_result_and_the_standings_and_ratings_follow(world):
    from games import services as games
    from league.models import Rating, RecomputeRun
    from league.ratings import recompute
    from league.ratings import services as rating_services

    section = tournament_section(world, [world.player_1, world.player_2])
    pairing = Pairing.objects.get(section=section)
    game = Game.objects.get(pk=pairing.game_id)
    first = game.seats.get(number=0).user
    second = game.seats.get(number=1).user
    refused("no-result-yet", operations.correct_result, actor=world.arbiter_a, pairing_id=pairing.pk, result="0-1",
            reason="Wrong result")
    for ply, (user, cell) in enumerate([(first, 1), (second, 4), (first, 2), (second, 5), (first, 3)]):
        games.submit_move(game_id=game.pk, user=user, ply=ply, move={"cell": cell})
    cs.record_game_result(game_id=game.pk)  # what the game_finished task does
    rating_services.rate_game(game_id=game.pk)
    pairing.refresh_from_db()
    assert pairing.result == Pairing.Result.FIRST_WON
    assert dict(Standing.objects.filter(section=section).values_list("user_id", "points"))[first.pk] == 1.0

    refused("not-a-moderator", operations.correct_result, actor=world.organiser_b, pairing_id=pairing.pk,
            result="0-1", reason="x")
    refused("reason-required", operations.correct_result, actor=world.arbiter_a, pairing_id=pairing.pk,
            result="0-1", reason="")
    operations.correct_result(actor=world.arbiter_a, pairing_id=pairing.pk, result="0-1",
                              reason="The line was completed after the flag fell")
    pairing.refresh_from_db()
    assert pairing.result == Pairing.Result.SECOND_WON
    points = dict(Standing.objects.filter(section=section).values_list("user_id", "points"))
    assert (points[first.pk], points[second.pk]) == (0.0, 1.0)
    game.refresh_from_db()
    assert game.winner_seat == 1 and "corrected" in game.end_reason
    assert RecomputeRun.objects.filter(requested_by=world.arbiter_a).exists()
    recompute.recompute_all()  # what the queued task runs
    ratings = dict(Rating.objects.filter(variant="classic", list_key="league").values_list("user_id", "rating"))
    assert ratings[second.pk] > ratings[first.pk]
    entry = AuditEntry.objects.get(action="result.correct")
    assert entry.details["before"] == "1-0" and entry.details["after"] == "0-1"
