"""Games through the REST API: the lobby, creating and joining games, moves, resigning,
aborting, time-outs and private notes (games/api/__init__.py)."""

from __future__ import annotations

from typing import Any

from django.db.models import Case, IntegerField, QuerySet, Value, When
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from accounts import idempotency, players
from accounts.api import TextField
from accounts.errors import ErrorSerializer, ServiceError
from accounts.http import PlayerAPIRequest

from .. import selectors, services
from ..models import Game, PrivateNote, RuleSet
from ..rules.ai import LEVELS as AI_LEVELS
from .base import (
    GamesAPIView,
    GameSerializer,
    MoveEntrySerializer,
    TrueFalseField,
    WholeNumberField,
    load_game,
    payload_for,
    viewable_payload_for,
)

# -- response shapes -------------------------------------------------------------------


class StalePlyErrorSerializer(ErrorSerializer):
    game = GameSerializer(help_text="The game as it is now, for the client to resync.")


class MoveLogSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    ply = serializers.IntegerField()
    seed_hash = serializers.CharField()
    seed = serializers.CharField(allow_null=True)
    moves = MoveEntrySerializer(many=True)


class LobbySeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(source="number")
    user = serializers.CharField(source="user.username", allow_null=True, default=None)
    name = serializers.SerializerMethodField()
    ai_level = serializers.CharField(allow_blank=True)

    def get_name(self, seat: Any) -> str | None:
        return selectors.seat_name(seat)


class LobbyGameSerializer(serializers.Serializer):
    """A line of the lobby: who plays what; no board, so nothing secret."""

    id = serializers.IntegerField()
    variant = serializers.CharField()
    status = serializers.CharField()
    ply = serializers.IntegerField()
    to_move = serializers.ListField(child=serializers.IntegerField())
    seats = LobbySeatSerializer(many=True)
    rule_set = serializers.IntegerField(source="rule_set_id")
    rules_name = serializers.CharField(source="rule_set.name")
    open_seat = serializers.SerializerMethodField(
        help_text="True when anyone may accept (an open challenge); a challenge to one player is "
        "listed only to its two players."
    )
    rated = serializers.BooleanField(help_text="The result moves both players' ratings (docs/ratings.md).")
    result = serializers.CharField(allow_blank=True)
    winner = serializers.IntegerField(source="winner_seat", allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    def get_open_seat(self, game: Game) -> bool:
        return game.status == Game.Status.OPEN and any(
            seat.user_id is None and not seat.ai_level for seat in game.seats.all()
        )


# -- request shapes --------------------------------------------------------------------


class GameCreateSerializer(serializers.Serializer):
    variant = serializers.CharField(
        required=False, help_text="A variant slug (GET /api/v1/variants/); or give rule_set."
    )
    options = serializers.JSONField(
        required=False,
        help_text="House rules for the variant (its options_schema); the engine validates them.",
    )
    rule_set = WholeNumberField(required=False, help_text="A house-rule set id, instead of variant.")
    opponent = serializers.CharField(required=False, help_text="Username to challenge; they accept.")
    ai_level = serializers.ChoiceField(choices=list(AI_LEVELS), required=False, help_text="Play an AI.")
    seat = serializers.ChoiceField(
        choices=[0, 1], required=False, help_text="The challenger's seat when the rules let them choose."
    )
    rated = TrueFalseField(
        required=False,
        default=False,
        help_text="Rated: the result moves both players' ratings (docs/ratings.md). Only between two "
        "people: refused with ai_level (code ai-not-rated). Every game of a rated match is rated.",
    )
    untimed = TrueFalseField(
        required=False,
        default=False,
        help_text='With ai_level: no clock, as the lobby\'s "No clock" choice (a copy of the rules '
        "without one). Default false: the rules' clock. Refused without ai_level (code untimed-needs-ai).",
    )


class PlayMoveSerializer(serializers.Serializer):
    ply = WholeNumberField(min_value=0, help_text="The game's ply as you last saw it.")
    move = serializers.JSONField(help_text='The variant\'s move, e.g. {"cell": 5} in classic.')


class NoteSerializer(serializers.Serializer):
    text = TextField(allow_blank=True, max_length=10_000, trim_whitespace=False)
    updated_at = serializers.DateTimeField(read_only=True, allow_null=True)


# -- views -----------------------------------------------------------------------------


#: What ``_status_filter`` takes, for the schema: statuses between commas, spaces around
#: them, empty places (a fuzzer sent ``?status=registration`` as valid: no pattern said).
_ONE_STATUS = "(?:" + "|".join(Game.Status.values) + ")"
STATUS_PATTERN = rf"^\s*(?:{_ONE_STATUS}\s*)?(?:,\s*(?:{_ONE_STATUS}\s*)?)*$"


def _status_filter(raw: str | None) -> list[str]:
    """``?status=``: the statuses asked for; none (absent, empty, or only commas) is the default."""
    wanted = [part.strip() for part in (raw or "").split(",") if part.strip()]
    if not wanted:
        return [Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.FINISHED]
    unknown = [s for s in wanted if s not in Game.Status.values]
    if unknown:
        raise ServiceError(
            "bad-filter", f"A status is one of {', '.join(Game.Status.values)}; not {unknown[0]!r}."
        )
    return wanted


def lobby_queryset(
    *, statuses: list[str], variant: str | None, player: str | None, viewer: Any = None
) -> QuerySet[Game]:
    # A read that belongs beside selectors.lobby_games (which returns fixed slices).
    games = (
        Game.objects.filter(selectors.visible_challenges(viewer), status__in=statuses, lesson="")
        .select_related("rule_set")
        .prefetch_related("seats__user__profile")
    )
    if variant:
        games = games.filter(variant=variant)
    if player:
        # No username is longer (and SQLite refuses a case-blind LIKE past 50,000 characters).
        too_long = len(player) > players.MAX_QUERY_LENGTH
        games = games.none() if too_long else games.filter(seats__user__username__iexact=player)
    # Open challenges first, then games in play, then the recent ones.
    order = Case(
        When(status=Game.Status.OPEN, then=Value(0)),
        When(status=Game.Status.ACTIVE, then=Value(1)),
        default=Value(2),
        output_field=IntegerField(),
    )
    return games.annotate(lobby_order=order).order_by("lobby_order", "-created_at", "-pk")


class GameListCreateView(GamesAPIView):
    @extend_schema(
        operation_id="games_list",
        summary="The lobby: open challenges, games in play, recent games",
        parameters=[
            OpenApiParameter(
                "status",
                str,
                description="Comma-separated: open, active, finished, aborted "
                "(default: open, active, finished).",
                pattern=STATUS_PATTERN,
            ),
            OpenApiParameter("variant", str, description="A variant slug."),
            OpenApiParameter("player", str, description="Only games with this username in a seat."),
        ],
        responses={200: LobbyGameSerializer(many=True), 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        games = lobby_queryset(
            statuses=_status_filter(request.query_params.get("status")),
            variant=request.query_params.get("variant") or None,
            player=request.query_params.get("player") or None,
            viewer=request.user,
        )
        page = self.paginate_queryset(games)
        return self.get_paginated_response(LobbyGameSerializer(page, many=True).data)

    @extend_schema(
        operation_id="games_create",
        summary="Create a game: challenge a player, play an AI, or open a challenge",
        request=GameCreateSerializer,
        parameters=[idempotency.PARAMETER],
        responses={201: GameSerializer, 400: ErrorSerializer, 401: ErrorSerializer,
                   409: ErrorSerializer, 422: ErrorSerializer},
    )
    @idempotency.idempotent
    def post(self, request: PlayerAPIRequest) -> Response:
        body = GameCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        rule_set = None
        if "rule_set" in data:
            rule_set = RuleSet.objects.filter(pk=data["rule_set"]).first()
            if rule_set is None:
                raise ServiceError("no-such-rule-set", "There is no such house-rule set.")
            if not rule_set.is_current:  # as the lobby and sections: only the version in force
                raise ServiceError("old-rule-set", "Use the current version of the house-rule set.")
            if data.get("variant") not in (None, rule_set.variant):
                raise ServiceError("bad-request", "That house-rule set is for another variant.")
        opponent = None
        if "opponent" in data:
            opponent = players.by_username(data["opponent"])
        game = services.create_game(
            creator=request.user,
            variant=data.get("variant"),
            rule_set=rule_set,
            options=data.get("options"),
            opponent=opponent,
            ai_level=data.get("ai_level", ""),
            creator_seat=data.get("seat"),
            rated=data["rated"],
            untimed=data["untimed"],
        )
        return Response(payload_for(request, game.pk), status=status.HTTP_201_CREATED)


class GameDetailView(GamesAPIView):
    @extend_schema(
        operation_id="games_retrieve",
        summary="A game as you may see it (anonymous: the observer's view)",
        responses={
            200: GameSerializer,
            403: OpenApiResponse(ErrorSerializer, description="An observer ban or policy keeps you out."),
            404: ErrorSerializer,
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(viewable_payload_for(request, pk))


class GameMovesView(GamesAPIView):
    @extend_schema(
        operation_id="games_moves_list",
        summary="The move log: secret moves show their commitment, and their nonce once revealed",
        responses={200: MoveLogSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        payload = viewable_payload_for(request, pk)
        return Response({key: payload[key] for key in ("id", "ply", "seed_hash", "seed", "moves")})

    @extend_schema(
        operation_id="games_moves_create",
        summary="Play a move at the ply you saw",
        request=PlayMoveSerializer,
        parameters=[idempotency.PARAMETER],
        responses={
            422: OpenApiResponse(ErrorSerializer, description="idempotency-key-reused."),
            201: GameSerializer,
            400: OpenApiResponse(ErrorSerializer, description="Refused: the engine's or the service's code."),
            401: ErrorSerializer,
            404: ErrorSerializer,
            409: OpenApiResponse(
                StalePlyErrorSerializer, description="stale-ply: the current game is in 'game'; "
                "or idempotency-key-in-progress."
            ),
        },
    )
    @idempotency.idempotent
    def post(self, request: PlayerAPIRequest, pk: int) -> Response:
        body = PlayMoveSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            services.submit_move(game_id=pk, user=request.user, **body.validated_data)
        except ServiceError as err:
            if err.code != "stale-ply":
                raise
            # Answer with the current state so the client resyncs instead of retrying blind.
            return Response(
                {**err.as_dict(), "game": payload_for(request, pk)}, status=status.HTTP_409_CONFLICT
            )
        return Response(payload_for(request, pk), status=status.HTTP_201_CREATED)


def _action_view(action: Any, summary: str, name: str, *, keyed: bool = False) -> type[GamesAPIView]:
    """A POST endpoint that calls one service ``action(game_id=..., user=...)``;
    ``keyed``: it honours an Idempotency-Key (accounts/idempotency.py)."""

    def handler(self: GamesAPIView, request: PlayerAPIRequest, pk: int) -> Response:
        action(game_id=pk, user=request.user)
        return Response(payload_for(request, pk))

    responses: dict[int, Any] = {200: GameSerializer, 400: ErrorSerializer, 401: ErrorSerializer, 404: ErrorSerializer}
    if keyed:
        handler = idempotency.idempotent(handler)
        responses.update({409: ErrorSerializer, 422: ErrorSerializer})

    class ActionView(GamesAPIView):
        post = extend_schema(
            operation_id=f"games_{name}", summary=summary, request=None,
            parameters=[idempotency.PARAMETER] if keyed else None, responses=responses,
        )(handler)

    ActionView.__name__ = ActionView.__qualname__ = f"Game{name.title().replace('_', '')}View"
    return ActionView


GameAcceptView = _action_view(
    services.accept_challenge, "Accept a challenge (or take an open seat)", "accept", keyed=True
)


GameDeclineView = _action_view(
    services.decline_challenge, "Decline a challenge made to you (its maker gets a notice)", "decline"
)


class GameRematchView(GamesAPIView):
    @extend_schema(
        operation_id="games_rematch",
        summary="The rematch of a finished game: same rules, seats swapped",
        description="Against the AI the new game starts at once. Against a person it is a challenge to them "
        "(a notice tells them); when they ask for the rematch too, this accepts it: both asking make one game. "
        "Asking again answers the same game. No rematch for match or tournament games (code no-rematch).",
        request=None,
        responses={200: GameSerializer, 400: ErrorSerializer, 401: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request: PlayerAPIRequest, pk: int) -> Response:
        new = services.rematch(game_id=pk, user=request.user)
        return Response(payload_for(request, new.pk))


GameResignView = _action_view(services.resign, "Resign: the opponent wins", "resign")


GameAbortView = _action_view(services.abort, "Call the game off before the first move", "abort")


GameClaimTimeoutView = _action_view(
    services.claim_timeout, "Finish the game if a player ran out of time", "claim_timeout"
)


class GameNoteView(GamesAPIView):
    """Your own private note on a game you play; nobody else ever reads it."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="games_note_retrieve",
        responses={200: NoteSerializer, 400: ErrorSerializer, 401: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request: PlayerAPIRequest, pk: int) -> Response:
        game = load_game(pk)
        if services.seat_of(game, request.user) is None:
            raise ServiceError("not-a-player", "Only the game's players keep notes on it.")
        note = PrivateNote.objects.filter(game=game, author=request.user).first()
        return Response(NoteSerializer(note or {"text": "", "updated_at": None}).data)

    @extend_schema(
        operation_id="games_note_update",
        request=NoteSerializer,
        responses={200: NoteSerializer, 400: ErrorSerializer, 401: ErrorSerializer, 404: ErrorSerializer},
    )
    def put(self, request: PlayerAPIRequest, pk: int) -> Response:
        body = NoteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        note = services.save_note(game_id=pk, user=request.user, text=body.validated_data["text"])
        return Response(NoteSerializer(note).data)
