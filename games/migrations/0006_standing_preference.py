"""Standing reactions (games.models.StandingPreference), append-only in the database like
the event store: the trigger function of events 0002 refuses UPDATE, DELETE and (outside a
test database's flush) TRUNCATE."""

import django.utils.timezone
from django.db import migrations, models

TABLE = "games_standingpreference"
TRIGGERS = f"""
CREATE TRIGGER {TABLE}_no_update_delete BEFORE UPDATE OR DELETE ON {TABLE}
    FOR EACH ROW EXECUTE FUNCTION events_refuse_change();
CREATE TRIGGER {TABLE}_no_truncate BEFORE TRUNCATE ON {TABLE}
    FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change();
"""
DROP = f"""
DROP TRIGGER IF EXISTS {TABLE}_no_update_delete ON {TABLE};
DROP TRIGGER IF EXISTS {TABLE}_no_truncate ON {TABLE};
"""


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_reviews"),
        ("events", "0002_append_only"),
    ]

    operations = [
        migrations.CreateModel(
            name="StandingPreference",
            fields=[
                ("id", models.BigAutoField(primary_key=True, serialize=False)),
                ("game_id", models.UUIDField()),
                ("seat", models.PositiveSmallIntegerField()),
                ("version", models.PositiveIntegerField()),
                ("auto_pass", models.BooleanField(default=True)),
                ("pass_until_ms", models.BigIntegerField(blank=True, null=True)),
                ("pass_turn", models.PositiveIntegerField(blank=True, null=True)),
                ("counters", models.JSONField(blank=True, default=list)),
                ("actor", models.CharField(max_length=64)),
                ("recorded_at", models.DateTimeField(default=django.utils.timezone.now)),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("game_id", "seat", "version"), name="uniq_standing_version"
                    )
                ],
            },
        ),
        migrations.RunSQL(
            sql=TRIGGERS,
            reverse_sql=DROP,
        ),
    ]
