"""The Celery application: configured from Django settings (CELERY_* names)."""

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_process_init

from fbservice import broker

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fbservice.settings")
broker.install()  # Redis URLs: a transport that survives a broker restart (see its module)

app = Celery("fbservice")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect  # type: ignore[untyped-decorator]  # Celery ships no types
@task_postrun.connect  # type: ignore[untyped-decorator]
def _recycle_database_connections(**_: Any) -> None:
    """What Django does at each request's start and end, around each task: keep the
    connection (settings.CELERY_DB_REUSE_MAX) unless it is older than CONN_MAX_AGE or
    broken, and health-check it on first use."""
    from django.db import close_old_connections

    close_old_connections()


@worker_process_init.connect  # type: ignore[untyped-decorator]
def _freeze_loaded_objects(**_: Any) -> None:
    """Each worker process, once started: see fbservice.startup and games.send_guard."""
    from fbservice.startup import freeze_loaded_objects
    from games import send_guard

    freeze_loaded_objects()
    send_guard.send_inline()  # no sender thread in a pool process (see there)


# The sweeper runs every FB_SWEEP_SECONDS (2 s): Celery's own lines about it (beat sending
# it, the worker receiving it, its success) are DEBUG, not INFO, so they do not bury the log.
# The sweep logs at INFO itself when it did something (games.tasks.sweep).
SWEEP_TASK, SWEEP_ENTRY = "games.tasks.sweep", "fb-sweep"
QUIET_LOGGERS = ("celery.beat", "celery.app.trace", "celery.worker.strategy")


class QuietSweeps(logging.Filter):
    """Demotes Celery's INFO lines about the sweep task to DEBUG."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO or not _about_the_sweep(record.args):
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def _about_the_sweep(args: Any) -> bool:
    values = args.values() if isinstance(args, dict) else args if isinstance(args, tuple) else ()
    return any(v in (SWEEP_TASK, SWEEP_ENTRY) for v in values if isinstance(v, str))


for _name in QUIET_LOGGERS:
    logging.getLogger(_name).addFilter(QuietSweeps())


class LostAcks(logging.Filter):
    """kombu logs an acknowledgement that failed because the broker went away as CRITICAL,
    with a traceback ("Couldn't ack ..., reason: ConnectionError"). Nothing is wrong with
    the task: it is acknowledged late (CELERY_TASK_ACKS_LATE), so the broker delivers it
    again and it runs again, and every task here is idempotent. One WARNING line says so."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(("Couldn't ack", "Couldn't reject")):
            return True
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.msg = str(record.msg) + " (the broker went away; it delivers the task again)"
        record.exc_info = record.exc_text = None
        return True


# kombu.message.Message.ack_log_error logs through the logger the worker's request gives it.
logging.getLogger("celery.worker.request").addFilter(LostAcks())


class NoCancelNotice(logging.Filter):
    """At every lost broker connection Celery 5 warns that Celery 6 will cancel the tasks
    still running (worker_cancel_long_running_tasks_on_connection_loss). We keep 5's
    behaviour on purpose (settings.py): our tasks take milliseconds and are idempotent, so
    letting one finish costs nothing, its lost acknowledgement is one line (LostAcks) and
    the broker delivers it again. The notice, a paragraph at WARNING each time, says
    nothing. (A warnings filter would not do: the worker's logging setup puts Celery's own
    "always" filters first, then logs warnings through "py.warnings".)"""

    def filter(self, record: logging.LogRecord) -> bool:
        return CANCEL_NOTICE not in record.getMessage()


CANCEL_NOTICE = "on connection loss cancels all currently executed tasks with late acknowledgement"
logging.getLogger("py.warnings").addFilter(NoCancelNotice())
