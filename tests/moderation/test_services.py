"""moderation.services: refusals change nothing; console access follows club roles;
the audit log records who, what, when, why, on what and in which club."""

from __future__ import annotations

import pytest

from accounts.errors import ServiceError
from moderation import services
from moderation.models import AuditEntry, ObserverBan, ObserverPolicy

pytestmark = pytest.mark.django_db


def refused(code, call, **kwargs):
    before = (AuditEntry.objects.count(), ObserverBan.objects.count(), ObserverPolicy.objects.count())
    with pytest.raises(ServiceError) as err:
        call(**kwargs)
    assert err.value.code == code, err.value.message
    assert (AuditEntry.objects.count(), ObserverBan.objects.count(), ObserverPolicy.objects.count()) == before
    return err.value.message


def test_another_clubs_organiser_is_refused_everywhere(world):
    w = world
    refused("not-a-moderator", services.ban_user, actor=w.organiser_b, user=w.member_a, club=w.club_a, reason="x")
    refused("not-a-moderator", services.ban_user, actor=w.organiser_b, user=w.member_a, game=w.game_a, reason="x")
    refused("not-organiser", services.set_observer_policy, actor=w.organiser_b, club=w.club_a, policy="none")
    refused("not-organiser", services.set_observer_policy, actor=w.organiser_b, game=w.game_a, policy="none")
    refused("not-organiser", services.save_house_rules, actor=w.organiser_b, rule_set=w.rules_a,
            fields={"options": {"first": "O"}})
    refused("not-organiser", services.save_house_rules, actor=w.organiser_b, club=w.club_a,
            fields={"name": "Sneaky", "variant": "classic"})


def test_arbiters_moderate_observers_but_organisers_set_rules_and_policies(world):
    w = world
    refused("not-organiser", services.set_observer_policy, actor=w.arbiter_a, club=w.club_a, policy="none")
    refused("not-organiser", services.save_house_rules, actor=w.arbiter_a, club=w.club_a,
            fields={"name": "Arb", "variant": "classic"})
    ban = services.ban_user(actor=w.arbiter_a, user=w.member_a, club=w.club_a, reason="Heckling")
    assert ban.is_active


def test_players_and_members_moderate_nothing(world):
    w = world
    refused("not-a-moderator", services.ban_user, actor=w.member_a, user=w.player_1, club=w.club_a, reason="x")
    refused("not-organiser", services.set_observer_policy, actor=w.player_1, club=w.club_a, policy="none")


def test_bad_input_is_refused_clearly(world):
    w = world
    assert "reason" in refused("reason-required", services.ban_user, actor=w.organiser_a, user=w.member_a,
                               club=w.club_a, reason="   ")
    refused("bad-scope", services.ban_user, actor=w.organiser_a, user=w.member_a, club=w.club_a, game=w.game_a,
            reason="x")
    refused("bad-scope", services.set_observer_policy, actor=w.organiser_a, policy="none")
    refused("bad-policy", services.set_observer_policy, actor=w.organiser_a, club=w.club_a, policy="friends")
    refused("bad-cap", services.set_observer_policy, actor=w.organiser_a, club=w.club_a, policy="anyone", cap=-1)
    refused("bad-cap", services.set_observer_policy, actor=w.organiser_a, club=w.club_a, policy="anyone", cap=True)
    refused("guest-not-bannable", services.ban_observer, actor=w.organiser_a, user=None, game=w.game_a,
            scope="game", reason="x")
    refused("cannot-ban-moderator", services.ban_user, actor=w.organiser_a, user=w.arbiter_a, club=w.club_a,
            reason="x")
    refused("no-tournament", services.ban_observer, actor=w.organiser_a, user=w.member_a, game=w.game_a,
            scope="tournament", reason="x")
    refused("bad-scope", services.ban_observer, actor=w.organiser_a, user=w.member_a, game=w.game_a,
            scope="planet", reason="x")


def test_a_game_under_the_platforms_rules_is_for_superusers_only(world):
    from games import services as games

    w = world
    game = games.create_game(creator=w.player_1, variant="classic", opponent=w.player_2)
    refused("not-a-moderator", services.ban_user, actor=w.organiser_a, user=w.member_a, game=game, reason="x")
    refused("no-club", services.ban_observer, actor=w.superuser, user=w.member_a, game=game, scope="club",
            reason="x")
    assert services.ban_user(actor=w.superuser, user=w.member_a, game=game, reason="x").club is None


def test_a_policy_is_one_row_per_scope_and_audited(world):
    w = world
    services.set_observer_policy(actor=w.organiser_a, club=w.club_a, policy="members", cap=10)
    row = services.set_observer_policy(actor=w.organiser_a, club=w.club_a, policy="signed-in", cap=None)
    assert ObserverPolicy.objects.filter(club=w.club_a).count() == 1
    assert (row.policy, row.cap) == ("signed-in", None)
    entries = AuditEntry.objects.filter(action="observers.policy").order_by("pk")
    assert [e.details["policy"] for e in entries] == ["members", "signed-in"]
    services.remove_observer_policy(actor=w.organiser_a, policy=row)
    assert not ObserverPolicy.objects.exists()
    assert AuditEntry.objects.filter(action="observers.policy-removed", club=w.club_a).exists()


@pytest.mark.parametrize("cap", [0, -1, 100_001, 99_999_999_999_999, True, 2.0])
def test_an_observer_cap_out_of_range_is_refused_in_words(world, cap):
    """0 read "Anyone, at most 0"; 99999999999999 overflowed PostgreSQL's column (a 500)."""
    refused("bad-cap", services.set_observer_policy, actor=world.organiser_a, club=world.club_a,
            policy="anyone", cap=cap)
    with pytest.raises(ServiceError, match="from 1 to 100,000"):
        services.set_observer_policy(actor=world.organiser_a, club=world.club_a, policy="anyone", cap=cap)


def test_an_observer_cap_from_1_to_100000_or_none_is_kept(world):
    for cap in (1, 100_000, None):
        row = services.set_observer_policy(actor=world.organiser_a, club=world.club_a, policy="anyone", cap=cap)
        assert ObserverPolicy.objects.get(pk=row.pk).cap == cap


def test_a_ban_is_lifted_once_and_kept(world):
    w = world
    ban = services.ban_user(actor=w.organiser_a, user=w.member_a, club=w.club_a, reason="Heckling")
    services.lift_ban(actor=w.arbiter_a, ban=ban, reason="Apologised")
    refused("already-lifted", services.lift_ban, actor=w.arbiter_a, ban=ban)
    ban.refresh_from_db()
    assert ban.lifted_by == w.arbiter_a and ObserverBan.objects.filter(pk=ban.pk).exists()


def test_record_keeps_who_what_why_target_and_club(world):
    w = world
    entry = services.record(actor=w.organiser_a, action="round.start", target=w.game_a, club=w.club_a,
                            reason="Players ready early", details={"round": 2})
    assert (entry.actor_name, entry.action, entry.target_type, entry.target_id) == (
        "organiser_a", "round.start", "games.game", str(w.game_a.pk))
    assert entry.reason == "Players ready early" and entry.details == {"round": 2} and entry.created_at
    system = services.record(actor=None, action="round.start", target=w.game_a)
    assert system.actor is None and system.actor_name == ""
    with pytest.raises(ServiceError):
        services.record(actor=None, action="", target=w.game_a)


def test_console_access_follows_club_roles(world, make_player):
    from league.clubs import services as league
    from league.models import ClubMembership

    w = world
    assert w.organiser_a.is_staff and w.arbiter_a.is_staff and w.organiser_b.is_staff
    assert not w.member_a.is_staff
    assert set(w.organiser_a.groups.values_list("name", flat=True)) == {services.ORGANISERS_GROUP}
    assert set(w.arbiter_a.groups.values_list("name", flat=True)) == {services.ARBITERS_GROUP}
    # Promoted, then back to member: staff given, then taken back.
    league.set_membership(club=w.club_a, user=w.member_a, role="arbiter")
    w.member_a.refresh_from_db()
    assert w.member_a.is_staff
    league.set_membership(club=w.club_a, user=w.member_a, role="member")
    w.member_a.refresh_from_db()
    assert not w.member_a.is_staff and not w.member_a.groups.exists()
    # Leaving the club closes the console too.
    ClubMembership.objects.filter(user=w.arbiter_a).delete()
    w.arbiter_a.refresh_from_db()
    assert not w.arbiter_a.is_staff
    assert AuditEntry.objects.filter(action="console.revoke", target_id=str(w.arbiter_a.pk)).exists()
    # Staff made by hand stays staff.
    staff = make_player(username="helpdesk")
    staff.is_staff = True
    staff.save()
    league.set_membership(club=w.club_b, user=staff, role="arbiter")
    league.set_membership(club=w.club_b, user=staff, role="member")
    staff.refresh_from_db()
    assert staff.is_staff


def test_the_watch_gate_costs_a_handful_of_queries(world, django_assert_max_num_queries,
                                                  django_assert_num_queries):
    """Every observer's connect runs the gate: two small queries for anyone not signed
    in (the game's place, its policy rows), a few more for a signed-in viewer."""
    from django.contrib.auth.models import AnonymousUser

    from moderation.watching import watch_gate

    with django_assert_num_queries(2):
        assert watch_gate(world.game_a, AnonymousUser()) is None
    services.set_observer_policy(actor=world.organiser_a, club=world.club_a, policy="invited", cap=10,
                                 invited=[world.member_a])
    with django_assert_max_num_queries(6):
        assert watch_gate(world.game_a, world.member_a) is None
    with django_assert_max_num_queries(6):
        assert watch_gate(world.game_a, world.player_1).code == "invited-only"
    with django_assert_num_queries(2):
        assert watch_gate(world.game_a, AnonymousUser()).code == "sign-in-to-watch"


def test_roles_given_without_signals_open_the_console_after_migrate(world, make_player):
    from league.models import ClubMembership
    from moderation.signals import sync_all_console_access

    bulk = make_player(username="bulk_loaded")
    ClubMembership.objects.bulk_create([ClubMembership(club=world.club_b, user=bulk, role="arbiter")])
    bulk.refresh_from_db()
    assert not bulk.is_staff
    sync_all_console_access(sender=None)
    bulk.refresh_from_db()
    assert bulk.is_staff and bulk.groups.filter(name=services.ARBITERS_GROUP).exists()
