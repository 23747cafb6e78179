"""Make the event table and the command log append-only in the database itself.

UPDATE and DELETE are always refused. TRUNCATE is refused too, except where a test suite
flushes its own throw-away database: the database's name starts with "test_" and the
session set ``fbservice.allow_truncate`` (tests/conftest.py does, for transactional tests).
"""

from django.db import migrations

TABLES = ("events_storedevent", "events_commandrecord")

FUNCTION = r"""
CREATE OR REPLACE FUNCTION events_refuse_change() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'TRUNCATE'
       AND current_database() LIKE 'test\_%'
       AND current_setting('fbservice.allow_truncate', true) = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
"""


def _triggers(table: str) -> str:
    return f"""
CREATE TRIGGER {table}_no_update_delete BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION events_refuse_change();
CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}
    FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change();
"""


def _drop(table: str) -> str:
    return f"""
DROP TRIGGER IF EXISTS {table}_no_update_delete ON {table};
DROP TRIGGER IF EXISTS {table}_no_truncate ON {table};
"""


class Migration(migrations.Migration):
    dependencies = [("events", "0001_initial")]

    operations = [
        migrations.RunSQL(
            sql=FUNCTION + "".join(_triggers(t) for t in TABLES),
            reverse_sql="".join(_drop(t) for t in TABLES)
            + "DROP FUNCTION IF EXISTS events_refuse_change();",
        ),
    ]
