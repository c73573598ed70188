"""Single elimination's placement matches and consolation bracket: ``placements`` takes
over ``third_place`` (true becomes "third", false "none")."""

from django.db import migrations, models


def third_place_to_placements(apps, schema_editor):
    Section = apps.get_model("league", "Section")
    Section.objects.filter(third_place=True).update(placements="third")


def placements_to_third_place(apps, schema_editor):
    Section = apps.get_model("league", "Section")
    Section.objects.exclude(placements="none").update(third_place=True)


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0006_stages_previous_stage_advance_groups'),
    ]

    operations = [
        migrations.AddField(
            model_name='section',
            name='consolation',
            field=models.BooleanField(default=False, help_text="Single elimination: a bracket for the first match's losers."),
        ),
        migrations.AddField(
            model_name='section',
            name='placements',
            field=models.CharField(choices=[('none', 'None'), ('third', 'A third-place match'), ('all', 'Every place (3rd-4th, 5th-8th, ...)')], default='none', help_text='Single elimination: the placement matches played.', max_length=8),
        ),
        migrations.RunPython(third_place_to_placements, placements_to_third_place),
        migrations.RemoveField(
            model_name='section',
            name='third_place',
        ),
    ]
