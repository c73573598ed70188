"""Games through the REST API: the lobby, creating and joining games, moves, resigning,
aborting, time-outs, private notes, house-rule sets and the variants' option schemas.

Thin on purpose: every write is one ``games.services`` call, and every game body is
``selectors.game_payload`` as the requester may see it (their seat's view, or the
observer's view for anyone else), so the API can never show more than the websocket.

Errors keep the platform's one shape ``{"code", "message"}``. A refused request is
400 with the service's (or the engine's) code, except ``no-such-game`` (404) and
``stale-ply`` (409, with the current game under ``"game"``).

The endpoints by concern (games/api_urls.py routes them): ``games`` (the lobby, a game,
its moves, accept, resign, abort, time-outs, notes), ``matches`` (the official match's
version choice), ``rule_sets`` (house-rule sets and the variants' option schemas), and
``base`` (the game body's documented shape, the base view, the payload helpers).
"""
