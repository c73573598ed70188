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


OLD_COMMITTED_KEY = "dev-only-secret-key-change-me-in-production-0123456789"


def _run(args: list[str], **env_vars: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SECRET_KEY", "DJANGO_SETTINGS_MODULE")}
    env.update(env_vars)
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True)


@pytest.mark.parametrize("key", [OLD_COMMITTED_KEY, "short-key", "x" * 60])
def test_production_settings_refuse_a_committed_or_weak_key(key):
    result = _run(
        ["manage.py", "check"], DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY=key, DJANGO_ALLOWED_HOSTS="club.example.org",
    )
    assert result.returncode != 0 and "DJANGO_SECRET_KEY" in result.stderr


def test_the_servers_default_to_production_settings():
    """uvicorn config.asgi:application and `celery -A config` with no settings named
    refuse to start without a key, rather than run the dev settings (DEBUG on)."""
    for code in ("import config.asgi", "from config.celery import app; app.conf.broker_url"):
        result = _run(["-c", code], DJANGO_ALLOWED_HOSTS="club.example.org")
        assert result.returncode != 0 and "DJANGO_SECRET_KEY" in result.stderr, code


def test_the_demo_makes_a_key_of_its_own_and_refuses_the_committed_one():
    show = ["manage.py", "shell", "-c", "from django.conf import settings; print(settings.SECRET_KEY)"]
    result = _run(show, DJANGO_SETTINGS_MODULE="config.settings.dev")
    assert result.returncode == 0, result.stderr
    key = result.stdout.strip().splitlines()[-1]
    assert len(key) >= 50 and key != OLD_COMMITTED_KEY and key != settings.SECRET_KEY
    assert key == (ROOT / "var" / "secret_key").read_text().strip()  # the same for every process
    refused = _run(show, DJANGO_SETTINGS_MODULE="config.settings.dev", DJANGO_SECRET_KEY=OLD_COMMITTED_KEY)
    assert refused.returncode != 0 and "DJANGO_SECRET_KEY" in refused.stderr


def test_runtime_follows_the_environment():
    if os.environ.get("REDIS_URL"):
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "config.channel_layer.BoundedRedisChannelLayer"
        host = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]
        assert host["socket_timeout"] is None and host["max_connections"] >= 1000
        assert settings.CELERY_BROKER_URL.startswith("redis://")
    else:
        assert settings.CELERY_BROKER_URL.startswith("memory://")
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
