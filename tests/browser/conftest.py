"""Fixtures of the browser tests: one Chromium and one running platform per module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.support import chromium, signed_in_pages
from tests.processes import free_port, platform_commands, running, scratch_database, wait_for_port


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    """The platform on a scratch database with the demo club, as real processes."""
    tmp_path = tmp_path_factory.mktemp("browser")
    port = free_port()
    with (
        scratch_database(tmp_path) as env,
        running(*platform_commands(port), env=env, log_dir=tmp_path) as processes,
    ):
        wait_for_port(port, process=processes[0])
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def sign_in(browser, server) -> Iterator[Any]:
    """``sign_in(username, viewport)``: a page signed in as that demo player
    (support.signed_in_pages); every page's context is closed after the test."""
    with signed_in_pages(browser, server) as open_as:
        yield open_as
