"""Deliveries of tournament directors' deciding rulings (docs/webhooks.md, "Games decided by
a ruling"): a delivery may name a ruling (unique per subscription and ruling) and each
relay cursor keeps the last deciding ruling it relayed. Like ``0002_cursors_from_now``, the
relay starts from now: games with a cursor already count their existing rulings as relayed
(nobody was promised a message for them).
"""

from django.db import migrations, models

FORWARD = """
UPDATE webhooks_relaycursor c SET ruling = r.last
FROM (
    SELECT table_id, max(id) AS last FROM games_ruling
    WHERE kind IN ('award', 'void') GROUP BY table_id
) r
WHERE r.table_id = c.stream_id
"""


class Migration(migrations.Migration):
    dependencies = [
        ("webhooks", "0002_cursors_from_now"),
        ("games", "0005_reviews"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="delivery",
            name="uniq_delivery_event",
        ),
        migrations.AddField(
            model_name="delivery",
            name="ruling",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="relaycursor",
            name="ruling",
            field=models.PositiveBigIntegerField(db_default=0),
        ),
        migrations.AddConstraint(
            model_name="delivery",
            constraint=models.UniqueConstraint(
                condition=models.Q(("ruling__isnull", True), ("stream_id__isnull", False)),
                fields=("subscription", "stream_id", "seq"),
                name="uniq_delivery_event",
            ),
        ),
        migrations.AddConstraint(
            model_name="delivery",
            constraint=models.UniqueConstraint(
                condition=models.Q(("ruling__isnull", False)),
                fields=("subscription", "ruling"),
                name="uniq_delivery_ruling",
            ),
        ),
        migrations.RunSQL(FORWARD, migrations.RunSQL.noop),
    ]
