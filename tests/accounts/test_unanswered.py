"""A Redis server that did not answer one service is not asked by the others on it
either, for a few seconds (accounts/unanswered.py): a write that met the three in turn
waited for each (6.2-6.4 s against a hung Redis)."""

from __future__ import annotations

import logging

import pytest
from kombu.exceptions import OperationalError
from redis.exceptions import TimeoutError as RedisTimeoutError

from accounts import unanswered
from accounts.unanswered import BROKER, CACHE, CHANNEL_LAYER


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(unanswered.time, "monotonic", lambda: now[0])
    return now


def on_redis(settings, layer: str, cache: str, broker: str) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "x", "CONFIG": {"hosts": [{"address": layer}]}}}
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": cache}}
    settings.CELERY_BROKER_URL = broker


def test_no_answer_from_one_service_rests_every_service_on_that_server(settings, clock, caplog):
    on_redis(settings, "redis://127.0.0.1:6379/0", "redis://:secret@127.0.0.1:6379/1", "redis://127.0.0.1/2")
    with caplog.at_level(logging.WARNING):
        CACHE.failed(RedisTimeoutError("Timeout reading from socket"))
    assert CACHE.resting() and BROKER.resting() and CHANNEL_LAYER.resting()
    [line] = [r.getMessage() for r in caplog.records if "did not answer" in r.getMessage()]
    assert "the channel layer" in line and "the broker" in line and "secret" not in line
    clock[0] += unanswered.QUIET_SECONDS + 0.1
    assert not (CACHE.resting() or BROKER.resting() or CHANNEL_LAYER.resting())


def test_services_on_another_server_are_still_asked(settings, clock):
    on_redis(settings, "redis://10.0.0.5:6379/0", "redis://127.0.0.1:6379/1", "redis://127.0.0.1:6380/0")
    BROKER.failed(OperationalError("Error 111 connecting to 127.0.0.1:6380"))
    assert BROKER.resting()
    assert not CACHE.resting() and not CHANNEL_LAYER.resting()


def test_a_failure_that_is_not_the_servers_rests_that_service_alone(settings, clock):
    on_redis(settings, "redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/1", "redis://127.0.0.1:6379/2")
    CHANNEL_LAYER.failed(ValueError("a message the layer refused"))
    assert CHANNEL_LAYER.resting()
    assert not CACHE.resting() and not BROKER.resting()


def test_the_embedded_services_are_not_a_server(settings, clock):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "config.embedded.EmbeddedChannelLayer"}}
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.CELERY_BROKER_URL = "memory://"
    BROKER.failed(OSError("no such thing"))
    assert BROKER.resting() and not CACHE.resting() and not CHANNEL_LAYER.resting()
