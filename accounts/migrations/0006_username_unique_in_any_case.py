"""One account per username in any case (docs/accounts.md, "Names"): sign-in matches
"Sam" to "sam", so two names differing only by case cannot both be accounts. Sign-up has
refused such a name since the first release (case-insensitive check); this makes the
database hold it too, against two sign-ups at the same instant."""

from django.db import migrations, models
from django.db.models import Count
from django.db.models.functions import Lower


def refuse_existing_duplicates(apps, schema_editor):
    """Say in words which accounts collide, rather than fail on the index."""
    User = apps.get_model("accounts", "User")
    clashes = (User.objects.using(schema_editor.connection.alias).annotate(key=Lower("username"))
               .values("key").annotate(n=Count("id")).filter(n__gt=1).values_list("key", flat=True))
    names = sorted(clashes)
    if names:
        raise RuntimeError(
            "These usernames are held by more than one account, differing only by case: "
            + ", ".join(names)
            + ". Rename all but one of each in the admin, then migrate again."
        )


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0005_presence_and_declined_challenges"),
    ]

    operations = [
        migrations.RunPython(refuse_existing_duplicates, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                Lower("username"),
                name="accounts_user_username_any_case",
                violation_error_message="A user with that username, in some other case, already exists.",
            ),
        ),
    ]
