from __future__ import annotations

from rest_framework import serializers, viewsets

from .models import Club, ClubMembership
from .selectors import clubs_for_home


class MembershipSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")
    display_name = serializers.CharField(source="user.name")

    class Meta:
        model = ClubMembership
        fields = ["username", "display_name", "role"]


class ClubSerializer(serializers.ModelSerializer):
    member_count = serializers.IntegerField(read_only=True)
    members = MembershipSerializer(source="memberships", many=True, read_only=True)

    class Meta:
        model = Club
        fields = ["id", "name", "slug", "country", "description", "member_count", "members"]


class ClubViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = ClubSerializer
    lookup_field = "slug"

    def get_queryset(self):
        return clubs_for_home().prefetch_related("memberships__user__profile")


# -- ratings (docs/ratings.md) ---------------------------------------------------------

from django.shortcuts import get_object_or_404  # noqa: E402
from drf_spectacular.utils import OpenApiParameter, extend_schema  # noqa: E402
from rest_framework import generics  # noqa: E402
from rest_framework.request import Request  # noqa: E402
from rest_framework.response import Response  # noqa: E402
from rest_framework.views import APIView  # noqa: E402

from accounts.errors import ServiceError  # noqa: E402
from accounts.models import User  # noqa: E402
from games.rules import variant_slugs  # noqa: E402

from . import rating_selectors  # noqa: E402
from .models import LEAGUE_LIST, Rating, RatingChange  # noqa: E402


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


VARIANT = OpenApiParameter("variant", str, description="A variant slug (default classic).")


def _variant_param(request: Request) -> str:
    """The ``variant`` query parameter, checked: an unknown slug is a 400, not an empty list."""
    variant = request.query_params.get("variant", "classic")
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


class PlayerRatingsView(APIView):
    """A player's current ratings in every list and variant, and tournament performances."""

    @extend_schema(responses={200: RatingSerializer(many=True)})
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

    @extend_schema(parameters=[VARIANT, OpenApiParameter("list", str, description='"league" or "club-<id>".')])
    def get(self, request: Request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        person = get_object_or_404(User, username=self.kwargs["username"])
        variant = _variant_param(self.request)
        list_key = self.request.query_params.get("list", LEAGUE_LIST)
        clubs = {f"club-{pk}" for pk in Club.objects.filter(own_rating_list=True).values_list("pk", flat=True)}
        if list_key != LEAGUE_LIST and list_key not in clubs:
            raise ServiceError("unknown-list", f'There is no rating list {list_key!r}: "league" or "club-<id>".')
        return rating_selectors.rating_history(person, variant=variant, list_key=list_key).select_related("opponent")
