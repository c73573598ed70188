"""The ratings API (docs/ratings.md): leaderboards, a player's ratings and history."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.errors import ServiceError
from accounts.models import User
from games.rules import variant_slugs
from league.models import LEAGUE_LIST, Club, Rating, RatingChange, club_list_key
from league.ratings import selectors as rating_selectors


class RatingSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")
    list = serializers.CharField(source="list_key")

    class Meta:
        model = Rating
        fields = ["username", "variant", "list", "system", "rating", "rd", "volatility", "games", "provisional"]


class RatingChangeSerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(source="game_id")
    opponent = serializers.CharField(source="opponent.username")
    list = serializers.CharField(source="list_key")

    class Meta:
        model = RatingChange
        fields = ["game", "variant", "list", "system", "period", "opponent", "opponent_rating", "score", "k",
                  "rating_before", "rating_after", "rd_after", "volatility_after", "provisional", "finished_at"]


class PerformanceSerializer(serializers.Serializer):
    period = serializers.CharField()
    name = serializers.CharField()
    variant = serializers.CharField()
    games = serializers.IntegerField()
    score = serializers.FloatField()
    average_opponent = serializers.FloatField()
    rating = serializers.IntegerField()


VARIANT = OpenApiParameter("variant", str, description="A variant slug (default, or empty: classic).")


def _variant_param(request: Request) -> str:
    """The ``variant`` query parameter, checked: an unknown slug is a 400, not an empty list.
    Empty is left out (docs/api.md), as an HTML form sends an empty field: classic."""
    variant = request.query_params.get("variant") or "classic"
    if variant not in variant_slugs():
        raise ServiceError("unknown-variant", f"There is no variant {variant!r}: see GET /api/v1/variants/.")
    return variant


CLUB = OpenApiParameter("club", str, description="A club's slug, for its own list (default: the league's).")


class LeaderboardView(generics.ListAPIView):
    """The ratings of one list and variant, best first; ``provisional`` is marked."""

    serializer_class = RatingSerializer

    @extend_schema(parameters=[VARIANT, CLUB])
    def get(self, request: Request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        club_slug = self.request.query_params.get("club")
        club = get_object_or_404(Club, slug=club_slug, own_rating_list=True) if club_slug else None
        return rating_selectors.leaderboard(variant=_variant_param(self.request), club=club, limit=10_000)


class PlayerRatingsSerializer(serializers.Serializer):
    username = serializers.CharField()
    ratings = RatingSerializer(many=True)
    performances = PerformanceSerializer(many=True)


class PlayerRatingsView(APIView):
    """A player's current ratings in every list and variant, and tournament performances."""

    @extend_schema(responses={200: PlayerRatingsSerializer})
    def get(self, request: Request, username: str) -> Response:
        person = get_object_or_404(User, username=username)
        return Response({
            "username": person.username,
            "ratings": RatingSerializer(rating_selectors.player_ratings(person), many=True).data,
            "performances": PerformanceSerializer(rating_selectors.performances(person), many=True).data,
        })


class PlayerHistoryView(generics.ListAPIView):
    """A player's rating changes in one list and variant, oldest first."""

    serializer_class = RatingChangeSerializer

    @extend_schema(parameters=[VARIANT, OpenApiParameter("list", str, description='"league" (the default, or empty) or "club-<id>".',
                                                           pattern=r"^(?:league|club-[0-9]+)?$")])
    def get(self, request: Request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        person = get_object_or_404(User, username=self.kwargs["username"])
        variant = _variant_param(self.request)
        list_key = self.request.query_params.get("list") or LEAGUE_LIST  # empty: left out, the league's
        clubs = {club_list_key(pk) for pk in Club.objects.filter(own_rating_list=True).values_list("pk", flat=True)}
        if list_key != LEAGUE_LIST and list_key not in clubs:
            raise ServiceError("unknown-list", f'There is no rating list {list_key!r}: "league" or "club-<id>".')
        return rating_selectors.rating_history(person, variant=variant, list_key=list_key).select_related("opponent")
