from django.db import migrations, models


def mark_lesson_sets(apps, schema_editor):
    """The lessons' sets made before the flag: the platform's, named "Lesson: ..."."""
    RuleSet = apps.get_model("games", "RuleSet")
    RuleSet.objects.filter(created_by=None, is_standard=False, name__startswith="Lesson: ").update(for_lessons=True)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0007_lessons"),
    ]

    operations = [
        migrations.AddField(
            model_name="ruleset",
            name="for_lessons",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(mark_lesson_sets, migrations.RunPython.noop),
    ]
