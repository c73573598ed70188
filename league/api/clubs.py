"""The clubs API: /api/v1/clubs/."""

from __future__ import annotations

from django_countries.serializer_fields import CountryField
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers, viewsets

from league.clubs.selectors import clubs_for_home, shown_members
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
    member_count = serializers.SerializerMethodField(help_text="How many members are listed in ``members``.")
    members = serializers.SerializerMethodField(help_text="The members the requester may see listed: "
                                                "active accounts, and children's only to fellow members.")

    class Meta:
        model = Club
        fields = ["id", "name", "slug", "country", "description", "member_count", "members"]

    def _shown(self, club: Club) -> list[ClubMembership]:
        # The members of every club in the list at once (three queries, not three a club).
        shown = self.context.setdefault("shown_members", {})
        if club.pk not in shown:
            listed = self.parent.instance if self.parent is not None else None
            clubs = list(listed) if listed is not None else [club]
            shown.update(shown_members(clubs, self.context["request"].user))
        return shown[club.pk]

    def get_member_count(self, club: Club) -> int:
        # The list's length, as on the home page (league.clubs.selectors.clubs_with_members).
        return len(self._shown(club))

    @extend_schema_field(MembershipSerializer(many=True))
    def get_members(self, club: Club) -> list[dict[str, str]]:
        return MembershipSerializer(self._shown(club), many=True).data  # type: ignore[return-value]


class ClubViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = ClubSerializer
    lookup_field = "slug"

    def get_queryset(self):
        return clubs_for_home()
