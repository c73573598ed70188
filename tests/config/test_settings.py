"""Production settings pass Django's deployment checks; the API schema generates."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings

from tests.processes import ROOT


def test_check_deploy_is_clean_under_production_settings():
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY="x" * 20 + "a-real-looking-production-secret-key-0123456789",
        DJANGO_ALLOWED_HOSTS="club.example.org",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_settings_refuse_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SECRET_KEY"}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.production", DJANGO_ALLOWED_HOSTS="club.example.org")
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode != 0 and "DJANGO_SECRET_KEY" in result.stderr


def test_runtime_follows_the_environment():
    if os.environ.get("REDIS_URL"):
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
        host = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]
        assert host["socket_timeout"] is None and host["max_connections"] >= 1000
        assert settings.CELERY_BROKER_URL.startswith("redis://")
    else:
        assert settings.CELERY_BROKER_URL == "memory://"
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        db = settings.DATABASES["default"]
        assert db["ENGINE"] == "django.db.backends.postgresql"
        assert db["CONN_MAX_AGE"] == 0 and db["OPTIONS"]["pool"]


@pytest.mark.django_db
def test_openapi_schema_is_generated(client):
    response = client.get("/api/schema/?format=json")
    assert response.status_code == 200
    schema = response.json()
    assert "/api/v1/accounts/signup/" in schema["paths"]
    assert client.get("/api/docs/").status_code == 200


@pytest.mark.django_db
def test_unknown_api_route_uses_the_error_shape(client):
    body = client.get("/api/v1/clubs/no-such-club/").json()
    assert body == {"code": "not_found", "message": body["message"]} and body["message"]
