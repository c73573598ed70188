"""The standard rule sets get each variant's default clock (docs/rules/<variant>.md).

A set is never edited in place: each current standard set without a clock is revised,
a new version with the clock, so games already started keep the version they began
with (games/rule_sets.py). Sections still to be played (registering or running) on a
superseded standard set move to the new version, so their next pairings have a clock.
The numbers are frozen here, as the variants declared them when this was written.
"""

from django.db import migrations

#: variant -> (seconds per move, seconds per game).
DEFAULT_CLOCKS = {
    "classic": (None, 3 * 60),
    "t-tic-t-tac-toe": (None, 10 * 60),
    "nine-square": (60, None),
    "tactic-toe": (2 * 60, None),
    "tic-tac-two": (60, None),
    "rock-paper-scissors": (30, None),
}

FIELDS = ("name", "variant", "options", "decider", "no_show_seconds", "match_format", "match_games", "next_first")


def give_standard_sets_clocks(apps, schema_editor):
    RuleSet = apps.get_model("games", "RuleSet")
    Section = apps.get_model("league", "Section")
    unclocked = RuleSet.objects.filter(
        is_standard=True, is_current=True, seconds_per_move__isnull=True, seconds_per_game__isnull=True,
        variant__in=DEFAULT_CLOCKS,
    )
    for old in list(unclocked):
        per_move, per_game = DEFAULT_CLOCKS[old.variant]
        RuleSet.objects.filter(pk=old.pk).update(is_current=False)
        new = RuleSet.objects.create(
            family=old.family, version=old.version + 1, is_current=True, is_standard=True, created_by=None,
            seconds_per_move=per_move, seconds_per_game=per_game, **{field: getattr(old, field) for field in FIELDS},
        )
        Section.objects.filter(rule_set=old, status__in=["registration", "running"]).update(rule_set=new)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_match_kind_label"),
        ("league", "0005_calendar_feed"),
    ]

    operations = [migrations.RunPython(give_standard_sets_clocks, migrations.RunPython.noop)]
