"""Matches through the REST API: the official T-Tic-T-Tac-Toe match's version choice."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from accounts.errors import ErrorSerializer
from accounts.http import PlayerAPIRequest

from .. import matches
from .base import GamesAPIView, GameSerializer, TextChoiceField, payload_for


class MatchVersionRequestSerializer(serializers.Serializer):
    # Text only (TextChoiceField): DRF's ChoiceField took the JSON number 2.0 for "2.0".
    version = TextChoiceField(choices=["1.0", "2.0"], help_text='"1.0" or "2.0", as text.')


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
        game = matches.choose_match_version(match_id=pk, user=request.user, version=body.validated_data["version"])
        return Response(payload_for(request, game.pk))
