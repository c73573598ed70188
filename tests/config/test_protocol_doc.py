"""Every error code a websocket can send is in docs/protocol.md (an outside walkthrough:
``bad-number``, the answer to a number too long or too large to read, was missing). The
codes are read from the code itself, with ``ast``: the literal codes of the consumers'
``send_error`` calls, the watch gates' refusals, a moderator's kicks, the 1013 close and
the refusals of the services the game socket calls; the doc's from its error tables, its
list of error codes and its example frames. An engine's own codes (an illegal move's)
are the rule texts' (docs/rules/<variant>.md), as the doc says."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from tests.processes import ROOT

DOC = ROOT / "docs" / "protocol.md"
CONSUMERS = ("accounts/realtime.py", "config/notifications.py", "games/consumers.py", "league/consumers.py")
WATCH_GATES = ("games/observing.py", "games/consumers.py", "moderation/watching.py")
#: What the game socket's frames call (games/consumers.py: _play, _resign, ...).
SOCKET_SERVICES = ("submit_move", "resign", "claim_timeout", "save_note")
CODE = re.compile(r"[a-z]+(?:-[a-z]+)+|[a-z]+")


def _tree(path: str) -> ast.Module:
    return ast.parse((ROOT / path).read_text())


def _name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _literal_args(node: ast.AST, callee: str, position: int = 0) -> Iterator[str]:
    """The string literal at ``position`` of every call to ``callee`` under ``node``."""
    for call in ast.walk(node):
        if isinstance(call, ast.Call) and _name(call) == callee and len(call.args) > position:
            arg = call.args[position]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                yield arg.value


def _service_refusals() -> set[str]:
    """The ServiceError codes of the socket's services and of what they call in their module."""
    tree = _tree("games/services.py")
    functions = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    seen: set[str] = set()
    todo = list(SOCKET_SERVICES)
    while todo:
        name = todo.pop()
        if name in seen or name not in functions:
            continue
        seen.add(name)
        todo += [_name(c) for c in ast.walk(functions[name]) if isinstance(c, ast.Call)]
    assert set(SOCKET_SERVICES) <= seen
    return {code for name in seen for code in _literal_args(functions[name], "ServiceError")}


def codes_in_code() -> set[str]:
    codes = {code for path in CONSUMERS for code in _literal_args(_tree(path), "send_error")}
    codes |= {code for path in WATCH_GATES for code in _literal_args(_tree(path), "WatchRefusal")}
    codes |= set(_literal_args(_tree("moderation/services.py"), "_remove_observers", 2))  # kicks and bans
    codes |= set(_literal_args(_tree("games/workers.py"), "ServiceError"))  # a worker lost: try-again
    codes |= _service_refusals()
    # The 1013 close when the channel layer is down: its (code, message) pair.
    for pair in ast.walk(_tree("accounts/realtime.py")):
        if isinstance(pair, ast.Tuple) and len(pair.elts) == 2:
            texts = [e.value for e in pair.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if len(texts) == 2 and CODE.fullmatch(texts[0]) and texts[1].endswith("."):
                codes.add(texts[0])
    return codes


def codes_in_doc() -> set[str]:
    text = DOC.read_text()
    codes: set[str] = set()
    header: list[str] = []
    for line in text.splitlines():
        line = line.strip()  # a table in a list item is indented
        if not line.startswith("|"):
            header = []
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if not header:
            header = cells
        elif not set(line) <= set("|-: "):  # a row, not the rule under the header
            for title, cell in zip(header, cells, strict=False):
                if title in ("code", "error codes"):
                    codes |= set(re.findall(r"`([a-z-]+)`", cell))
    listed = re.search(r"Error codes, besides the frame errors above:(.*?)\n\n", text, re.S)
    assert listed, "the doc's list of error codes"
    codes |= set(re.findall(r"`([a-z-]+)`", listed.group(1)))
    codes |= set(re.findall(r'"code": "([a-z-]+)"', text))
    return codes


def test_the_code_reading_finds_what_it_should():
    """The reading above is not empty-handed: a code of each kind is found."""
    found = codes_in_code()
    assert {"malformed-json", "bad-number", "no-such-section", "banned", "kicked", "observers-full",
            "private-lesson", "stale-ply", "bad-note", "try-again", "unavailable"} <= found, found


def test_every_error_code_a_socket_sends_is_in_the_protocol_doc():
    missing = codes_in_code() - codes_in_doc()
    assert not missing, f"docs/protocol.md does not list: {sorted(missing)}"
