"""/healthz: each component checked on its own (config/health.py)."""

from __future__ import annotations

import pytest
from django.test import override_settings

from tests.processes import free_port

pytestmark = pytest.mark.django_db


def test_healthz_is_ok_when_every_component_answers(client, channel_layers_fresh):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "components": {
        "database": {"status": "ok"}, "channel_layer": {"status": "ok"}, "broker": {"status": "ok"}}}


def test_healthz_fails_naming_a_dead_redis_and_no_secret(client, channel_layers_fresh):
    dead = f"redis://:hunter2@127.0.0.1:{free_port()}/0"
    layers = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                          "CONFIG": {"hosts": [{"address": dead}]}}}
    with override_settings(CHANNEL_LAYERS=layers, CELERY_BROKER_URL=dead):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["components"]["database"] == {"status": "ok"}
    assert body["components"]["channel_layer"] == {"status": "error", "reason": "ConnectionError"}
    assert body["components"]["broker"] == {"status": "error", "reason": "ConnectionError"}
    assert "hunter2" not in response.content.decode()
