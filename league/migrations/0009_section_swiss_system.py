"""Section.swiss_system: new Swiss sections are paired by the FIDE Dutch system; the
existing ones keep the fast score groups that paired their rounds so far."""

from django.db import migrations, models


def existing_swiss_stay_fast(apps, schema_editor):
    Section = apps.get_model("league", "Section")
    Section.objects.filter(format="swiss").update(swiss_system="fast")


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0008_pairing_reasons_and_arbiter_override"),
    ]

    operations = [
        migrations.AddField(
            model_name="section",
            name="swiss_system",
            field=models.CharField(
                choices=[("dutch", "FIDE Dutch"), ("fast", "Fast score groups")], default="dutch", max_length=8,
                help_text="Swiss: paired by the FIDE Dutch system (C.04.3) or by fast score groups (for very large "
                          "fields).",
            ),
        ),
        migrations.RunPython(existing_swiss_stay_fast, migrations.RunPython.noop),
    ]
