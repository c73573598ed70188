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


def test_redis_away_is_a_warning_line_an_outage_and_a_minute_not_a_traceback_a_second(caplog, monkeypatch):
    """channels_redis's pub/sub reader logs its failure with a traceback every second
    while Redis is away; through the filter: one line when it starts, one a minute with
    what was held back, and one again when a later outage starts."""
    import time

    logger = logging.getLogger("channels_redis.pubsub")
    clock = [1000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])  # LogRecord.created
    monkeypatch.setattr(time, "time_ns", lambda: int(clock[0] * 1e9))

    def fail_for(seconds: int) -> None:
        for _ in range(seconds):
            try:
                raise ConnectionError("Error 111 connecting to 127.0.0.1:6392. Connection refused.")
            except ConnectionError:
                logger.exception("Unexpected exception in receive task")
            clock[0] += 1

    fail_for(130)  # one outage of 130 s
    clock[0] += 600
    fail_for(3)  # a later one
    lines = [r for r in caplog.records if r.name == "channels_redis.pubsub"]
    assert [r.levelname for r in lines] == ["WARNING"] * 4 and all(r.exc_info is None for r in lines)
    assert [r.getMessage().split(";")[0] for r in lines] == [
        "Unexpected exception in receive task: ConnectionError: Error 111 connecting to 127.0.0.1:6392. "
        "Connection refused.",
        "Unexpected exception in receive task: ConnectionError: Error 111 connecting to 127.0.0.1:6392. "
        "Connection refused. (59 more since the last line)",
        "Unexpected exception in receive task: ConnectionError: Error 111 connecting to 127.0.0.1:6392. "
        "Connection refused. (59 more since the last line)",
        "Unexpected exception in receive task: ConnectionError: Error 111 connecting to 127.0.0.1:6392. "
        "Connection refused.",
    ]
    assert "Traceback" not in caplog.text
    logger.warning("Something else")  # other records pass as they are
    assert caplog.records[-1].getMessage() == "Something else"


def _many_fields(settings) -> str:
    return "&".join(f"f{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))


def test_a_suspicious_request_is_one_warning_line_and_a_400_that_says_why(client, caplog, settings, db):
    """Django logs a request it refuses as suspicious (a Host header that is not ours, more
    fields than DATA_UPLOAD_MAX_NUMBER_FIELDS) on django.security.<its exception> as an
    ERROR with the traceback: the client's fault, one warning line (found by an outside
    probe: two tracebacks for a query of 3,000 parameters, two for a scanner's Host)."""
    settings.ALLOWED_HOSTS = ["testserver"]
    assert client.get("/", HTTP_HOST="evil.example").status_code == 400
    api = client.get("/api/v1/games/?" + _many_fields(settings))
    form = client.post("/api/v1/accounts/login/", _many_fields(settings),
                       content_type="application/x-www-form-urlencoded")
    records = [r for r in caplog.records if r.name.startswith("django.security.")]
    assert sorted({r.name for r in records}) == ["django.security.DisallowedHost", "django.security.TooManyFieldsSent"]
    assert all(r.levelname == "WARNING" and r.exc_info is None for r in records)
    assert "Traceback" not in caplog.text
    for answer in (api, form):
        assert answer.status_code == 400
        assert answer.json() == {"code": "too-many-fields", "message": (
            f"The request has too many fields: at most {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS}, "
            "in its query and its body together.")}


def test_beat_with_redis_away_logs_a_line_an_outage_not_a_traceback_each_due_task(caplog):
    """Beat logs each due task it cannot send as "Message Error" with the send's whole
    traceback (about 150 lines: a chaos probe's 2.5 minutes of Redis down made 7,000
    lines, 48 of them errors, from the clock check every 5 s and the other sweeps). Through
    the filter: one warning line naming the task and the cause, then one a minute."""
    from celery import Celery
    from celery.beat import ScheduleEntry, Scheduler

    app = Celery("probe", broker="redis://127.0.0.1:6399/0", set_as_current=False)  # nothing listens there
    app.conf.update(broker_connection_timeout=1, broker_connection_retry=False, task_publish_retry=False)
    scheduler = Scheduler(app, lazy=True)
    for name in ("flag-expired-clocks", "play-stalled-ai-seats", "flag-expired-clocks"):
        scheduler.apply_entry(ScheduleEntry(name=name, task="games.flag_expired_clocks", app=app))
    lines = [r for r in caplog.records if r.name == "celery.beat" and r.levelno >= logging.WARNING]
    assert len(lines) == 1 and lines[0].levelname == "WARNING" and lines[0].exc_info is None
    assert lines[0].getMessage().startswith(
        "Message Error: Couldn't apply scheduled task flag-expired-clocks: Error 111 connecting to 127.0.0.1:6399.")
    assert "\n" not in lines[0].getMessage() and "Traceback" not in caplog.text


def test_a_worker_losing_the_broker_logs_no_notice_about_celery_6(caplog):
    """At every loss of the broker a Celery worker warned, nine lines quoting Celery's own
    source, that Celery 6 will cancel running late-acknowledged tasks: an operator reading
    the log of a Redis outage took it for a traceback (a chaos probe). The platform has
    chosen (CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS), so it is dropped;
    other warnings Celery sends through Python's warnings still show."""
    import warnings

    from celery.exceptions import CPendingDeprecationWarning
    from celery.worker.consumer.consumer import CANCEL_TASKS_BY_DEFAULT

    logging.captureWarnings(True)  # as a worker does (celery.app.log)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.warn(CANCEL_TASKS_BY_DEFAULT, CPendingDeprecationWarning, stacklevel=1)
            warnings.warn("another notice", CPendingDeprecationWarning, stacklevel=1)
    finally:
        logging.captureWarnings(False)
    lines = [r.getMessage() for r in caplog.records if r.name == "py.warnings"]
    assert len(lines) == 1 and "another notice" in lines[0], lines


def test_healthz_probed_during_an_outage_logs_a_line_a_component_not_one_a_probe():
    """/healthz logged a warning for each component down at every probe: a load balancer
    asking every 2 s made 60 lines a minute of a Redis outage (a chaos probe). Now one line
    when a component goes down, then one a minute, each component its own outage. (The
    filters are made afresh from settings.LOGGING: the logger's own keep their state.)"""
    import logging.config

    from django.conf import settings

    from config import health

    assert set(settings.HEALTH_COMPONENTS) >= set(health.CHECKS) | {"database_workers"}
    configurator = logging.config.DictConfigurator({})
    filters = [configurator.configure_filter(dict(settings.LOGGING["filters"][name]))
               for name in settings.LOGGING["loggers"]["config.health"]["filters"]]
    logger = logging.getLogger("config.health")
    shown = []
    for probe in range(30):  # every 2 s for a minute
        for name in ("channel_layer", "broker"):
            record = logger.makeRecord(logger.name, logging.WARNING, __file__, 0, "health check: %s is down: %r",
                                       (name, ConnectionError("refused")), None)
            record.created = 1_000_000.0 + 2 * probe
            if all(f.filter(record) for f in filters):
                shown.append(record.getMessage())
    assert len(shown) == 2, shown
    assert shown[0].startswith("health check: channel_layer is down") and shown[1].startswith("health check: broker")
