"""Rulings inside the proof: each game's rulings chained (``games.ruling_chain``).

The links live in a table of their own (``games_rulinglink``), append-only like the
rulings: a ruling's row is never updated, so the rulings recorded before this migration get
their links here, in each game's ruling order (by id, the order they were recorded in),
each covering the game's event hash at the ruling's version. That adds the proof of
history; it changes none of it.
"""

from __future__ import annotations

from datetime import UTC
from typing import Any

import django.db.models.deletion
from django.db import migrations, models

# The chain's definition is the one the service writes and the verifier checks: it never
# changes (records must verify forever), so the migration uses it as it stands.
from games.ruling_chain import GENESIS, ruling_body, ruling_hash

TRIGGERS = """
CREATE TRIGGER games_rulinglink_no_update_delete BEFORE UPDATE OR DELETE ON games_rulinglink
    FOR EACH ROW EXECUTE FUNCTION events_refuse_change();
CREATE TRIGGER games_rulinglink_no_truncate BEFORE TRUNCATE ON games_rulinglink
    FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change();
"""

DROP = """
DROP TRIGGER IF EXISTS games_rulinglink_no_update_delete ON games_rulinglink;
DROP TRIGGER IF EXISTS games_rulinglink_no_truncate ON games_rulinglink;
"""


def chain_recorded_rulings(apps: Any, schema_editor: Any) -> None:
    ruling_model = apps.get_model("games", "Ruling")
    link_model = apps.get_model("games", "RulingLink")
    event_model = apps.get_model("events", "StoredEvent")
    heads: dict[Any, tuple[int, str]] = {}
    unchained = ruling_model.objects.filter(link__isnull=True).order_by("table_id", "id")
    for ruling in unchained.iterator():
        n, prev = heads.get(ruling.table_id, (0, GENESIS))
        at_hash = GENESIS
        if ruling.version:
            at_hash = event_model.objects.values_list("hash", flat=True).get(
                stream_id=ruling.table_id, seq=ruling.version
            )
        body = ruling_body(
            stream_id=str(ruling.table_id),
            n=n + 1,
            id=ruling.id,
            kind=ruling.kind,
            winners=list(ruling.winners),
            reason=ruling.reason,
            seq=ruling.seq,
            version=ruling.version,
            at_hash=at_hash,
            author=ruling.author_id,
            created_at=ruling.created_at.astimezone(UTC).isoformat(),
        )
        digest = ruling_hash(prev, body)
        link_model.objects.create(
            ruling_id=ruling.id, table_id=ruling.table_id, n=n + 1, prev_hash=prev, hash=digest
        )
        heads[ruling.table_id] = (n + 1, digest)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_ruled_games_take_no_appends"),
        ("events", "0003_notify_appends"),
    ]

    operations = [
        migrations.CreateModel(
            name="RulingLink",
            fields=[
                (
                    "ruling",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        primary_key=True,
                        related_name="link",
                        serialize=False,
                        to="games.ruling",
                    ),
                ),
                ("n", models.PositiveIntegerField()),
                ("prev_hash", models.CharField(max_length=64)),
                ("hash", models.CharField(max_length=64)),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="games.table",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("table", "n"), name="uniq_ruling_link")
                ],
            },
        ),
        migrations.RunSQL(sql=TRIGGERS, reverse_sql=DROP),
        migrations.RunPython(chain_recorded_rulings, migrations.RunPython.noop),
    ]
