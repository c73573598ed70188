"""What the games endpoints share: the game body's documented shape, the base view and
the helpers that load a game and answer with it as the requester may see it."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.metadata import SimpleMetadata
from rest_framework.request import Request
from rest_framework.utils import html

from accounts.errors import ServiceError

from .. import observing, selectors, services
from ..models import Game

# -- request fields as strict as the socket's frames ----------------------------------


class WholeNumberField(serializers.IntegerField):
    """An integer, as the socket takes it (games/services.py, ``malformed-ply``): DRF's own
    also took ``2.0``, ``"2 "`` and ``"2.0"``. In a JSON body the text ``"2"`` is refused
    too; a form's body (the browsable API's) has only text, and there digits alone stand
    for it."""

    def get_value(self, dictionary: Any) -> Any:
        value = super().get_value(dictionary)
        if html.is_html_input(dictionary) and isinstance(value, str) and value.isascii() and value.isdigit():
            return int(value)
        return value

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)  # type: ignore[no-any-return]


class TrueFalseField(serializers.BooleanField):
    """JSON ``true`` or ``false``, as strictly typed as the whole numbers above: DRF's own
    also took ``"yes"``, ``"on"``, ``"1"``, ``1`` and ``"True"`` for true. A form's body
    (the browsable API's) has only text: there the text ``true`` or ``false`` stands for it."""

    default_error_messages = {"invalid": "Give true or false (a JSON boolean, not text or a number).",
                              "null": "Give true or false (a JSON boolean), not null."}

    def get_value(self, dictionary: Any) -> Any:
        value = super().get_value(dictionary)
        if html.is_html_input(dictionary) and value in ("true", "false"):
            return value == "true"
        return value

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class TextChoiceField(serializers.ChoiceField):
    """One of the choices, given as text, as the rules and the socket take it: DRF's own
    compares ``str(data)``, so it also took the JSON number ``2.0`` for ``"2.0"`` (and
    ``1`` for ``"1"``). The choices must be text."""

    default_error_messages = {"not_text": "Give it as text, one of {choices}."}

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("not_text", choices=", ".join(f'"{choice}"' for choice in self.choice_strings_to_values))
        return super().to_internal_value(data)


# -- response shapes (documentation of selectors.game_payload) -------------------------


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="0 (Player One) or 1 (Player Two).")
    user = serializers.CharField(allow_null=True, help_text="Username; null for an AI or an empty seat.")
    name = serializers.CharField(allow_null=True)
    ai_level = serializers.CharField(allow_null=True)
    clock_ms = serializers.IntegerField(allow_null=True, help_text="Game clock left, when the rules set one.")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When this seat runs out of time, if to move."
    )
    running = serializers.BooleanField(
        help_text="Its clock runs: it is to move in a game in play (both seats in a simultaneous step)."
    )


class MoveEntrySerializer(serializers.Serializer):
    ply = serializers.IntegerField(help_text="1 for the first move of the game.")
    seat = serializers.IntegerField()
    move = serializers.JSONField(required=False, help_text="Absent while the move is secret to this viewer.")
    notation = serializers.CharField(required=False)
    commitment = serializers.CharField(
        required=False, help_text="sha256(canonical move JSON + nonce), published at once for secret moves."
    )
    nonce = serializers.CharField(
        required=False, help_text="Published at the reveal, to check the commitment."
    )


class RulesSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    version = serializers.IntegerField()
    options = serializers.DictField(help_text="The engine-validated options, defaults filled in.")
    seconds_per_move = serializers.IntegerField(allow_null=True)
    seconds_per_game = serializers.IntegerField(allow_null=True)
    time_control = serializers.CharField(help_text='The clock in words: "1 min per move", "No clock".')


class VersionChoiceSerializer(serializers.Serializer):
    chooser = serializers.CharField()
    chooser_id = serializers.IntegerField(allow_null=True, help_text="The chooser's user id (None: an AI).")
    chooser_username = serializers.CharField(
        allow_null=True, help_text="The chooser's username (null: an AI); chooser is the name shown."
    )
    versions = serializers.ListField(child=serializers.CharField())


class MatchRefSerializer(serializers.Serializer):
    """Where the game's match stands (a series, or the official T-Tic-T-Tac-Toe match)."""

    id = serializers.IntegerField()
    kind = serializers.CharField(help_text='"series" or "official".')
    number = serializers.IntegerField(help_text="This game's number in the match.")
    status = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    score = serializers.ListField(child=serializers.IntegerField(), help_text="Games won by match players 0 and 1.")
    stage = serializers.CharField()
    text = serializers.CharField(allow_blank=True)
    version = serializers.CharField(required=False, allow_null=True)
    next_game = serializers.IntegerField(allow_null=True, help_text="The match's next game, once it exists.")
    choose_version = VersionChoiceSerializer(allow_null=True, help_text="Set while the chooser must pick.")


class ResultSerializer(serializers.Serializer):
    result = serializers.CharField(help_text='"win", "draw", "tie" or "aborted".')
    winner = serializers.IntegerField(allow_null=True)
    scores = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    reason = serializers.CharField(
        help_text="Why it ended, as stored; it counts players from 1 (\"Player 1 resigned.\" is seat 0, "
                  "Player One), where winner counts seats from 0. For people, show text."
    )
    text = serializers.CharField(
        required=False, help_text="The result in one sentence, with the players' names (games/rules/results.py)."
    )


class GameSerializer(serializers.Serializer):
    """A game as one viewer may see it (selectors.game_payload)."""

    id = serializers.IntegerField()
    variant = serializers.CharField()
    status = serializers.CharField(help_text='"open", "active", "finished" or "aborted".')
    rated = serializers.BooleanField(help_text="The result moves both players' ratings (docs/ratings.md).")
    ply = serializers.IntegerField(help_text="Moves stored so far: send it back with your next move.")
    to_move = serializers.ListField(child=serializers.IntegerField(), help_text="Seats that must act now.")
    you = serializers.IntegerField(allow_null=True, help_text="Your seat; null for observers.")
    view = serializers.DictField(help_text="The engine's view for you (docs/rules/<variant>.md).")
    seats = SeatSerializer(many=True)
    moves = MoveEntrySerializer(many=True)
    rules = RulesSummarySerializer()
    idle_deadline = serializers.DateTimeField(
        allow_null=True, help_text="A game in play without a clock ends as abandoned then if nobody moves."
    )
    match = MatchRefSerializer(allow_null=True)
    seed_hash = serializers.CharField(help_text="sha256 of the seed, published at the start.")
    seed = serializers.CharField(allow_null=True, help_text="Revealed when the game is over.")
    result = ResultSerializer(allow_null=True)


# -- the base view and the payload helpers ---------------------------------------------


class ViewMetadata(SimpleMetadata):
    """``OPTIONS``: the view's name, description and media types, without DRF's form
    description of the body: these views pick a serializer per method, so DRF finds none
    and fails (a 500); the request bodies are in the schema (/api/schema/)."""

    def determine_actions(self, request: Request, view: Any) -> dict[str, Any]:
        return {}


class GamesAPIView(GenericAPIView):
    """Base of the games endpoints. Refusals (ServiceError, RuleError) become the one
    error shape, with their status, in config.api's exception handler."""

    metadata_class = ViewMetadata  # type: ignore[assignment]  # the 3.16 stubs want an instance; DRF takes a class


def load_game(game_id: int) -> Game:
    try:
        return selectors.load_game(game_id)
    except Game.DoesNotExist as exc:
        raise ServiceError("no-such-game", "There is no such game.") from exc


def payload_for(request: Request, game_id: int) -> dict[str, Any]:
    """The game reloaded after a write, as the requester may see it."""
    game = load_game(game_id)
    return selectors.game_payload(game, services.seat_of(game, request.user))


def viewable_payload_for(request: Request, game_id: int) -> dict[str, Any]:
    """The game for a read: a viewer without a seat whom a watch gate refuses (an
    observer ban or policy) gets 403 with the gate's code and sentence."""
    game = load_game(game_id)
    seat = services.seat_of(game, request.user)
    refusal = observing.view_refusal(game=game, user=request.user, seat=seat)
    if refusal is not None:
        raise exceptions.PermissionDenied(refusal.message, code=refusal.code)
    return selectors.game_payload(game, seat)
