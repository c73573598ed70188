"""The documentation is self-contained: every file it points at is in the repository.

Every markdown file (README.md, docs/**) is read for relative links (and their
#anchors), for paths quoted in backticks (`games/rules/match.py`, `docs/api.md`) and
for bare file paths (docs/security.md). Each must exist here; a reference that leaves
the repository (`../elsewhere`, an absolute path such as /work/...) fails, as does a
file path under a directory the repository does not have (shared/notes.md).
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

import pytest

from tests.processes import ROOT

#: Top-level directories that are not the repository's own (local state, caches).
IGNORED_DIRS = {"var", "staticfiles", "test-artifacts", "node_modules"}
#: Absolute paths of this kind of machine: never part of a clone.
OUTSIDE = ("/work/", "/home/", "/root/", "/tmp/", "/opt/", "/mnt/", "~/", "file:")

FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)", re.M)
URL = re.compile(r"[a-z][a-z0-9+.-]*://\S*|mailto:\S+")
BARE_PATH = re.compile(r"(?<![\w./:-])((?:\.\./)*[\w.-]+(?:/[\w.-]+)+)")
BARE_OUTSIDE = re.compile(r"(?<![\w./:-])((?:/work|/home|/root|/tmp|/opt|/mnt|~)/\S*)")
FILE_NAME = re.compile(r"\.[A-Za-z0-9]{1,5}$")
#: A name alone in backticks with one of these endings names a file (`models.py`);
#: others are modules or attributes (`games.rules`, `game.ply`) or downloads (`bracket.json`).
SOURCE_FILE = re.compile(r"^[\w.-]+\.(py|md|txt|html|css|js|toml)$")
PLACEHOLDER = re.compile(r"[<{*|$]")
#: Where the checks' own examples are taken to be written.
PROBE = ROOT / "docs" / "probe.md"


@functools.cache
def repository_files() -> tuple[Path, ...]:
    """Every file of the working tree but hidden directories (.git, caches) and local state."""
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(".") and not (folder == str(ROOT) and d in IGNORED_DIRS)]
        found += [Path(folder, name) for name in files]
    return tuple(sorted(found))


def markdown_files() -> list[Path]:
    return [path for path in repository_files() if path.suffix == ".md"]


def top_level_names() -> set[str]:
    return {path.name for path in ROOT.iterdir() if path.name not in IGNORED_DIRS}


@functools.cache
def file_names() -> frozenset[str]:
    return frozenset(path.name for path in repository_files())


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", FENCE.sub("", path.read_text()), re.M):
        base = slug(heading)
        name, n = base, 0
        while name in found:  # repeated headings get -1, -2, ...
            n += 1
            name = f"{base}-{n}"
        found.add(name)
    return found


def inside(path: Path) -> bool:
    return path.resolve().is_relative_to(ROOT.resolve())


def check_link(source: Path, target: str) -> str | None:
    """What is wrong with the link ``target`` of ``source``, or None."""
    if URL.fullmatch(target):
        return None
    if target.startswith(OUTSIDE) or target.startswith("/"):
        return "leaves the repository"
    file_part, _, anchor = target.partition("#")
    resolved = (source.parent / file_part) if file_part else source
    if not inside(resolved):
        return "leaves the repository"
    if not resolved.exists():
        return "does not exist"
    if anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
        return f"has no heading #{anchor}"
    return None


def check_path(source: Path, token: str, roots: set[str]) -> str | None:
    """What is wrong with a quoted or bare path ``token`` of ``source``, or None."""
    if URL.match(token):
        return None
    if token.startswith(OUTSIDE):
        return "leaves the repository"
    if "/" not in token:
        if SOURCE_FILE.match(token) and token not in file_names():
            return "is not a file of the repository"
        return None
    if token.startswith("/"):
        return None  # a URL path (/api/v1/...)
    literal = PLACEHOLDER.split(token, maxsplit=1)[0]
    if literal != token:  # docs/rules/<slug>.md: the directory before the placeholder
        literal = literal.rpartition("/")[0]
    if token.startswith("../"):
        resolved = source.parent / literal
        if not inside(resolved):
            return "leaves the repository"
        return None if resolved.exists() else "does not exist"
    if token.split("/")[0] in roots:
        # A template's name (games/boards/classic.html) is a path under templates/.
        found = (ROOT / literal).exists() or (ROOT / "templates" / literal).exists()
        return None if found else "does not exist"
    if literal == token and FILE_NAME.search(token):
        return "is not a path of the repository"
    return None  # 10/min, check_in_opens_at/closes_at: not paths


def problems(source: Path, text: str, roots: set[str]) -> list[str]:
    """What is wrong with the references of ``text``, the content of ``source``."""
    fenced = "\n".join(block.group(0) for block in FENCE.finditer(text))
    prose = FENCE.sub("", text)
    found: list[tuple[str, str | None]] = []
    for target in [*LINK.findall(prose), *REFERENCE_LINK.findall(prose)]:
        found.append((target, check_link(source, target)))
    for token in CODE_SPAN.findall(prose):
        if " " not in token.strip():
            found.append((token, check_path(source, token.strip(), roots)))
    bare = URL.sub(" ", LINK.sub(" ", CODE_SPAN.sub(" ", prose)) + "\n" + fenced)
    for token in BARE_PATH.findall(bare):
        if token.startswith("../") or FILE_NAME.search(token):
            found.append((token, check_path(source, token.rstrip("."), roots)))
    found += [(token, "leaves the repository") for token in BARE_OUTSIDE.findall(bare)]
    where = source.relative_to(ROOT)
    return [f"{where}: {ref!r} {problem}" for ref, problem in found if problem]


def test_the_docs_are_found():
    names = {str(path.relative_to(ROOT)) for path in markdown_files()}
    assert {"README.md", "docs/api.md", "docs/rules/README.md"} <= names


@pytest.mark.parametrize("source", markdown_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_reference_is_inside_the_repository(source):
    assert problems(source, source.read_text(), top_level_names()) == []


@pytest.mark.parametrize(
    ("reference", "problem"),
    [
        ("`../../shared/seeds/000.txt`", "leaves the repository"),
        ("`../shared/seeds/000.txt`", "does not exist"),
        ("`/work/shared/BASELINES.md`", "leaves the repository"),
        ("measured there (/work/shared/BASELINES.md)", "leaves the repository"),
        ("see shared/BASELINES.md", "is not a path of the repository"),
        ("`001_980c4adf7c04538e.txt`", "is not a file of the repository"),
        ("`games/rules/nowhere.py`", "does not exist"),
        ("[the API](api.md#no-such-heading)", "has no heading #no-such-heading"),
        ("[up](../../README.md)", "leaves the repository"),
    ],
)
def test_a_reference_outside_the_repository_is_caught(reference, problem):
    found = problems(PROBE, f"# Probe\n\n{reference}\n", top_level_names())
    assert len(found) == 1 and found[0].endswith(problem), found


def test_paths_that_are_not_files_pass():
    text = (
        "# Probe\n\n`/api/v1/games/` `10/min` `docs/rules/<slug>.md` `memory://` "
        "[home](https://example.org/a.md) [api](api.md#competitions) `games/rules/match.py` "
        "`services.py` `games.rules` `bracket.json`\n"
    )
    assert problems(PROBE, text, top_level_names()) == []
