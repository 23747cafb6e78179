"""A game a tournament director's ruling decided takes no more events (issue 16).

After every statement that appends events, refuse it (rolling it back) when a deciding
ruling (``award`` or ``void``) exists for a stream it wrote to. The ruling's transaction
holds the game's clock row (``games.projections.ClockCleared``) and every append upserts
that row in its statement, so an append racing a ruling either commits first (and the
ruling records the version after it) or waits, then meets the ruling here. The error is a
check violation named ``game_decided_by_ruling``: the store reads it as a lost race
(``ConcurrencyConflict``), and the service, deciding again, finds the table finished and
answers ``game_over`` (``games.reviews.refuse_if_decided``).
"""

from django.db import migrations

FUNCTION = r"""
CREATE OR REPLACE FUNCTION games_refuse_ruled_appends() RETURNS trigger AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM (SELECT DISTINCT stream_id FROM appended) AS a
        JOIN games_ruling r ON r.table_id = a.stream_id AND r.kind IN ('award', 'void')
    ) THEN
        RAISE EXCEPTION 'the game was decided by a ruling: it takes no more events'
            USING ERRCODE = 'check_violation', CONSTRAINT = 'game_decided_by_ruling';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER events_storedevent_ruled AFTER INSERT ON events_storedevent
    REFERENCING NEW TABLE AS appended
    FOR EACH STATEMENT EXECUTE FUNCTION games_refuse_ruled_appends();
"""

REVERSE = """
DROP TRIGGER IF EXISTS events_storedevent_ruled ON events_storedevent;
DROP FUNCTION IF EXISTS games_refuse_ruled_appends();
"""


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_table_options"),
        ("events", "0003_notify_appends"),
    ]

    operations = [migrations.RunSQL(sql=FUNCTION, reverse_sql=REVERSE)]
