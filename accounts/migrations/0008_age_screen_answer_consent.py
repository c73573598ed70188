from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0007_notice_arena_paused'),
    ]

    operations = [
        migrations.AddField(
            model_name='agescreenanswer',
            name='consent',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='accounts.guardianconsent'),
        ),
    ]
