"""Section.acceleration: a FIDE Dutch Swiss may pair its first rounds with Baku
acceleration (C.04.5.1). Every existing section has none, and only a Dutch Swiss may
have another (a check constraint, as the services refuse it)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0010_swiss_system_only_for_swiss"),
    ]

    operations = [
        migrations.AddField(
            model_name="section",
            name="acceleration",
            field=models.CharField(
                choices=[("none", "None"), ("baku", "Baku (FIDE C.04.5.1)")], default="none", max_length=8,
                help_text="FIDE Dutch Swiss: accelerated pairings (Baku: virtual points for the top half in the first "
                          "rounds). None for the other formats and systems.",
            ),
        ),
        migrations.AddConstraint(
            model_name="section",
            constraint=models.CheckConstraint(
                condition=models.Q(acceleration="none") | models.Q(format="swiss", swiss_system="dutch"),
                name="section_acceleration_only_for_dutch_swiss",
            ),
        ),
    ]
