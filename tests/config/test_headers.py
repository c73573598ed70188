"""Security headers from the outside (docs/security.md, "Headers and assets"): every
page, API answer and refusal carries the Content-Security-Policy and the
Permissions-Policy, and /api/docs/ is served from our own files, with no inline script
or style and nothing from a CDN. The browser side (no violation on any page) is
tests/browser/test_headers_browser.py."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def directives(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {name: values for name, *values in (part.split() for part in header.split(";") if part.strip())}


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/api/v1/clubs/", "/api/v1/no-such-thing/",
                                  "/api/docs/", "/static/css/site.css"])
def test_every_response_carries_the_policies(client, path):
    response = client.get(path)
    policy = directives(response)
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval', no CDN
    assert "'unsafe-inline'" not in policy["style-src"] and "'unsafe-eval'" not in response["Content-Security-Policy"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"] and policy["form-action"] == ["'self'"]
    permissions = response["Permissions-Policy"]
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert f"{feature}=()" in permissions


def test_an_api_write_refused_carries_them_too():
    response = APIClient().post("/api/v1/rule-sets/", {}, format="json")
    assert response.status_code in (401, 403)
    assert "Content-Security-Policy" in response and "Permissions-Policy" in response


def test_api_docs_are_served_from_our_own_static_files(client):
    page = client.get("/api/docs/")
    html = page.content.decode()
    assert page.status_code == 200
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(s.startswith("/") for s in sources), sources  # no CDN, no other host
    assert any("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle" in s for s in sources)
    assert "<style" not in html and not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)  # nothing inline
    script_url = next(s for s in sources if "script" in s and "sidecar" not in s)
    script = client.get(script_url.replace("&amp;", "&"))
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()
    bundle = next(s for s in sources if s.endswith("swagger-ui-bundle.js"))
    assert client.get(bundle).status_code == 200


def test_pages_have_no_inline_script_or_style(client, make_player):
    """The templates keep to the policy: nothing a strict CSP would refuse."""
    user = make_player(username="csp_reader")
    client.force_login(user)
    for path in ("/", "/play/", "/clubs/", "/ratings/", "/accounts/profile/", "/clubs/calendar/"):
        html = client.get(path).content.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), path
        assert "<style" not in html and " style=" not in html, path
        assert not re.search(r"<[^>]*\son[a-z]+=", html) and "javascript:" not in html, path
        assert "includeIndicatorStyles" in html, path  # htmx told not to inject its <style>
