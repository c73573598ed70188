"""The arbiter's pages for a section's rounds (docs/competitions.md, "Preview and manual
override"), mounted at /clubs/ by config/urls.py (namespace "arbiter"): the next round's
pairings previewed and published, the section as TRF-16, a round's pairings set from a
TRF. Here, not in league's pages, because publishing and the override are audited
operations of the console (moderation/operations.py).

Who: the preview page, the TRF export and the TRF form are the club's organisers' and
arbiters' (docs/moderation.md, "Tournament operations"); publishing is the organisers'
only, and its button is shown to them only."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.views.decorators.http import require_POST

from accounts.errors import ServiceError
from accounts.http import PlayerRequest
from league import competitions
from league.competitions import arbiter, event_selectors
from league.competitions.formats import format_of
from league.formats import explain
from league.models import Round, Section, Tournament

from . import operations

#: The largest TRF read, uploaded or pasted (a 10,000-player section's file is about 1.5 MB).
MAX_TRF_BYTES = 2_000_000
TOO_LARGE = "This file is too large for a TRF."
HAS_NUL = "This file cannot be used: a TRF is plain text, and this one holds NUL characters (byte 0)."


def _section(club_slug: str, tournament_slug: str, section_slug: str) -> Section:
    return get_object_or_404(Section.objects.select_related("tournament__club", "rule_set"),
                             tournament__club__slug=club_slug, tournament__slug=tournament_slug, slug=section_slug)


def _refused(request: HttpRequest, section: Section, perm: str) -> HttpResponse | None:
    """The 403 page for someone without ``perm`` on the section's club, else None.
    Answered, not raised (as games' watch gate): a refusal is logged as one line
    ("Forbidden: <path>"), where a raised PermissionDenied is logged with its traceback."""
    club = section.tournament.club
    if section.tournament.status == Tournament.Status.DRAFT and not request.user.has_perm("league.organise_club", club):
        raise Http404("No such section.")  # a draft is not there for anyone else, as its page
    if request.user.has_perm(perm, club):
        return None
    who = "organisers" if perm == "league.organise_club" else "organisers and arbiters"
    return render(request, "403.html", {"exception": f"Only the club's {who} may do this."}, status=403)


def _round(section: Section, number: int) -> Round:
    return get_object_or_404(Round, section=section, number=number)


@login_required
def preview(request: PlayerRequest, club_slug: str, tournament_slug: str, section_slug: str,
            number: int) -> HttpResponse:
    """Round N's pairings as they would be made now, with their reasons; nothing written.
    For the club's organisers and arbiters: it holds the TRF form, which both may use
    (an arbiter sees there what an import did); the Publish button is the organisers'."""
    section = _section(club_slug, tournament_slug, section_slug)
    if refused := _refused(request, section, "league.moderate_club"):
        return refused
    round_ = _round(section, number)
    refusal, refusal_code, boards = "", "", []
    try:
        previewed = competitions.preview_round(round_=round_)
    except ServiceError as err:
        refusal, refusal_code = err.message, err.code
    else:
        people = event_selectors.people(section)
        names = {user_id: person.name for user_id, person in people.items()}
        boards = [{"number": b.number, "first": people.get(b.first), "second": people.get(b.second or -1),
                   "forfeit": bool(b.withdrawn), "reasons": explain.in_words(b.reasons, names)}
                  for b in previewed.boards]
    return render(request, "league/round_preview.html", {
        "club": section.tournament.club, "tournament": section.tournament, "section": section, "round": round_,
        "boards": boards, "refusal": refusal,
        # A later stage waiting for the one before it: when it starts, said as a fact, not an error.
        "waiting_stage": refusal_code == "later-stage",
        "can_override": not format_of(section).has_bracket and section.status == Section.Status.RUNNING,
        "organiser": request.user.has_perm("league.organise_club", section.tournament.club),
        # Nobody pairs a section they play in (docs/moderation.md, "Recusal"): said instead of the form.
        "recusal": operations.section_recusal(request.user, section.pk),
        "max_trf_mb": MAX_TRF_BYTES // 1_000_000,
    })


@login_required
@require_POST
def publish(request: PlayerRequest, club_slug: str, tournament_slug: str, section_slug: str,
            number: int) -> HttpResponse:
    """Start round N now: the pairings just previewed (the same computation, now written)."""
    section = _section(club_slug, tournament_slug, section_slug)
    if refused := _refused(request, section, "league.organise_club"):
        return refused
    round_ = _round(section, number)
    try:
        operations.start_round_now(actor=request.user, round_id=round_.pk, reason="Published from the preview.")
    except ServiceError as err:
        messages.error(request, err.message)
        return redirect("arbiter:round-preview", club_slug, tournament_slug, section_slug, number)
    messages.success(request, f"Round {number} is published: its games have started.")
    return redirect("competitions:section", club_slug, tournament_slug, section_slug)


@login_required
@require_POST
def import_pairings(request: PlayerRequest, club_slug: str, tournament_slug: str, section_slug: str,
                    number: int) -> HttpResponse:
    """Round N's pairings from an uploaded or pasted TRF-16 file, used when it starts."""
    section = _section(club_slug, tournament_slug, section_slug)
    if refused := _refused(request, section, "league.moderate_club"):
        return refused
    round_ = _round(section, number)
    try:
        text = _trf_text(request)
        operations.set_round_pairings(actor=request.user, round_id=round_.pk, text=text,
                                      reason=request.POST.get("reason", "")[:200])
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, f"Round {number} will be paired as the file says (the arbiter's pairings).")
    return redirect("arbiter:round-preview", club_slug, tournament_slug, section_slug, number)


# The pasted text may hold a NUL: config.middleware.RefuseNulMiddleware leaves it to
# _trf_text, which refuses it in the form's words, as it does in an uploaded file.
import_pairings.nul_checked_fields = ("text",)  # type: ignore[attr-defined]  # read by the middleware


def _trf_text(request: HttpRequest) -> str:
    """The TRF sent to the form, uploaded or pasted, under the same rules: at most
    MAX_TRF_BYTES, UTF-8 and no NUL. A pasted text is counted as the file it came from:
    a browser sends a text box's line breaks as CRLF, each counted as one byte."""
    upload = request.FILES.get("file")
    if upload is not None and request.POST.get("text", "").strip():
        raise ServiceError("bad-trf", "Choose a TRF file or paste its text, not both: which one is meant?")
    if upload is not None:
        if upload.size is not None and upload.size > MAX_TRF_BYTES:
            raise ServiceError("file-too-large", TOO_LARGE)
        try:
            text = upload.read().decode("utf-8")
        except UnicodeDecodeError:
            raise ServiceError("bad-trf", "This file cannot be used: a TRF is plain text (UTF-8).") from None
    else:
        text = request.POST.get("text", "")
        if len(text.replace("\r\n", "\n").encode("utf-8")) > MAX_TRF_BYTES:
            raise ServiceError("file-too-large", TOO_LARGE)
        if "\ufffd" in text:  # what Django reads bytes that are not UTF-8 as, in a form
            raise ServiceError("bad-trf", "This text cannot be used: a TRF is plain text (UTF-8).")
    if "\x00" in text:
        raise ServiceError("bad-trf", HAS_NUL)
    if not text.strip():
        raise ServiceError("bad-trf", "Choose a TRF file or paste its text.")
    return text


def export_trf(request: HttpRequest, club_slug: str, tournament_slug: str, section_slug: str) -> HttpResponse:
    """The section as a FIDE TRF-16 file, for the club's organisers and arbiters."""
    section = _section(club_slug, tournament_slug, section_slug)
    if refused := _refused(request, section, "league.moderate_club"):
        return refused
    response = HttpResponse(competitions.section_trf(section), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{arbiter.trf_filename(section)}"'
    return response


_section_path = "<slug:club_slug>/<slug:tournament_slug>/<slug:section_slug>/"
urlpatterns = [
    path(_section_path + "section.trf", export_trf, name="section-trf"),
    path(_section_path + "rounds/<int:number>/preview/", preview, name="round-preview"),
    path(_section_path + "rounds/<int:number>/publish/", publish, name="round-publish"),
    path(_section_path + "rounds/<int:number>/pairings/", import_pairings, name="round-pairings"),
]
