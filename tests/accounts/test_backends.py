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
