"""House-rule sets and the variants' option schemas through the REST API."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.errors import ErrorSerializer, ServiceError
from accounts.http import PlayerAPIRequest

from .. import ownership, rule_sets
from ..models import RuleSet
from ..rules import get_variant, variant_slugs
from .base import GamesAPIView, WholeNumberField

# -- request and response shapes -------------------------------------------------------


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
    seconds_per_move = WholeNumberField(
        required=False, allow_null=True, min_value=1, max_value=rule_sets.MAX_RULE_SECONDS
    )
    seconds_per_game = WholeNumberField(
        required=False, allow_null=True, min_value=1, max_value=rule_sets.MAX_RULE_SECONDS
    )
    # No min_value: games.rule_sets refuses a grace under its minimum, and says why.
    no_show_seconds = WholeNumberField(required=False, max_value=rule_sets.MAX_RULE_SECONDS)
    match_format = serializers.ChoiceField(
        choices=RuleSet.MatchFormat.choices, required=False, help_text="A single game, or a match."
    )
    match_games = WholeNumberField(required=False, min_value=1, max_value=99)
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


# -- views -----------------------------------------------------------------------------


class RuleSetListCreateView(GamesAPIView):
    @extend_schema(
        operation_id="rule_sets_list",
        summary="House-rule sets (current versions unless all_versions=true)",
        parameters=[
            OpenApiParameter("variant", str, description="A variant slug."),
            OpenApiParameter("all_versions", bool, description="Include superseded versions (default, or empty: "
                             "false)."),
        ],
        responses={200: RuleSetSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        found = RuleSet.objects.select_related("created_by").order_by("name", "-version", "pk")
        # Empty is left out (docs/api.md), as an HTML form sends an empty field: false.
        all_versions = (request.query_params.get("all_versions") or "false").lower()
        if all_versions not in ("true", "false", "1", "0"):
            raise ServiceError("bad-filter", f"all_versions is true or false; not {all_versions!r}.")
        if all_versions in ("false", "0"):
            found = found.filter(is_current=True)
        if variant := request.query_params.get("variant"):
            found = found.filter(variant=variant)
        page = self.paginate_queryset(found)
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
        rule_set = rule_sets.create_rule_set(created_by=request.user, **body.validated_data)
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
        revised = rule_sets.revise_rule_set(rule_set=rule_set, created_by=request.user, **body.validated_data)
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
