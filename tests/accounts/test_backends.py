"""The log-in backend (accounts/backends.py): a signed-in request loads its user and the
user's profile in one query, through a real log-in with a password as well as a
session made by the test client."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def profile_reads(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if "accounts_profile" in q["sql"]]


@pytest.mark.parametrize("how", ["password", "force_login"])
def test_a_signed_in_page_reads_the_user_and_profile_in_one_query(client, make_player, how):
    ann = make_player(username="ann")
    ann.profile.display_name = "Ann of the Club"
    ann.profile.save()
    if how == "password":
        assert client.post("/accounts/login/", {"username": "ann", "password": PASSWORD}).status_code == 302
    else:
        client.force_login(ann)
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/play/999999999/")  # a page that reads nothing else of the user
    assert page.status_code == 404 and "Ann of the Club" in page.content.decode()  # the menu's name
    reads = profile_reads(queries)
    assert len(reads) == 1 and "accounts_user" in reads[0], reads


def test_a_deactivated_user_is_signed_out(client, make_player):
    ann = make_player(username="ann")
    client.force_login(ann)
    ann.is_active = False
    ann.save()
    assert "Log in" in client.get("/play/999999999/").content.decode()


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_the_backends_hand_written_user_equals_the_orms(make_player):
    """get_user reads in accounts.sql: the same user and profile as select_related, the
    profile cached (None for a user without one: no query), None for no such user or a
    deactivated one."""
    from accounts.backends import ProfileModelBackend
    from accounts.models import Profile, User

    backend = ProfileModelBackend()
    ann = make_player(username="ann")
    ann.profile.display_name = "Ann of the Club"
    ann.profile.save()
    expected = User.objects.select_related("profile").get(pk=ann.pk)
    with CaptureQueriesContext(connection) as queries:
        user = backend.get_user(ann.pk)
        assert _fields(user) == _fields(expected) and _fields(user.profile) == _fields(expected.profile)
        assert user.name == "Ann of the Club"
    assert len(queries.captured_queries) == 1
    Profile.objects.filter(user=ann).delete()
    with CaptureQueriesContext(connection) as queries:
        user = backend.get_user(ann.pk)
        assert user is not None and not hasattr(user, "profile")  # cached as missing: no query
    assert len(queries.captured_queries) == 1
    assert backend.get_user(ann.pk + 1000) is None
    User.objects.filter(pk=ann.pk).update(is_active=False)
    assert backend.get_user(ann.pk) is None


def test_the_unread_count_counts_only_the_users_unread_notices(make_player):
    from django.utils import timezone

    from accounts.models import Notice
    from accounts.notices import notify, unread_count

    ann, ben = make_player(username="ann"), make_player(username="ben")
    for i in range(3):
        notify(recipient=ann, kind=Notice.Kind.MODERATION, cause=f"test:{i}", message=f"Notice {i}")
    notify(recipient=ben, kind=Notice.Kind.MODERATION, cause="test:ben", message="Ben's")
    assert (unread_count(ann.pk), unread_count(ben.pk)) == (3, 1)
    Notice.objects.filter(recipient=ann, cause="test:0").update(read_at=timezone.now())
    assert unread_count(ann.pk) == 2


def test_the_session_store_reads_as_djangos_and_refuses_an_expired_or_unknown_key(client, make_player):
    """accounts.sessions (hand-written read): the same session data as Django's own
    database store in one query; an expired or unknown key reads empty and starts afresh."""
    from datetime import timedelta

    from django.contrib.sessions.backends.db import SessionStore as DjangoStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from accounts.sessions import SessionStore

    ann = make_player(username="ann")
    client.force_login(ann)
    key = client.cookies["sessionid"].value
    with CaptureQueriesContext(connection) as queries:
        data = SessionStore(key).load()
    assert len(queries.captured_queries) == 1
    assert data == DjangoStore(key).load() and data["_auth_user_id"] == str(ann.pk)
    unknown = SessionStore("x" * 32)
    assert unknown.load() == {} and unknown.session_key is None
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    expired = SessionStore(key)
    assert expired.load() == {} and expired.session_key is None
    assert "Log in" in client.get("/play/999999999/").content.decode()  # signed out by the expired session
