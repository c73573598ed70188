"""The competitions API (docs/api.md, "Competitions"): tournaments, sections, entries,
rounds, standings, brackets, and a player's rounds.

Thin: reads from event_selectors / competition_selectors, writes through
competition_services and event_services; a refusal is a ServiceError, answered 400
with its code and reason by config.api.exception_handler (403 for one of who is asking,
config.api.FORBIDDEN_CODES: ``not-organiser``)."""

from __future__ import annotations

from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from django.db.models import Q
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import exceptions, mixins, permissions, renderers, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.metadata import SimpleMetadata
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api import TextField, refuse_unwritable
from accounts.errors import ErrorSerializer, ServiceError
from accounts.http import PlayerAPIRequest, signed_in_user
from accounts.models import User
from games.api.base import TrueFalseField  # JSON true or false, as the games' own writes take them
from games.models import RuleSet
from league import competitions as competition_services
from league import exports
from league.competitions import event_selectors, event_services, refusals
from league.competitions import selectors as competition_selectors
from league.competitions.formats import format_of
from league.competitions.formats.section_settings import ACCELERATION, MOST_SWISS_ROUNDS, SWISS_SYSTEM
from league.competitions.forms import LONGEST, SMALL, WHOLE, within_event_years  # the page form's bounds
from league.formats.stages import group_letter, snake_group
from league.models import Club, Entry, Season, Section, Tournament


class CSVRenderer(renderers.BaseRenderer):
    """Passes a prepared CSV text through (``?format=csv``)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data.encode("utf-8") if isinstance(data, str) else data


class ICalendarRenderer(renderers.BaseRenderer):
    """Passes prepared iCalendar bytes through (``?format=ics``)."""

    media_type = "text/calendar"
    format = "ics"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data


def _id_param(request: Request, name: str) -> int:
    """An id in the query string, checked: not a number (or past 64 bits) is a 400, not a 500."""
    raw = request.query_params.get(name, "")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 19 and 0 < int(raw) < 2**63):
        raise ServiceError("bad-filter", f"{name} is an id (a whole number); not {raw!r}.")
    return int(raw)


#: A section's status, as text: an enum here would collide with the tournament's in the schema.
SECTION_STATUS_HELP = "registration, running, finished or cancelled"


class SectionBriefSerializer(serializers.ModelSerializer):
    entries = serializers.IntegerField(source="entry_count", read_only=True)
    status = serializers.CharField(read_only=True, help_text=SECTION_STATUS_HELP)

    class Meta:
        model = Section
        fields = ["id", "name", "slug", "variant", "format", "status", "rated", "capacity", "entries", "starts_at",
                  "current_round", "total_rounds"]


class TournamentSerializer(serializers.ModelSerializer):
    club: serializers.SlugRelatedField[Club] = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    season: serializers.PrimaryKeyRelatedField[Season] = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True, help_text="null: no season.")
    sections = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = ["id", "club", "name", "slug", "description", "status", "rating_period", "starts_at",
                  "finished_at", "season", "sections"]

    @extend_schema_field(SectionBriefSerializer(many=True))
    def get_sections(self, tournament: Tournament):
        return SectionBriefSerializer(event_selectors.tournament_sections(tournament), many=True).data


class ClubSlugField(serializers.SlugRelatedField):
    """A club named by its slug. A NUL is refused as in any text field: PostgreSQL cannot
    even look it up (a 500 before, a fuzzer's find)."""

    def to_internal_value(self, data: Any) -> Club:
        if isinstance(data, str) and "\x00" in data:
            raise serializers.ValidationError(ProhibitNullCharactersValidator.message)
        return super().to_internal_value(data)


class TournamentCreateSerializer(serializers.Serializer):
    club = ClubSlugField(slug_field="slug", queryset=Club.objects.all())
    name = serializers.CharField(max_length=200)
    starts_at = serializers.DateTimeField(validators=[within_event_years])
    season = serializers.PrimaryKeyRelatedField(queryset=Season.objects.all(), required=False, allow_null=True)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    rating_period = serializers.CharField(required=False, default=Tournament.RatingPeriod.GAME)
    draft = TrueFalseField(required=False, default=False)


class TournamentUpdateSerializer(serializers.Serializer):
    """Any of these; event_services.edit_tournament judges the values as at creation."""

    name = serializers.CharField(max_length=200, required=False)
    starts_at = serializers.DateTimeField(validators=[within_event_years], required=False,
                                          help_text="A section whose round 1 is at the old start moves with it.")
    season = serializers.PrimaryKeyRelatedField(queryset=Season.objects.all(), required=False, allow_null=True)
    description = serializers.CharField(required=False, allow_blank=True)
    rating_period = serializers.CharField(required=False, help_text="game or tournament.")


class SectionSerializer(serializers.ModelSerializer):
    tournament: serializers.PrimaryKeyRelatedField[Tournament] = serializers.PrimaryKeyRelatedField(read_only=True)
    rule_set: serializers.PrimaryKeyRelatedField[RuleSet] = serializers.PrimaryKeyRelatedField(read_only=True)
    tiebreaks = serializers.SerializerMethodField(help_text="In the organiser's order (or the format's default).")
    entries = serializers.SerializerMethodField()
    status = serializers.CharField(read_only=True, help_text=SECTION_STATUS_HELP)
    swiss_system = serializers.ChoiceField(
        choices=Section.SwissSystem.choices, read_only=True, allow_null=True,
        help_text="A Swiss's pairing system: dutch (FIDE Dutch) or fast (fast score groups). null: not a Swiss.")
    acceleration = serializers.ChoiceField(
        choices=Section.Acceleration.choices, read_only=True,
        help_text="Accelerated rounds: none, or baku (Baku acceleration, FIDE C.04.5.1; a FIDE Dutch Swiss only). "
                  "Virtual points only pair; no score shows them.")

    class Meta:
        model = Section
        fields = [
            "id", "tournament", "name", "slug", "variant", "rule_set", "format", "status", "rated", "capacity",
            "observer_policy", "entries",
            "placements", "consolation", "grand_final", "cycles", "swiss_system", "acceleration", "rounds",
            "bye_points",
            "arena_duration", "streak_bonus", "tiebreaks", "late_entry_rounds",
            "starts_at", "round_interval", "round_starts", "registration_opens_at", "registration_closes_at",
            "check_in_opens_at", "check_in_closes_at",
            "age_under", "age_over", "age_year", "age_cutoff", "min_age", "max_age", "rating_min", "rating_max",
            "members_only",
            "groups", "previous_stage", "advance",
            "current_round", "total_rounds", "started_at", "finished_at", "paused_at",
        ]

    def get_tiebreaks(self, section: Section) -> list[str]:
        return format_of(section).tiebreak_order(section)

    def get_entries(self, section: Section) -> int:
        return competition_selectors.active_entries(section).count()


class ServiceJudgedChoiceField(serializers.ChoiceField):
    """A choice, documented as the enum of its values; any other text goes on to the
    service, which refuses it with its own code and words (as it would from the form)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) and data not in self.choice_strings_to_values:
            return data
        return super().to_internal_value(data)


class SwissPairingSerializer(serializers.Serializer):
    """Either or both; set_swiss_pairing judges the values (before round 1, organisers only)."""

    swiss_system = ServiceJudgedChoiceField(choices=SWISS_SYSTEM.choices, required=False,
                                            help_text="dutch (FIDE Dutch) or fast (fast score groups).")
    acceleration = ServiceJudgedChoiceField(choices=ACCELERATION.choices, required=False,
                                            help_text="none or baku (FIDE Dutch only).")


class SectionCreateSerializer(serializers.Serializer):
    """Types only (in the columns' ranges); competition_services.create_section judges the values."""

    tournament = serializers.PrimaryKeyRelatedField(queryset=Tournament.objects.all())
    name = serializers.CharField(max_length=120)

    def validate_tournament(self, tournament: Tournament) -> Tournament:
        """A draft is hidden from all but its club's organisers: to anyone else its id is
        answered as an id that does not exist (not "not-organiser", which names the club)."""
        if refusals.view_refusal(tournament, self.context["request"].user) is not None:
            field = self.fields["tournament"]
            raise serializers.ValidationError(field.error_messages["does_not_exist"].format(pk_value=tournament.pk),
                                              code="does_not_exist")
        return tournament

    rule_set = serializers.PrimaryKeyRelatedField(queryset=RuleSet.objects.filter(is_current=True, for_lessons=False), required=False,
                                                  allow_null=True, help_text="A house-rule set (current version).")
    variant = serializers.CharField(required=False, help_text="Without a rule set: this variant's standard rules.")
    format = serializers.ChoiceField(choices=Section.Format.choices)
    starts_at = serializers.DateTimeField(validators=[within_event_years], required=False)
    rated = TrueFalseField(required=False, default=True)
    capacity = serializers.IntegerField(required=False, allow_null=True, **WHOLE)
    observer_policy = serializers.CharField(required=False)
    placements = serializers.CharField(required=False)
    consolation = TrueFalseField(required=False)
    third_place = TrueFalseField(required=False, write_only=True,
                                 help_text='The old name: true is placements "third", false "none".')
    grand_final = serializers.CharField(required=False)
    cycles = serializers.IntegerField(required=False, **SMALL)
    swiss_system = ServiceJudgedChoiceField(
        choices=SWISS_SYSTEM.choices, required=False, allow_null=True,
        help_text="Swiss: dutch (FIDE Dutch, the default) or fast (fast score groups, for very large fields). "
                  "Another format: none (absent or null).")
    acceleration = ServiceJudgedChoiceField(
        choices=ACCELERATION.choices, required=False,
        help_text="A FIDE Dutch Swiss: none (the default) or baku (Baku acceleration, FIDE C.04.5.1: the first "
                  "2 x ceil(N/4) players get virtual points for pairing in the first half of the rounds). Another "
                  "format, or the fast system: none (or absent).")
    rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MOST_SWISS_ROUNDS)
    bye_points = serializers.DecimalField(max_digits=3, decimal_places=1, required=False)
    arena_duration = serializers.DurationField(required=False, allow_null=True, max_value=LONGEST)
    streak_bonus = TrueFalseField(required=False)
    tiebreaks = serializers.ListField(child=serializers.CharField(), required=False)
    late_entry_rounds = serializers.IntegerField(required=False, **SMALL)
    round_interval = serializers.DurationField(required=False, allow_null=True, max_value=LONGEST)
    round_starts = serializers.ListField(child=serializers.CharField(), required=False)
    registration_opens_at = serializers.DateTimeField(validators=[within_event_years], required=False, allow_null=True)
    registration_closes_at = serializers.DateTimeField(validators=[within_event_years], required=False, allow_null=True)
    check_in_opens_at = serializers.DateTimeField(validators=[within_event_years], required=False, allow_null=True)
    check_in_closes_at = serializers.DateTimeField(validators=[within_event_years], required=False, allow_null=True)
    age_under = serializers.IntegerField(required=False, allow_null=True, **SMALL)
    age_over = serializers.IntegerField(required=False, allow_null=True, **SMALL)
    age_year = serializers.IntegerField(required=False, allow_null=True, **SMALL)
    age_cutoff = serializers.DateField(required=False, allow_null=True)
    min_age = serializers.IntegerField(required=False, allow_null=True, **SMALL)
    max_age = serializers.IntegerField(required=False, allow_null=True, **SMALL)
    rating_min = serializers.IntegerField(required=False, allow_null=True, **WHOLE)
    rating_max = serializers.IntegerField(required=False, allow_null=True, **WHOLE)
    members_only = TrueFalseField(required=False)
    groups = serializers.IntegerField(required=False, min_value=1, max_value=SMALL["max_value"])
    previous_stage = serializers.PrimaryKeyRelatedField(
        queryset=Section.objects.all(), required=False, allow_null=True,
        help_text="A later stage: the section (same tournament) whose top players go through to it.")
    advance = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=SMALL["max_value"],
                                       help_text="How many go through (from groups: per group).")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The old ``third_place`` becomes ``placements``; both given must agree."""
        if "third_place" in attrs:
            placements = Section.Placements.THIRD if attrs.pop("third_place") else Section.Placements.NONE
            if attrs.setdefault("placements", placements) != placements:
                raise serializers.ValidationError(
                    {"third_place": 'It is the old name of placements "third": give one or the other.'})
        return attrs


class SectionUpdateSerializer(SectionCreateSerializer):
    """Any setting of creation but the tournament; event_services.edit_section judges the
    values as at creation, and refuses a change that would leave entered players out."""

    tournament = None  # type: ignore[assignment]  # a section stays in its tournament
    name = serializers.CharField(max_length=120, required=False)
    format = serializers.ChoiceField(choices=Section.Format.choices, required=False,
                                     help_text="Another format's settings go back to their defaults unless given.")


class EntrySerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")
    name = serializers.CharField(source="user.name")

    class Meta:
        model = Entry
        fields = ["username", "name", "status", "seed", "rating", "late", "joined_round", "registered_at",
                  "checked_in_at", "withdrawn_at", "withdrawn_reason", "eliminated", "paused_at", "paused_reason"]
        extra_kwargs = {
            "paused_at": {"help_text": "An arena: paired with nobody since then, until the player is back "
                                       "(POST .../back/); null: paired. Kept once the arena is over."},
            "paused_reason": {"help_text": "Why, as the player's own entry box says it (\"You paused.\", \"You lost "
                                           "a game without a move (round 3, board 2).\"); empty: not paused."},
        }


#: An organiser's entry, by username: a member of the club (event_services.enter_player).
ORGANISER_USERNAME_HELP = ("Organisers: the member of the club to enter or withdraw (the usual rules apply). "
                           "Absent: yourself.")


class EnterSerializer(serializers.Serializer):
    username = TextField(required=False, max_length=150, help_text=ORGANISER_USERNAME_HELP)


class WithdrawSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200)
    username = TextField(required=False, max_length=150, help_text=ORGANISER_USERNAME_HELP)


class ReasonSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="score-group, float, first-move, first-move-relaxed, rematch, bye, arena, "
                                           "arena-first-move, seed-path or arbiter (docs/formats.md).")
    text = serializers.CharField(help_text="The reason in words, with the players' names.")


class PairingSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    first = serializers.CharField(source="first.username", allow_null=True, help_text="Moves first.")
    second = serializers.CharField(source="second.username", allow_null=True, help_text="null: a bye.")
    status = serializers.CharField(source="pairing.status")
    result = serializers.CharField(source="pairing.result")
    first_points = serializers.FloatField(source="pairing.first_points", allow_null=True)
    second_points = serializers.FloatField(source="pairing.second_points", allow_null=True)
    game = serializers.IntegerField(source="game_id", allow_null=True, help_text="Watch at /play/<id>/.")
    moves_first = serializers.CharField(help_text="Who really moves first (the rule set's decider may swap).")
    clocks = serializers.DictField(source="clock_of", child=serializers.CharField(),
                                   help_text="username -> clock left (m:ss), while in play with a game clock.")
    bracket = serializers.CharField(source="pairing.bracket")
    bracket_round = serializers.IntegerField(source="pairing.bracket_round", allow_null=True)
    flags = serializers.ListField(source="pairing.flags", child=serializers.CharField())
    reasons = ReasonSerializer(many=True, help_text="Why this pairing: the pairing's own decisions, in words.")


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField(source="round.number")
    status = serializers.CharField(source="round.status")
    starts_at = serializers.DateTimeField(source="round.starts_at")
    started_at = serializers.DateTimeField(source="round.started_at", allow_null=True)
    finished_at = serializers.DateTimeField(source="round.finished_at", allow_null=True)
    set_by_arbiter = serializers.SerializerMethodField(help_text="The pairings are the arbiter's, from a TRF file.")
    pairings = PairingSerializer(source="boards", many=True)

    def get_set_by_arbiter(self, view) -> bool:
        return view.round.pairing_override is not None


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField(source="person.username")
    name = serializers.CharField(source="person.name")
    seed = serializers.IntegerField(source="person.seed", allow_null=True)
    points = serializers.FloatField()
    tiebreaks = serializers.SerializerMethodField(help_text="Tie-break name -> value, in the organiser's order.")
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    rating = serializers.FloatField(allow_null=True, help_text="Frozen at registration.")
    final = serializers.BooleanField()
    paused_since = serializers.DateTimeField(source="paused.since", allow_null=True, default=None, help_text=(
        "A running arena: the player is paused (paired with nobody until they are back) since then; null: not."))
    standing = serializers.CharField(source="status", help_text=(
        'A knockout: how far the player got, in words ("Still in: the semi-finals", "Eliminated in the '
        'quarter-finals"); empty for a format ranked by points.'))
    place = serializers.IntegerField(allow_null=True, help_text=(
        "The place the table shows: the rank, or in a knockout the place once decided (null: not yet)."))
    group = serializers.SerializerMethodField(help_text=(
        'A round robin in groups: the row\'s group ("A", "B", ...), within which rank counts, as the page\'s '
        'tables; "" otherwise.'))

    def get_tiebreaks(self, row) -> dict[str, float]:
        return dict(zip(self.context["tiebreak_names"], row.tiebreaks, strict=True))

    def get_group(self, row) -> str:
        groups = self.context.get("groups", 1)
        # The page's group tables (event_selectors.group_tables) put a seed by the same snake.
        if groups <= 1 or not row.person.seed:
            return ""
        return group_letter(snake_group(row.person.seed, groups))


class PlayerRoundSerializer(serializers.Serializer):
    tournament = serializers.CharField(source="section.tournament.name")
    section = serializers.IntegerField(source="section.pk")
    section_name = serializers.CharField(source="section.name")
    round = serializers.IntegerField(source="round.number")
    status = serializers.CharField(source="round.status")
    starts_at = serializers.DateTimeField(source="round.starts_at")
    board = serializers.IntegerField(allow_null=True)
    opponent = serializers.CharField(help_text='"" before the pairing, "bye" for a bye.')


#: A refusal from the services (config.api.exception_handler): 400 with its code.
SERVICE_REFUSAL = OpenApiResponse(ErrorSerializer, description='Refused: {"code", "message"} with the reason in words.')
NOT_ORGANISER = OpenApiResponse(ErrorSerializer, description="not-organiser: only the club's owners and organisers.")
STARTED_OR_IN_USE = OpenApiResponse(
    ErrorSerializer, description="The event's state forbids it: tournament-started, section-started, has-entries, "
                                 "has-next-stage, would-exclude-entrants (the reason in words).")
ARENA_AWAY_REFUSAL = OpenApiResponse(
    ErrorSerializer, description="Refused, as the section page refuses it: not-entered (you have no entry here, or "
                                 "withdrew), not-arena (only an arena pauses players), not-running (the arena is "
                                 "not under way), arena-over (its time is up), paused (pause: you are paused "
                                 "already), not-paused (back: you are not paused).")
#: Refusals of an edit or a delete that are the event's state, not the request's values: 409.
CONFLICTS = frozenset({"tournament-started", "section-started", "has-entries", "has-next-stage",
                       "would-exclude-entrants"})
EDIT_RESPONSES = {400: SERVICE_REFUSAL, 401: SERVICE_REFUSAL, 403: NOT_ORGANISER, 404: SERVICE_REFUSAL,
                  409: STARTED_OR_IN_USE}


def _organisers_only(request: Request, club: Club) -> None:
    """403 ``not-organiser`` for a signed-in player who does not run ``club``'s events,
    before the body is judged (the status is config.api's, as for the services' own)."""
    refusal = refusals.organiser_refusal(request.user, club)
    if refusal is not None:
        raise ServiceError(*refusal)


def _as_conflict(call) -> Response | None:
    """Run ``call``: a refusal for the event's state (CONFLICTS) is 409, any other 400."""
    try:
        call()
    except ServiceError as err:
        if err.code in CONFLICTS:
            return Response(err.as_dict(), status=status.HTTP_409_CONFLICT)
        raise
    return None


#: Why a tournament's other fields cannot be changed by PATCH (accounts.api.refuse_unwritable).
TOURNAMENT_FIXED = {
    "club": "a tournament stays in its club.",
    "status": "it changes by the tournament's actions: open-registration, close-registration, start.",
    "draft": "a draft is published by POST /api/v1/tournaments/{id}/open-registration/.",
    "slug": "a tournament's address stays when it is renamed.",
    "sections": "sections are changed at /api/v1/sections/{id}/.",
}
#: The same for a section's.
SECTION_FIXED = {
    "tournament": "a section stays in its tournament.",
    "status": "it follows the section's rounds (POST /api/v1/sections/{id}/start/ starts it).",
    "slug": "a section's address stays when it is renamed.",
    "entries": "players enter at /api/v1/sections/{id}/entries/.",
    "paused_at": "organisers pause and resume a section in the moderation console.",
}
#: Any other: the platform keeps it.
SET_BY_THE_PLATFORM = "the platform sets it as the event runs."


def _player_named(section: Section, username: str) -> Any:
    """The player an organiser names; unknown is refused as a non-member is (no name confirmed)."""
    player = User.objects.filter(username__iexact=username).first()
    if player is None:
        raise ServiceError("not-member", f"{username} is not a member of {section.tournament.club.name}: an "
                                         "organiser enters the club's members; others register themselves.")
    return player
CLUB_FILTER = OpenApiParameter("club", str, description="Only this club's tournaments (its slug).")
STATUS_FILTER = OpenApiParameter("status", str, description="draft, registration, running, finished, cancelled.")


class BodyMetadata(SimpleMetadata):
    """``OPTIONS``: the body each write takes, as the schema has it: DRF describes the
    view's serializer, which each action with a body names (``serializer_class``: it was
    the section's or tournament's, so OPTIONS on /entries/ described a section: an
    outside probe); an action without a body names none, and has nothing described."""

    def determine_actions(self, request: Request, view: Any) -> dict[str, Any]:
        # An OPTIONS request has no action of its own: describe the POST's ("create").
        view.action = getattr(view, "action_map", {}).get("post", view.action)
        if view.get_serializer_class() is None:
            return {}
        return super().determine_actions(request, view)


class WriteBodies:
    """A viewset's serializer for a request: its create serializer for ``create`` (the
    answer's serializer otherwise); None for an action without a body (BodyMetadata)."""

    create_serializer_class: type[serializers.Serializer]

    def get_serializer_class(self) -> Any:
        if getattr(self, "action", None) == "create":
            return self.create_serializer_class
        return self.serializer_class  # type: ignore[attr-defined]  # the viewset's


class TournamentViewSet(WriteBodies, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Tournaments and their sections. Drafts are listed only to their club's organisers.
    Creating one and the actions below are for the club's owners and organisers."""

    serializer_class = TournamentSerializer
    create_serializer_class = TournamentCreateSerializer
    metadata_class = BodyMetadata  # type: ignore[assignment]  # the 3.16 stubs want an instance; DRF takes a class

    def get_queryset(self):
        rows = Tournament.objects.select_related("club", "season").order_by("-starts_at", "name")
        params = self.request.query_params
        if params.get("club"):
            rows = rows.filter(club__slug=params["club"])
        if params.get("status"):
            rows = rows.filter(status=params["status"])
        clubs = event_selectors.organised_clubs(self.request.user)
        return rows.filter(~Q(status=Tournament.Status.DRAFT) | Q(club__in=clubs))

    @extend_schema(parameters=[CLUB_FILTER, STATUS_FILTER])
    def list(self, request: Request, *args, **kwargs) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(request=TournamentCreateSerializer,
                   responses={201: TournamentSerializer, 400: SERVICE_REFUSAL, 403: NOT_ORGANISER})
    def create(self, request: Request, *args, **kwargs) -> Response:
        incoming = TournamentCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        tournament = event_services.create_tournament(by=signed_in_user(request), **incoming.validated_data)
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    def _act(self, service, request: PlayerAPIRequest) -> Response:
        tournament = self.get_object()
        service(by=request.user, tournament=tournament)
        tournament.refresh_from_db()
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(request=TournamentUpdateSerializer, responses={200: TournamentSerializer, **EDIT_RESPONSES})
    def partial_update(self, request: PlayerAPIRequest, *args, **kwargs) -> Response:
        """Organisers, while none of its sections has started: change any of its details
        (the checks of creation). A section whose round 1 was at the old start moves with it.
        Any other field is refused, nothing changed: 400 ``read-only-field`` or ``unknown-field``."""
        tournament = self.get_object()
        _organisers_only(request, tournament.club)
        body = TournamentUpdateSerializer(data=request.data, partial=True)
        refuse_unwritable(request.data, body, shown=[*TournamentSerializer().fields, "draft"],
                          reasons=TOURNAMENT_FIXED, otherwise=SET_BY_THE_PLATFORM)
        body.is_valid(raise_exception=True)
        refused = _as_conflict(lambda: event_services.edit_tournament(by=request.user, tournament=tournament,
                                                                       **body.validated_data))
        if refused is not None:
            return refused
        tournament.refresh_from_db()
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(request=None, responses={204: None, **EDIT_RESPONSES})
    def destroy(self, request: PlayerAPIRequest, *args, **kwargs) -> Response:
        """Organisers: delete a tournament none of whose sections has started, with nobody
        entered (409 ``has-entries``: withdraw them first), and its sections."""
        tournament = self.get_object()
        _organisers_only(request, tournament.club)
        refused = _as_conflict(lambda: event_services.delete_tournament(by=request.user, tournament=tournament))
        return refused or Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses={200: TournamentSerializer, 400: SERVICE_REFUSAL, 403: NOT_ORGANISER})
    @action(detail=True, methods=["post"], url_path="open-registration", serializer_class=None)
    def open_registration(self, request: PlayerAPIRequest, pk=None) -> Response:
        """Publish a draft (each section's registration follows its own window; none: open
        now, until round 1), or open a published tournament's registration again now."""
        return self._act(event_services.open_registration, request)

    @extend_schema(request=None, responses={200: TournamentSerializer, 400: SERVICE_REFUSAL, 403: NOT_ORGANISER})
    @action(detail=True, methods=["post"], url_path="close-registration", serializer_class=None)
    def close_registration(self, request: PlayerAPIRequest, pk=None) -> Response:
        return self._act(event_services.close_registration, request)

    @extend_schema(request=None, responses={200: TournamentSerializer, 400: SERVICE_REFUSAL, 403: NOT_ORGANISER})
    @action(detail=True, methods=["post"], serializer_class=None)
    def start(self, request: PlayerAPIRequest, pk=None) -> Response:
        """Start every section still open for registration now: round 1 is paired."""
        return self._act(event_services.start_tournament, request)


class SectionViewSet(WriteBodies, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """A tournament's sections: entries, rounds and pairings, standings, the bracket or
    crosstable. Registering, checking in and withdrawing act for the signed-in player."""

    serializer_class = SectionSerializer
    create_serializer_class = SectionCreateSerializer
    metadata_class = BodyMetadata  # type: ignore[assignment]  # the 3.16 stubs want an instance; DRF takes a class

    def get_queryset(self):
        clubs = event_selectors.organised_clubs(self.request.user)
        rows = Section.objects.select_related("tournament__club", "rule_set").order_by("starts_at", "pk")
        if self.request.query_params.get("tournament"):
            rows = rows.filter(tournament_id=_id_param(self.request, "tournament"))
        return rows.filter(~Q(tournament__status=Tournament.Status.DRAFT) | Q(tournament__club__in=clubs))

    @extend_schema(parameters=[OpenApiParameter("tournament", {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
                                                description="Only this tournament's sections.")])
    def list(self, request: Request, *args, **kwargs) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(request=SectionCreateSerializer,
                   responses={201: SectionSerializer, 400: SERVICE_REFUSAL, 403: NOT_ORGANISER})
    def create(self, request: Request, *args, **kwargs) -> Response:
        incoming = SectionCreateSerializer(data=request.data, context={"request": request})
        incoming.is_valid(raise_exception=True)
        section = event_services.create_section(by=signed_in_user(request), **incoming.validated_data)
        return Response(SectionSerializer(section).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=SectionUpdateSerializer, responses={200: SectionSerializer, **EDIT_RESPONSES})
    def partial_update(self, request: PlayerAPIRequest, *args, **kwargs) -> Response:
        """Organisers, before round 1: change any setting of creation (the same checks). A
        change that would leave entered players out is 409 ``would-exclude-entrants``. Any
        other field is refused, nothing changed: 400 ``read-only-field`` or ``unknown-field``."""
        section = self.get_object()
        _organisers_only(request, section.tournament.club)
        body = SectionUpdateSerializer(data=request.data, partial=True, context={"request": request})
        refuse_unwritable(request.data, body, shown=SectionSerializer().fields, reasons=SECTION_FIXED,
                          otherwise=SET_BY_THE_PLATFORM)
        body.is_valid(raise_exception=True)
        refused = _as_conflict(lambda: event_services.edit_section(by=request.user, section=section,
                                                                   **body.validated_data))
        if refused is not None:
            return refused
        section.refresh_from_db()
        return Response(SectionSerializer(section).data)

    @extend_schema(request=None, responses={204: None, **EDIT_RESPONSES})
    def destroy(self, request: PlayerAPIRequest, *args, **kwargs) -> Response:
        """Organisers: delete a section before its round 1, with nobody entered (409
        ``has-entries``: withdraw them first) and no stage after it (409 ``has-next-stage``)."""
        section = self.get_object()
        _organisers_only(request, section.tournament.club)
        refused = _as_conflict(lambda: event_services.delete_section(by=request.user, section=section))
        return refused or Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(methods=["get"], responses={200: EntrySerializer(many=True)})
    @extend_schema(methods=["post"], request=EnterSerializer,
                   responses={201: EntrySerializer, 400: SERVICE_REFUSAL, 403: NOT_ORGANISER})
    @action(detail=True, methods=["get", "post"], permission_classes=[permissions.IsAuthenticatedOrReadOnly],
            pagination_class=None, serializer_class=EnterSerializer)
    def entries(self, request: Request, pk=None) -> Response:
        """GET: the entries. POST: register the signed-in player, or (organisers, with
        ``username``) enter a member of the club; refusals, eligibility included, come
        back as 400 with the reason in words."""
        section = self.get_object()
        if request.method == "POST":
            body = EnterSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            user = signed_in_user(request)
            username = body.validated_data.get("username", "")
            if username and username.lower() != user.username.lower():
                _organisers_only(request, section.tournament.club)
                entry = event_services.enter_player(by=user, section=section, user=_player_named(section, username))
            else:
                entry = competition_services.register(section=section, user=user)
            return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)
        return Response(EntrySerializer(event_selectors.entries(section), many=True).data)

    @extend_schema(request=None, responses={200: EntrySerializer, 400: SERVICE_REFUSAL})
    @action(detail=True, methods=["post"], url_path="check-in", permission_classes=[permissions.IsAuthenticated],
            serializer_class=None)
    def check_in(self, request: PlayerAPIRequest, pk=None) -> Response:
        entry = competition_services.check_in(section=self.get_object(), user=request.user)
        return Response(EntrySerializer(entry).data)

    @extend_schema(request=WithdrawSerializer, responses={200: EntrySerializer, 400: SERVICE_REFUSAL,
                                                          403: NOT_ORGANISER})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated],
            serializer_class=WithdrawSerializer)
    def withdraw(self, request: PlayerAPIRequest, pk=None) -> Response:
        """Withdraw the signed-in player, or (organisers, with ``username``) an entrant;
        optional ``reason``. Mid-event the game in play is lost by forfeit."""
        body = WithdrawSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        section = self.get_object()
        reason = body.validated_data.get("reason", "")
        username = body.validated_data.get("username", "")
        if username and username.lower() != request.user.username.lower():
            _organisers_only(request, section.tournament.club)
            player = User.objects.filter(username__iexact=username).first()
            if player is None:
                raise ServiceError("not-entered", f"{username} is not entered in this section.")
            entry = event_services.withdraw_player(by=request.user, section=section, user=player, reason=reason)
        else:
            entry = competition_services.withdraw(section=section, user=request.user, reason=reason)
        return Response(EntrySerializer(entry).data)

    @extend_schema(request=None, responses={200: EntrySerializer, 400: ARENA_AWAY_REFUSAL})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated],
            serializer_class=None)
    def pause(self, request: PlayerAPIRequest, pk=None) -> Response:
        """An arena: pause the signed-in player (a break): paired with nobody until they
        are back; a game in play goes on."""
        entry = competition_services.pause_player(section=self.get_object(), user=request.user)
        return Response(EntrySerializer(entry).data)

    @extend_schema(request=None, responses={200: EntrySerializer, 400: ARENA_AWAY_REFUSAL})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated],
            serializer_class=None)
    def back(self, request: PlayerAPIRequest, pk=None) -> Response:
        """An arena: the signed-in player, paused (a game lost without a move, or a
        break), is back ("I'm back"): paired with the next free player."""
        entry = competition_services.player_back(section=self.get_object(), user=request.user)
        return Response(EntrySerializer(entry).data)

    @extend_schema(request=None, responses={200: SectionSerializer, 400: SERVICE_REFUSAL, 403: NOT_ORGANISER})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated],
            serializer_class=None)
    def start(self, request: PlayerAPIRequest, pk=None) -> Response:
        """Organisers: start this section now (round 1, or the arena)."""
        section = self.get_object()
        event_services.start_section(by=request.user, section=section)
        section.refresh_from_db()
        return Response(SectionSerializer(section).data)

    @extend_schema(request=SwissPairingSerializer,
                   responses={200: SectionSerializer, 400: SERVICE_REFUSAL, 403: NOT_ORGANISER})
    @action(detail=True, methods=["post"], url_path="swiss-pairing", permission_classes=[permissions.IsAuthenticated],
            serializer_class=SwissPairingSerializer)
    def swiss_pairing(self, request: PlayerAPIRequest, pk=None) -> Response:
        """Organisers, before round 1: a Swiss section's pairing system and accelerated rounds."""
        body = SwissPairingSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        section = competition_services.set_swiss_pairing(by=request.user, section_id=self.get_object().pk,
                                                         **body.validated_data)
        return Response(SectionSerializer(section).data)

    @extend_schema(responses={200: RoundSerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def rounds(self, request: Request, pk=None) -> Response:
        """Rounds, latest first, with their pairings, results, games and clocks."""
        return Response(RoundSerializer(event_selectors.rounds(self.get_object()), many=True).data)

    @extend_schema(
        parameters=[OpenApiParameter("format", str, enum=["json", "csv"], description="csv: a CSV file.")],
        responses={200: StandingSerializer(many=True), (200, "text/csv"): OpenApiTypes.STR},
    )
    @action(detail=True, methods=["get"], renderer_classes=[renderers.JSONRenderer, CSVRenderer], pagination_class=None)
    def standings(self, request: Request, pk=None, format=None) -> Response:
        """The standings with the organiser's tie-breaks; ``?format=csv`` for a CSV file."""
        section = self.get_object()
        if request.accepted_renderer.format == "csv":
            return Response(exports.standings_csv(section), headers={
                "Content-Disposition": f'attachment; filename="{exports.standings_filename(section)}"'})
        names = [column.name for column in event_selectors.tiebreak_columns(section)]
        rows = event_selectors.standings(section)
        return Response(StandingSerializer(rows, many=True, context={"tiebreak_names": names,
                                                                      "groups": section.groups}).data)

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 400: SERVICE_REFUSAL})
    @action(detail=True, methods=["get"])
    def bracket(self, request: Request, pk=None) -> Response:
        """Elimination: the bracket as columns (rounds) of matches, byes and winners marked."""
        section = self.get_object()
        if not format_of(section).has_bracket:
            raise ServiceError("no-bracket", "Only elimination sections have a bracket.")
        return Response(event_selectors.bracket_json(section))

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 400: SERVICE_REFUSAL})
    @action(detail=True, methods=["get"])
    def crosstable(self, request: Request, pk=None) -> Response:
        """Round robin: one row per player in seed order, one cell per opponent."""
        section = self.get_object()
        if not format_of(section).has_crosstable:
            raise ServiceError("no-crosstable", "Only round robin sections have a crosstable.")
        return Response(event_selectors.crosstable_json(section))


class PlayerRoundsView(APIView):
    """Your rounds in every section you entered; ``?format=ics`` for iCalendar. Only the
    player themself: where and when someone plays is theirs to share (calendar apps use
    the private link of /clubs/calendar/)."""

    renderer_classes = [renderers.JSONRenderer, ICalendarRenderer]
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("format", str, enum=["json", "ics"], description="ics: an iCalendar file.")],
        responses={200: PlayerRoundSerializer(many=True), (200, "text/calendar"): OpenApiTypes.STR,
                   401: SERVICE_REFUSAL, 403: SERVICE_REFUSAL},
    )
    def get(self, request: PlayerAPIRequest, username: str, format=None) -> Response:
        if username != request.user.username:
            raise exceptions.PermissionDenied("You can see only your own rounds.", code="not-your-rounds")
        person = request.user
        if request.accepted_renderer.format == "ics":
            return Response(exports.player_calendar(person, site=request.build_absolute_uri("/")[:-1]), headers={
                "Content-Disposition": f'attachment; filename="{exports.calendar_filename(person)}"'})
        return Response(PlayerRoundSerializer(event_selectors.player_rounds(person), many=True).data)
