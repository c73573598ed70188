"""Mark the platform's standard sets, which standard_rule_set used to find by name.

A standard set was made by standard_rule_set on a variant's first game: its first
version has no author and the name "Standard <variant>". A player's set always has its
author on its first version, so a player's "Standard classic" is never marked (unless
its author's account was deleted: then the oldest such family per variant wins, and
the standard one is made first, on the platform's first game). A family whose current
version left its variant is not trusted; standard_rule_set makes a new one then.
"""

from django.db import migrations, models


def mark_standard_sets(apps, schema_editor):
    RuleSet = apps.get_model("games", "RuleSet")
    chosen = {}
    for first in RuleSet.objects.filter(version=1, created_by__isnull=True).order_by("created_at", "pk"):
        if first.variant in chosen or first.name != f"Standard {first.variant}":
            continue
        current = RuleSet.objects.filter(family=first.family, is_current=True).first()
        if current is None or current.variant != first.variant:
            continue
        chosen[first.variant] = first.family
    for family in chosen.values():
        RuleSet.objects.filter(family=family).update(is_standard=True)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="ruleset",
            name="is_standard",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(mark_standard_sets, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="ruleset",
            constraint=models.UniqueConstraint(
                condition=models.Q(("is_current", True), ("is_standard", True)),
                fields=("variant",),
                name="one_current_standard_rule_set_per_variant",
            ),
        ),
    ]
