"""The sweeper's every-two-seconds lines are DEBUG; other tasks' lines stay INFO."""

from __future__ import annotations

import logging

from celery.app.trace import LOG_SUCCESS

import fbservice.celery  # noqa: F401 - installs the filters


def test_celerys_lines_about_the_sweep_are_debug_and_other_tasks_stay_info(caplog) -> None:
    caplog.set_level(logging.INFO)
    trace = logging.getLogger("celery.app.trace")
    for name in ("games.tasks.sweep", "games.tasks.close_window_task"):
        args = {"name": name, "id": "x", "runtime": 0.01, "return_value": {}}
        trace.info(LOG_SUCCESS, args)
    logging.getLogger("celery.beat").info(
        "Scheduler: Sending due task %s (%s)", "fb-sweep", "games.tasks.sweep"
    )
    logging.getLogger("celery.worker.strategy").info(
        "Task %s[%s] received", "games.tasks.sweep", "y"
    )
    assert [r.getMessage() for r in caplog.records] == [
        "Task games.tasks.close_window_task[x] succeeded in 0.01s: {}"
    ]
    caplog.clear()
    caplog.set_level(logging.DEBUG)
    logging.getLogger("celery.beat").info(
        "Scheduler: Sending due task %s (%s)", "fb-sweep", "games.tasks.sweep"
    )
    assert [r.levelname for r in caplog.records] == ["DEBUG"]
