"""config/log_filters.py, as settings.LOGGING puts it on its loggers."""

from __future__ import annotations

import logging


def test_a_clients_broken_frame_is_one_warning_line_not_an_error_with_a_traceback(caplog):
    logger = logging.getLogger("uvicorn.error")  # where uvicorn logs it
    try:
        b"\xff".decode()
    except UnicodeDecodeError:
        logger.exception("Invalid UTF-8 sequence received from client.")
        logger.exception("Something of the server's own.")
    fault, own = caplog.records[-2:]
    assert (fault.levelname, fault.exc_info, fault.getMessage()) == (
        "WARNING", None, "Invalid UTF-8 sequence received from client.")
    assert "Traceback" not in caplog.text.split("Something of the server's own.")[0]
    assert own.levelname == "ERROR" and own.exc_info is not None  # anything else is left as it is


def test_a_refused_page_is_one_warning_line_without_the_exceptions_traceback(caplog):
    from django.core.exceptions import PermissionDenied

    logger = logging.getLogger("django.request")  # where Django logs a 403
    try:
        raise PermissionDenied
    except PermissionDenied as exc:
        logger.warning("Forbidden (Permission denied): %s", "/clubs/x/new-tournament/", exc_info=exc)
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert record.exc_info is None and "Traceback" not in caplog.text
