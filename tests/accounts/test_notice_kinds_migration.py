"""accounts 0010: the organisers' notices get a kind of their own ("Your club's events"),
which used to be filed under "Moderation" (organiser probe)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import Notice, Profile, default_email_notices

BEFORE = ("accounts", "0009_notice_join_request")
OLD_DEFAULT = ["challenge-received", "pairing", "your-turn", "guardian-consent"]


@pytest.mark.django_db(transaction=True)
def test_old_organiser_notices_and_untouched_email_choices_move_to_the_new_kind(django_user_model):
    organiser = django_user_model.objects.create_user("org", password="x")
    chooser = django_user_model.objects.create_user("chooser", password="x")
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    try:
        old = MigrationExecutor(connection).loader.project_state([BEFORE]).apps
        OldNotice, OldProfile = old.get_model("accounts", "Notice"), old.get_model("accounts", "Profile")
        OldProfile.objects.create(user_id=organiser.pk, display_name="Org", email_notices=OLD_DEFAULT)
        OldProfile.objects.create(user_id=chooser.pk, display_name="Chooser", email_notices=["pairing"])
        for cause in ("round-unpairable:7:123", "stage-waiting:8", "observer-ban:3"):
            OldNotice.objects.create(recipient_id=organiser.pk, kind="moderation", cause=cause, message=cause)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    kinds = dict(Notice.objects.values_list("cause", "kind"))
    assert kinds == {"round-unpairable:7:123": "organising", "stage-waiting:8": "organising",
                     "observer-ban:3": "moderation"}  # a moderator's ban stays moderation
    assert Profile.objects.get(user=organiser).email_notices == default_email_notices()
    assert Profile.objects.get(user=chooser).email_notices == ["pairing"]  # chosen: left as chosen
