"""Announce every append: after each INSERT statement on the event table, one
``pg_notify('fb_events', '<stream id>:<last seq>')`` per stream it wrote to.

A trigger rather than a call in each append path: nothing can append without announcing
it, and the notification is sent on commit only (PostgreSQL queues it with the
transaction), so an append that rolls back announces nothing. ``events.notify`` listens.
"""

from django.db import migrations

FUNCTION = r"""
CREATE OR REPLACE FUNCTION events_announce_append() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('fb_events', s.stream_id::text || ':' || s.seq::text)
    FROM (SELECT stream_id, max(seq) AS seq FROM appended GROUP BY stream_id) AS s;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER events_storedevent_announce AFTER INSERT ON events_storedevent
    REFERENCING NEW TABLE AS appended
    FOR EACH STATEMENT EXECUTE FUNCTION events_announce_append();
"""

REVERSE = """
DROP TRIGGER IF EXISTS events_storedevent_announce ON events_storedevent;
DROP FUNCTION IF EXISTS events_announce_append();
"""


class Migration(migrations.Migration):
    dependencies = [("events", "0002_append_only")]

    operations = [migrations.RunSQL(sql=FUNCTION, reverse_sql=REVERSE)]
