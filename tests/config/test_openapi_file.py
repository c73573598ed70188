"""docs/openapi.yaml is the schema the API serves at /api/schema/, so a reader of the
repository sees every operation, field and refusal without running the platform."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from tests.processes import ROOT

REGENERATE = ("DATABASE_URL=postgres://... .venv/bin/python manage.py spectacular "
              "--file docs/openapi.yaml")


@pytest.mark.postgres  # the integer fields' ranges are the database's: PostgreSQL's, as deployed
def test_docs_openapi_yaml_is_the_served_schema():
    generated = io.StringIO()
    call_command("spectacular", stdout=generated)
    committed = (ROOT / "docs" / "openapi.yaml").read_text()
    assert committed == generated.getvalue(), f"docs/openapi.yaml is stale; regenerate it: {REGENERATE}"
