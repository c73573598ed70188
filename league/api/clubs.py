"""The clubs API: /api/v1/clubs/."""

from __future__ import annotations

from django_countries.serializer_fields import CountryField
from rest_framework import serializers, viewsets

from league.clubs.selectors import clubs_for_home
from league.models import Club, ClubMembership


class MembershipSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")
    display_name = serializers.CharField(source="user.name")

    class Meta:
        model = ClubMembership
        fields = ["username", "display_name", "role"]


class ClubSerializer(serializers.ModelSerializer):
    # django-countries' field: the model's own mapping answers a club without a country
    # with a Country object that JSON cannot encode (a 500).
    country = CountryField(allow_blank=True, read_only=True, help_text='"": not given.')
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
