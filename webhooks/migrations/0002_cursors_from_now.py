"""The relay starts from now: games that exist already get a cursor at their latest event
(finished ones marked so), so the relay does not walk the whole history once. Their old
events could match no subscription anyway (none existed when they were recorded)."""

from django.db import migrations

FORWARD = """
INSERT INTO webhooks_relaycursor (stream_id, seq, finished, updated_at)
SELECT t.id, coalesce(max(e.seq), 0), t.status = 'finished', now()
FROM games_table t LEFT JOIN events_storedevent e ON e.stream_id = t.id
WHERE t.status <> 'open'
GROUP BY t.id, t.status
ON CONFLICT DO NOTHING
"""


class Migration(migrations.Migration):
    dependencies = [
        ("webhooks", "0001_initial"),
        ("games", "0001_initial"),
        ("events", "0001_initial"),
    ]

    operations = [migrations.RunSQL(FORWARD, migrations.RunSQL.noop)]
