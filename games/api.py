"""Games through the REST API: the lobby, creating and joining games, moves, resigning,
aborting, time-outs, private notes, house-rule sets and the variants' option schemas.

Thin on purpose: every write is one ``games.services`` call, and every game body is
``selectors.game_payload`` as the requester may see it (their seat's view, or the
observer's view for anyone else), so the API can never show more than the websocket.

Errors keep the platform's one shape ``{"code", "message"}``. A refused request is
400 with the service's (or the engine's) code, except ``no-such-game`` (404) and
``stale-ply`` (409, with the current game under ``"game"``).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Case, IntegerField, QuerySet, Value, When
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, permissions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.metadata import SimpleMetadata
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.errors import ErrorSerializer, ServiceError
from accounts.http import PlayerAPIRequest
from accounts.models import User

from . import observing, ownership, selectors, services
from .models import Game, PrivateNote, RuleSet
from .rules import get_variant, variant_slugs
from .rules.ai import LEVELS as AI_LEVELS

#: Refusals with a status of their own; every other ServiceError is 400.
# -- response shapes (documentation of selectors.game_payload) ------------------------


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="0 (Player One) or 1 (Player Two).")
    user = serializers.CharField(allow_null=True, help_text="Username; null for an AI or an empty seat.")
    name = serializers.CharField(allow_null=True)
    ai_level = serializers.CharField(allow_null=True)
    clock_ms = serializers.IntegerField(allow_null=True, help_text="Game clock left, when the rules set one.")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When this seat runs out of time, if to move."
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


class VersionChoiceSerializer(serializers.Serializer):
    chooser = serializers.CharField()
    chooser_id = serializers.IntegerField(allow_null=True, help_text="The chooser's user id (None: an AI).")
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
    reason = serializers.CharField()


class GameSerializer(serializers.Serializer):
    """A game as one viewer may see it (selectors.game_payload)."""

    id = serializers.IntegerField()
    variant = serializers.CharField()
    status = serializers.CharField(help_text='"open", "active", "finished" or "aborted".')
    ply = serializers.IntegerField(help_text="Moves stored so far: send it back with your next move.")
    to_move = serializers.ListField(child=serializers.IntegerField(), help_text="Seats that must act now.")
    you = serializers.IntegerField(allow_null=True, help_text="Your seat; null for observers.")
    view = serializers.DictField(help_text="The engine's view for you (docs/rules/<variant>.md).")
    seats = SeatSerializer(many=True)
    moves = MoveEntrySerializer(many=True)
    rules = RulesSummarySerializer()
    match = MatchRefSerializer(allow_null=True)
    seed_hash = serializers.CharField(help_text="sha256 of the seed, published at the start.")
    seed = serializers.CharField(allow_null=True, help_text="Revealed when the game is over.")
    result = ResultSerializer(allow_null=True)


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
        return seat.user.name if seat.user_id else (f"AI ({seat.ai_level})" if seat.ai_level else None)


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
        help_text="True when anyone may accept (an open challenge)."
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


# -- request shapes -------------------------------------------------------------------


class GameCreateSerializer(serializers.Serializer):
    variant = serializers.CharField(
        required=False, help_text="A variant slug (GET /api/v1/variants/); or give rule_set."
    )
    options = serializers.JSONField(
        required=False,
        help_text="House rules for the variant (its options_schema); the engine validates them.",
    )
    rule_set = serializers.IntegerField(required=False, help_text="A house-rule set id, instead of variant.")
    opponent = serializers.CharField(required=False, help_text="Username to challenge; they accept.")
    ai_level = serializers.ChoiceField(choices=list(AI_LEVELS), required=False, help_text="Play an AI.")
    seat = serializers.ChoiceField(
        choices=[0, 1], required=False, help_text="The challenger's seat when the rules let them choose."
    )
    rated = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Rated: the result moves both players' ratings (docs/ratings.md). Only between two "
        "people: refused with ai_level (code ai-not-rated). Every game of a rated match is rated.",
    )


class PlayMoveSerializer(serializers.Serializer):
    ply = serializers.IntegerField(min_value=0, help_text="The game's ply as you last saw it.")
    move = serializers.JSONField(help_text='The variant\'s move, e.g. {"cell": 5} in classic.')


class NoteSerializer(serializers.Serializer):
    text = serializers.CharField(allow_blank=True, max_length=10_000, trim_whitespace=False)
    updated_at = serializers.DateTimeField(read_only=True, allow_null=True)


class RuleSetSerializer(serializers.ModelSerializer):
    created_by = serializers.CharField(source="created_by.username", allow_null=True, default=None)

    class Meta:
        model = RuleSet
        fields = [
            "id", "family", "version", "is_current", "is_standard", "name", "variant", "options", "decider",
            "seconds_per_move", "seconds_per_game", "no_show_seconds",
            "match_format", "match_games", "next_first", "created_by", "created_at",
        ]  # fmt: skip
        read_only_fields = fields


class RuleSetCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    variant = serializers.CharField(max_length=32, help_text="A variant slug.")
    options = serializers.JSONField(
        required=False, help_text="The variant's house rules (its options_schema)."
    )
    decider = serializers.ChoiceField(
        choices=RuleSet.Decider.choices, required=False, help_text="How Player One is decided."
    )
    seconds_per_move = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=services.MAX_RULE_SECONDS
    )
    seconds_per_game = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=services.MAX_RULE_SECONDS
    )
    no_show_seconds = serializers.IntegerField(required=False, min_value=0, max_value=services.MAX_RULE_SECONDS)
    match_format = serializers.ChoiceField(
        choices=RuleSet.MatchFormat.choices, required=False, help_text="A single game, or a match."
    )
    match_games = serializers.IntegerField(required=False, min_value=1, max_value=99)
    next_first = serializers.ChoiceField(
        choices=RuleSet.NextFirst.choices, required=False, help_text="Who is Player One in the next game."
    )


class RuleSetReviseSerializer(RuleSetCreateSerializer):
    """Only the fields given change; the rest carry over from the current version."""

    name = serializers.CharField(max_length=120, required=False)
    variant = serializers.CharField(max_length=32, required=False)


class VariantSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    options_schema = serializers.DictField(help_text="JSON Schema (draft 2020-12) of the house rules.")
    default_options = serializers.DictField()


# -- views ----------------------------------------------------------------------------


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


def _load(game_id: int) -> Game:
    try:
        return selectors.load_game(game_id)
    except Game.DoesNotExist as exc:
        raise ServiceError("no-such-game", "There is no such game.") from exc


def _payload_for(request: Request, game_id: int) -> dict[str, Any]:
    """The game reloaded after a write, as the requester may see it."""
    game = _load(game_id)
    return selectors.game_payload(game, services.seat_of(game, request.user))


def _viewable_payload_for(request: Request, game_id: int) -> dict[str, Any]:
    """The game for a read: a viewer without a seat whom a watch gate refuses (an
    observer ban or policy) gets 403 with the gate's code and sentence."""
    game = _load(game_id)
    seat = services.seat_of(game, request.user)
    refusal = observing.view_refusal(game=game, user=request.user, seat=seat)
    if refusal is not None:
        raise exceptions.PermissionDenied(refusal.message, code=refusal.code)
    return selectors.game_payload(game, seat)


def _status_filter(raw: str | None) -> list[str]:
    if not raw:
        return [Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.FINISHED]
    wanted = [part.strip() for part in raw.split(",") if part.strip()]
    unknown = [s for s in wanted if s not in Game.Status.values]
    if unknown:
        raise ServiceError(
            "bad-filter", f"A status is one of {', '.join(Game.Status.values)}; not {unknown[0]!r}."
        )
    return wanted


def lobby_queryset(*, statuses: list[str], variant: str | None, player: str | None) -> QuerySet[Game]:
    # A read that belongs beside selectors.lobby_games (which returns fixed slices).
    games = (
        Game.objects.filter(status__in=statuses)
        .select_related("rule_set")
        .prefetch_related("seats__user__profile")
    )
    if variant:
        games = games.filter(variant=variant)
    if player:
        games = games.filter(seats__user__username__iexact=player)
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
        )
        page = self.paginate_queryset(games)
        return self.get_paginated_response(LobbyGameSerializer(page, many=True).data)

    @extend_schema(
        operation_id="games_create",
        summary="Create a game: challenge a player, play an AI, or open a challenge",
        request=GameCreateSerializer,
        responses={201: GameSerializer, 400: ErrorSerializer, 401: ErrorSerializer},
    )
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
            opponent = User.objects.filter(username__iexact=data["opponent"]).first()
            if opponent is None:
                raise ServiceError("no-such-player", f"There is no player called {data['opponent']!r}.")
        game = services.create_game(
            creator=request.user,
            variant=data.get("variant"),
            rule_set=rule_set,
            options=data.get("options"),
            opponent=opponent,
            ai_level=data.get("ai_level", ""),
            creator_seat=data.get("seat"),
            rated=data["rated"],
        )
        return Response(_payload_for(request, game.pk), status=status.HTTP_201_CREATED)


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
        return Response(_viewable_payload_for(request, pk))


class GameMovesView(GamesAPIView):
    @extend_schema(
        operation_id="games_moves_list",
        summary="The move log: secret moves show their commitment, and their nonce once revealed",
        responses={200: MoveLogSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        payload = _viewable_payload_for(request, pk)
        return Response({key: payload[key] for key in ("id", "ply", "seed_hash", "seed", "moves")})

    @extend_schema(
        operation_id="games_moves_create",
        summary="Play a move at the ply you saw",
        request=PlayMoveSerializer,
        responses={
            201: GameSerializer,
            400: OpenApiResponse(ErrorSerializer, description="Refused: the engine's or the service's code."),
            401: ErrorSerializer,
            404: ErrorSerializer,
            409: OpenApiResponse(
                StalePlyErrorSerializer, description="stale-ply: the current game is in 'game'."
            ),
        },
    )
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
                {**err.as_dict(), "game": _payload_for(request, pk)}, status=status.HTTP_409_CONFLICT
            )
        return Response(_payload_for(request, pk), status=status.HTTP_201_CREATED)


def _action_view(action: Any, summary: str, name: str) -> type[GamesAPIView]:
    """A POST endpoint that calls one service ``action(game_id=..., user=...)``."""

    class ActionView(GamesAPIView):
        @extend_schema(
            operation_id=f"games_{name}",
            summary=summary,
            request=None,
            responses={200: GameSerializer, 400: ErrorSerializer, 401: ErrorSerializer, 404: ErrorSerializer},
        )
        def post(self, request: PlayerAPIRequest, pk: int) -> Response:
            action(game_id=pk, user=request.user)
            return Response(_payload_for(request, pk))

    ActionView.__name__ = ActionView.__qualname__ = f"Game{name.title().replace('_', '')}View"
    return ActionView


GameAcceptView = _action_view(
    services.accept_challenge, "Accept a challenge (or take an open seat)", "accept"
)
GameResignView = _action_view(services.resign, "Resign: the opponent wins", "resign")
GameAbortView = _action_view(services.abort, "Call the game off before the first move", "abort")
GameClaimTimeoutView = _action_view(
    services.claim_timeout, "Finish the game if a player ran out of time", "claim_timeout"
)


class MatchVersionRequestSerializer(serializers.Serializer):
    version = serializers.ChoiceField(choices=["1.0", "2.0"])


class MatchVersionView(GamesAPIView):
    """The official T-Tic-T-Tac-Toe match: the classic game's winner picks the version."""

    @extend_schema(
        operation_id="matches_choose_version",
        summary="Choose Version 1.0 or 2.0 (the official match's classic-game winner)",
        request=MatchVersionRequestSerializer,
        responses={200: GameSerializer, 400: ErrorSerializer, 401: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request: PlayerAPIRequest, pk: int) -> Response:
        body = MatchVersionRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        game = services.choose_match_version(match_id=pk, user=request.user, version=body.validated_data["version"])
        return Response(_payload_for(request, game.pk))


class GameNoteView(GamesAPIView):
    """Your own private note on a game you play; nobody else ever reads it."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="games_note_retrieve",
        responses={200: NoteSerializer, 400: ErrorSerializer, 401: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request: PlayerAPIRequest, pk: int) -> Response:
        game = _load(pk)
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


class RuleSetListCreateView(GamesAPIView):
    @extend_schema(
        operation_id="rule_sets_list",
        summary="House-rule sets (current versions unless all_versions=true)",
        parameters=[
            OpenApiParameter("variant", str, description="A variant slug."),
            OpenApiParameter("all_versions", bool, description="Include superseded versions."),
        ],
        responses={200: RuleSetSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        rule_sets = RuleSet.objects.select_related("created_by").order_by("name", "-version", "pk")
        if request.query_params.get("all_versions", "").lower() not in ("1", "true", "yes"):
            rule_sets = rule_sets.filter(is_current=True)
        if variant := request.query_params.get("variant"):
            rule_sets = rule_sets.filter(variant=variant)
        page = self.paginate_queryset(rule_sets)
        return self.get_paginated_response(RuleSetSerializer(page, many=True).data)

    @extend_schema(
        operation_id="rule_sets_create",
        summary="Create a house-rule set (the engine validates the options)",
        request=RuleSetCreateSerializer,
        responses={201: RuleSetSerializer, 400: ErrorSerializer, 401: ErrorSerializer},
    )
    def post(self, request: PlayerAPIRequest) -> Response:
        body = RuleSetCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        rule_set = services.create_rule_set(created_by=request.user, **body.validated_data)
        return Response(RuleSetSerializer(rule_set).data, status=status.HTTP_201_CREATED)


def _rule_set_or_404(pk: int) -> RuleSet:
    rule_set = RuleSet.objects.select_related("created_by").filter(pk=pk).first()
    if rule_set is None:
        raise exceptions.NotFound("There is no such house-rule set.")
    return rule_set


class RuleSetDetailView(GamesAPIView):
    @extend_schema(
        operation_id="rule_sets_retrieve", responses={200: RuleSetSerializer, 404: ErrorSerializer}
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(RuleSetSerializer(_rule_set_or_404(pk)).data)


class RuleSetReviseView(GamesAPIView):
    @extend_schema(
        operation_id="rule_sets_revise",
        summary="A new version of the set (games already made keep theirs); its keeper only",
        description=(
            "A standard set (is_standard) is the platform's: superusers only. A club's set: that club's "
            "organisers. Any other set: its author. Every revision is in the audit log."
        ),
        request=RuleSetReviseSerializer,
        responses={
            201: RuleSetSerializer,
            400: ErrorSerializer,
            401: ErrorSerializer,
            403: ErrorSerializer,
            404: ErrorSerializer,
        },
    )
    def post(self, request: PlayerAPIRequest, pk: int) -> Response:
        rule_set = _rule_set_or_404(pk)
        # The service refuses too; asked first so a refusal is a 403, before the body is judged.
        refusal = ownership.revise_refusal(rule_set, request.user)
        if refusal is not None:
            raise exceptions.PermissionDenied(refusal.message, code=refusal.code)
        body = RuleSetReviseSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        revised = services.revise_rule_set(rule_set=rule_set, created_by=request.user, **body.validated_data)
        return Response(RuleSetSerializer(revised).data, status=status.HTTP_201_CREATED)


class VariantListView(APIView):
    @extend_schema(
        operation_id="variants_list",
        summary="Every variant with its house-rule options schema, to build forms",
        responses={200: VariantSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        variants = [get_variant(slug) for slug in variant_slugs()]
        return Response(
            [
                {
                    "slug": v.slug,
                    "name": v.name,
                    "options_schema": v.options_schema,
                    "default_options": v.default_options(),
                }
                for v in variants
            ]
        )
