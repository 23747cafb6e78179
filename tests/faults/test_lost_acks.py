"""An acknowledgement the broker cannot take (it went away while the task ran) is one
WARNING line, not a CRITICAL with a traceback: the task is acknowledged late, so the
broker delivers it again, and every task here is idempotent (fbservice.celery.LostAcks).
kombu's own Message.ack_log_error is called as the worker's request calls it."""

from __future__ import annotations

import logging
import warnings

import pytest
from kombu.message import Message

import fbservice.celery  # noqa: F401 - installs the filter, as the worker's app does


class GoneChannel:
    """A channel whose broker went away: acknowledging raises as Redis's transport does."""

    no_ack_consumers = None

    def basic_ack(self, delivery_tag: str, multiple: bool = False) -> None:
        raise ConnectionError("Connection closed by server.")

    def basic_reject(self, delivery_tag: str, requeue: bool = False) -> None:
        raise ConnectionError("Connection closed by server.")


@pytest.mark.parametrize("how", ["ack", "reject"])
def test_a_lost_acknowledgement_is_one_warning_without_a_traceback(caplog, how) -> None:
    message = Message(body=b"{}", delivery_tag="tag-1", channel=GoneChannel())
    request_logger = logging.getLogger("celery.worker.request")  # the worker's Request's
    with caplog.at_level(logging.DEBUG, logger="celery.worker.request"):
        if how == "ack":
            message.ack_log_error(request_logger, (ConnectionError,))
        else:
            message.reject_log_error(request_logger, (ConnectionError,), requeue=True)
    (record,) = caplog.records
    assert record.levelno == logging.WARNING
    assert record.exc_info is None and "Traceback" not in caplog.text
    assert "tag-1" in record.getMessage() and "delivers the task again" in record.getMessage()


def test_other_lines_of_the_request_logger_are_left_alone(caplog) -> None:
    with caplog.at_level(logging.DEBUG, logger="celery.worker.request"):
        try:
            raise ValueError("boom")
        except ValueError:
            logging.getLogger("celery.worker.request").critical("Task failed", exc_info=True)
    (record,) = caplog.records
    assert record.levelno == logging.CRITICAL and record.exc_info is not None


def test_celerys_notice_about_cancelling_tasks_on_connection_loss_is_not_logged(caplog) -> None:
    """As the worker has it: Celery's "always" filter for its deprecation warnings, and
    warnings logged through py.warnings; other warnings still are."""
    from celery.exceptions import CPendingDeprecationWarning
    from celery.worker.consumer.consumer import CANCEL_TASKS_BY_DEFAULT

    logging.captureWarnings(True)
    try:
        with warnings.catch_warnings(), caplog.at_level(logging.WARNING, logger="py.warnings"):
            warnings.filterwarnings("always", category=CPendingDeprecationWarning)
            warnings.warn(CANCEL_TASKS_BY_DEFAULT, CPendingDeprecationWarning, stacklevel=1)
            warnings.warn("another notice", CPendingDeprecationWarning, stacklevel=1)
    finally:
        logging.captureWarnings(False)
    assert "another notice" in caplog.text
    assert "cancels all currently executed tasks" not in caplog.text
