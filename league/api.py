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
