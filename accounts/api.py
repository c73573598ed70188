"""Accounts through the REST API: sign-up, token log-in and log-out, the caller's profile,
notices, and finding players."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from django.contrib.auth import authenticate
from django_countries.serializer_fields import CountryField
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.utils import html
from rest_framework.views import APIView

from . import age, notices, players, presence, services
from .backends import AwaitingConsent, ask_about_consent
from .errors import ErrorSerializer, ServiceError, refuse_fields
from .limits import LiveRates, LockedOut, ScopedThrottle, lockout_wait
from .models import Notice, Profile


class CountryCodeField(CountryField):
    """A country as text, its code or name. django-countries' own field takes ``{}``,
    ``[]`` or ``0`` for "no country" and stores a blank one."""

    def to_internal_value(self, data):
        if not isinstance(data, str) or not data.strip():
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)


class BirthDateField(serializers.DateField):
    """A date of birth as ``YYYY-MM-DD`` text and in no other spelling
    (accounts.age.parse_plain_date): DRF's own DateField also took ``20130101``, ISO week
    dates (``2000-W01-1``), ``2013-1-1`` and digits other than ASCII ones."""

    default_error_messages = {"no-such-day": "There is no such day in the calendar."}

    def to_internal_value(self, value: Any) -> date:
        parsed = age.parse_plain_date(value) if isinstance(value, str) else None
        if parsed is None:
            self.fail("no-such-day" if isinstance(value, str) and age.PLAIN_DATE.fullmatch(value) else "invalid",
                      format="YYYY-MM-DD")
        return parsed


class TextField(serializers.CharField):
    """Text, as the socket takes it: DRF's own also took a number and made it text (a
    display name of 0 was "0": schema fuzzer). An optional one's blank in a form's body
    is a blank given, refused as JSON's "" is (unless blank is allowed): DRF reads it as
    left out, so a blank username withdrew the caller from a section, and a blank
    display name was ignored with a 200 (attacker probe)."""

    def get_value(self, dictionary: Any) -> Any:
        if html.is_html_input(dictionary) and dictionary.get(self.field_name) == "":
            return ""
        return super().get_value(dictionary)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)  # type: ignore[no-any-return]


class SignUpSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, validators=[services.validate_username])
    password = serializers.CharField(write_only=True, trim_whitespace=False)  # spaces are part of it
    email = serializers.EmailField(required=False, allow_blank=True, default="")
    display_name = serializers.CharField(required=False, allow_blank=True, default="", max_length=60)
    date_of_birth = BirthDateField(help_text="YYYY-MM-DD, and no other spelling.")
    country = CountryCodeField()
    guardian_name = serializers.CharField(required=False, allow_blank=True, default="")
    guardian_email = serializers.EmailField(required=False, allow_blank=True, default="")


class ProfileSerializer(serializers.Serializer):
    username = serializers.CharField(source="user.username", read_only=True)
    display_name = TextField(max_length=60, required=False)
    # None for an account made without one (a superuser's): the schema says so.
    date_of_birth = serializers.DateField(read_only=True, allow_null=True)
    # Blank only on the way out: a profile made without one (a superuser's) has none.
    country = CountryCodeField(required=False, allow_blank=True)
    can_play = serializers.SerializerMethodField()

    def get_can_play(self, profile) -> bool:
        return services.play_eligibility(user=profile.user).allowed


# PATCH /me/'s body for the schema; the view checks it with ProfileSerializer, whose blank
# country is the answer's alone (a fuzzer sent "" as valid: the schema took the answer's).
class ProfileUpdateSerializer(serializers.Serializer):
    """What a player changes of their profile: a country is given or left out, never blank."""

    display_name = TextField(max_length=60, required=False)
    country = CountryCodeField(required=False)


class LoginSerializer(serializers.Serializer):
    # No username is longer; a longer one would not fit django-axes' record of the failure.
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, trim_whitespace=False)  # spaces are part of it


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


def error_response(err: ServiceError, status_code: int = status.HTTP_400_BAD_REQUEST) -> Response:
    return Response(err.as_dict(), status=status_code)


# -- a PATCH names what it cannot change, instead of ignoring it -----------------------------


def refuse_unwritable(data: Any, writable: serializers.Serializer, *, shown: Iterable[str],
                      reasons: Mapping[str, str], otherwise: str) -> None:
    """A PATCH's check of its body (accounts.errors.refuse_fields, the one check every
    write's body has): 400 ``read-only-field`` for a field of the answer (``shown``) that
    cannot be changed here, with its reason (``reasons``, else ``otherwise``); 400
    ``unknown-field`` for one the resource does not have, saying which can be changed."""
    refuse_fields(data, takes=[name for name, field in writable.fields.items() if not field.read_only],
                  shown=shown, reasons=reasons, otherwise=otherwise)


#: Why the profile's other fields cannot be changed through PATCH /me/ (docs/accounts.md).
PROFILE_FIXED = {
    "username": "a username is fixed at sign-up.",
    "date_of_birth": "the date of birth is fixed after sign-up (the age rules stand on it), "
                     "and staff correct a wrong one in the admin.",
    "can_play": "it follows from the account (its age and any guardian's consent).",
}


class SignUpView(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_scope = "signup"  # per address (accounts/limits.py)

    def get_throttles(self) -> list[Any]:
        self.throttles_asked = super().get_throttles()  # kept, to take back a refusal's hit
        return self.throttles_asked

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, ValidationError):
            self._not_counted()
        return super().handle_exception(exc)

    def _not_counted(self) -> None:
        """A refused sign-up is not counted in the sign-up limit, as on the page: the
        sign-ups made are (a walkthrough's club room was shut out for an hour by its typos).
        The signed-out writes' limit still counts it."""
        for throttle in getattr(self, "throttles_asked", []):
            if isinstance(throttle, ScopedThrottle):
                throttle.refund()

    @extend_schema(request=SignUpSerializer, responses={201: ProfileSerializer, 400: ErrorSerializer})
    def post(self, request):
        serializer = SignUpSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            registration = services.register_player(
                **data,
                # The same age screen as the page: a refused answer stays refused when re-sent.
                screen=services.age_screen_for(request, username=data["username"], email=data["email"]),
                consent_url_base=request.build_absolute_uri("/"),
            )
        except ServiceError as err:
            self._not_counted()
            return error_response(err)
        body = ProfileSerializer(registration.user.profile).data
        body["needs_guardian_consent"] = registration.needs_guardian_consent
        return Response(body, status=status.HTTP_201_CREATED)


class LoginView(APIView):
    """Exchange a username and password for the API token (also used on websockets)."""

    permission_classes = [permissions.AllowAny]
    throttle_scope = "login"  # per address, beside the per-account lockout below: failures only

    def get_throttles(self) -> list[Any]:
        self.throttles_asked = super().get_throttles()  # kept, to take back a success's hit
        return self.throttles_asked

    @extend_schema(request=LoginSerializer, responses={200: TokenSerializer, 400: ErrorSerializer})
    def post(self, request):
        serializer = LoginSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        # The request goes along so django-axes counts the failure and can lock it out.
        # The right password of an account waiting for its guardian: 400 awaiting-consent
        # (a log-in refused, as invalid-credentials is; the code tells them apart), no
        # failure counted (accounts/backends.py); a wrong one says nothing more.
        ask_about_consent(request)
        try:
            user = authenticate(request, **serializer.validated_data)
        except AwaitingConsent as waiting:
            return error_response(
                ServiceError("awaiting-consent", services.awaiting_consent_message(waiting.consent))
            )
        if getattr(request, "axes_locked_out", False):
            raise LockedOut(lockout_wait(request))
        if user is None:
            return error_response(ServiceError("invalid-credentials", "Wrong username or password."))
        for throttle in getattr(self, "throttles_asked", []):
            if isinstance(throttle, LiveRates):
                # The doors count failed log-ins only (accounts/limits.py): the signed-out
                # writes' limit too, or a club room of 31 was refused in a minute.
                throttle.refund()
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


class LogoutView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def post(self, request):
        Token.objects.filter(user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: ProfileSerializer})
    def get(self, request):
        profile = getattr(request.user, "profile", None) or Profile(user=request.user, display_name=request.user.username)
        return Response(ProfileSerializer(profile).data)

    @extend_schema(
        request=ProfileUpdateSerializer,
        responses={200: ProfileSerializer, 400: ErrorSerializer},
        description="Change display_name and country. Any other field is refused, nothing changed: 400 "
                    "read-only-field (username, date_of_birth: fixed after sign-up, staff correct it; can_play) "
                    "or unknown-field, naming it in fields.",
    )
    def patch(self, request):
        serializer = ProfileSerializer(data=request.data, partial=True)
        refuse_unwritable(request.data, serializer, shown=serializer.fields, reasons=PROFILE_FIXED,
                          otherwise="it is not yours to set.")
        serializer.is_valid(raise_exception=True)
        try:
            profile = services.update_profile(user=request.user, **serializer.validated_data)
        except ServiceError as err:
            return error_response(err)
        return Response(ProfileSerializer(profile).data)


# -- notices (accounts/notices.py) -----------------------------------------------------------


class NoticeSerializer(serializers.ModelSerializer):
    read = serializers.SerializerMethodField()

    class Meta:
        model = Notice
        fields = ["id", "kind", "message", "url", "data", "created_at", "read", "read_at"]

    def get_read(self, notice) -> bool:
        return notice.read_at is not None


class UnreadCountSerializer(serializers.Serializer):
    unread = serializers.IntegerField()


class MarkedSerializer(serializers.Serializer):
    marked = serializers.IntegerField()
    unread = serializers.IntegerField()


class NoticeListView(ListAPIView):
    """Your notices, newest first; ``?unread=true`` for the unread only."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = NoticeSerializer

    @extend_schema(parameters=[OpenApiParameter("unread", bool, description="Only the unread ones.")])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        unread = self.request.query_params.get("unread", "")
        if unread not in ("", "true", "false", "1", "0"):
            raise ValidationError({"unread": ["Use true or false."]})
        return notices.inbox(self.request.user, unread_only=unread in ("true", "1"))


class UnreadCountView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: UnreadCountSerializer})
    def get(self, request):
        return Response({"unread": notices.unread_count(request.user.pk)})


class NoticeReadView(APIView):
    """Mark one of your notices read (another user's notice: 404, as a missing one)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: NoticeSerializer, 404: ErrorSerializer})
    def post(self, request, pk: int):
        try:
            notice = notices.mark_read(user=request.user, notice_id=pk)
        except ServiceError as err:
            return error_response(err, status.HTTP_404_NOT_FOUND)
        return Response(NoticeSerializer(notice).data)


class NoticeReadAllView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: MarkedSerializer})
    def post(self, request):
        marked = notices.mark_all_read(user=request.user)
        return Response({"marked": marked, "unread": notices.unread_count(request.user.pk)})


# -- finding players (accounts/players.py) --------------------------------------------------


class PlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField()
    online = serializers.BooleanField(help_text="At least one of their pages is open now.")


def _players_data(people) -> list[dict]:
    online = presence.online_ids(person.pk for person in people)
    return [{"username": p.username, "name": p.name, "online": p.pk in online} for p in people]


class PlayerSearchView(APIView):
    """Players whose username or display name contains ``q`` (any case), names that
    start with it first; at most 20. Accounts opened with a guardian's consent are not
    listed (docs/accounts.md, "Finding players")."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="players_search",
        parameters=[OpenApiParameter("q", str, required=False, description="Part of a username or a name (at most 150 characters); empty or absent finds nobody.")],
        responses={200: PlayerSerializer(many=True), 400: ErrorSerializer},
    )
    def get(self, request):
        return Response(_players_data(players.search_players(request.query_params.get("q", ""))))


class PlayersOnlineView(APIView):
    """Who is online now (at most 40, by username), as the lobby lists them."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="players_online", responses={200: PlayerSerializer(many=True)})
    def get(self, request):
        return Response(_players_data(players.online_players()))
