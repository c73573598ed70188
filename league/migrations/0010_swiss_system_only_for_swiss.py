"""Section.swiss_system: empty (null) for a section that is not a Swiss, which has no
pairing system; a Swiss's stays as it was (new ones: FIDE Dutch unless given)."""

from django.db import migrations, models


def others_have_none(apps, schema_editor):
    Section = apps.get_model("league", "Section")
    Section.objects.exclude(format="swiss").update(swiss_system=None)


def others_back_to_dutch(apps, schema_editor):
    Section = apps.get_model("league", "Section")
    Section.objects.filter(swiss_system__isnull=True).update(swiss_system="dutch")


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0009_section_swiss_system"),
    ]

    operations = [
        migrations.AlterField(
            model_name="section",
            name="swiss_system",
            field=models.CharField(
                blank=True, choices=[("dutch", "FIDE Dutch"), ("fast", "Fast score groups")], default=None,
                help_text="Swiss: paired by the FIDE Dutch system (C.04.3) or by fast score groups (for very large "
                          "fields). Empty for the other formats.",
                max_length=8, null=True,
            ),
        ),
        migrations.RunPython(others_have_none, others_back_to_dutch),
    ]
