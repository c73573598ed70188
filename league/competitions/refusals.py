"""Why an action would be refused now, one function per action: the service raises
its refusal (``raise ServiceError(*refusal)``) and the pages show the action's button
only when it returns None, so a button shows exactly when the service accepts the
click. Reads only; the services call them on the rows they have locked.

Each answers a ``Refusal`` (a code and a sentence for people) or None."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, NamedTuple

from django.db.models import Q, QuerySet

from accounts.age import day_words
from league.models import ClubMembership, Entry, Pairing, Round, Section, Tournament

from . import selectors
from .formats import format_of
from .formats.section_settings import most_players

#: Sections whose registration an organiser opens, closes or starts.
OPEN_SECTION = (Section.Status.REGISTRATION,)


class Refusal(NamedTuple):
    """A ServiceError's arguments: ``raise ServiceError(*refusal)``."""

    code: str
    reason: str


def _is_organiser(user: Any, club: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False)) and user.has_perm("league.organise_club", club)


def organiser_refusal(user: Any, club: Any) -> Refusal | None:
    """Only a club's owners and organisers (and superusers) run its events."""
    if _is_organiser(user, club):
        return None
    return Refusal("not-organiser", f"Only {club.name}'s owners and organisers run its events.")


# -- players ----------------------------------------------------------------------------------


def late_entry_round(section: Section, now: datetime) -> int | None:
    """The round a late entrant would join (0: at once), or None if late entries are closed."""
    if section.status != Section.Status.RUNNING:
        return None
    return format_of(section).late_entry_round(section, now)


def _registration_window_refusal(section: Section, now: datetime) -> Refusal | None:
    if section.status == Section.Status.RUNNING:
        if late_entry_round(section, now) is None:
            return Refusal("registration-closed", "Registration is closed: this section is under way.")
        return None
    if section.status != Section.Status.REGISTRATION:
        return Refusal("registration-closed", "Registration is closed: this section is over.")
    if section.tournament.status == Tournament.Status.DRAFT:  # hidden until registration opens
        return Refusal("registration-not-open", "Registration has not opened yet: this tournament is a draft.")
    if section.registration_opens_at and now < section.registration_opens_at:
        return Refusal("registration-closed",
                       f"Registration opens at {_when(section.registration_opens_at)}.")
    if now >= (section.registration_closes_at or section.starts_at):
        return Refusal("registration-closed", "Registration is closed.")
    return None


def _organiser_window_refusal(section: Section, now: datetime) -> Refusal | None:
    """An organiser enters players until round 1 starts, whatever the registration window
    (it is the players' own), and late as the format allows; not in a draft."""
    if section.status == Section.Status.REGISTRATION:
        if section.tournament.status == Tournament.Status.DRAFT:
            return Refusal("registration-not-open", "This tournament is a draft: publish it first, then enter players.")
        return None
    return _registration_window_refusal(section, now)


def _room_refusal(section: Section) -> Refusal | None:
    most = most_players(section)
    if most is not None and selectors.active_entries(section).count() >= most:
        dutch = "" if most == section.capacity else ", the most the FIDE Dutch pairing system takes here"
        return Refusal("section-full", f"This section is full ({most:,} players{dutch}).")
    return None


def registration_refusal(section: Section, user: Any, now: datetime, *, entered_by: Any = None) -> Refusal | None:
    """Why ``user`` may not enter ``section`` now: the windows (late entries as the
    format allows), an entry already made, the capacity, eligibility, then an entry in
    another section of the tournament (its "withdraw there first" is advice only to a
    player this section would take). Nobody registers in a later stage of a
    multi-stage event. ``entered_by``: an organiser
    entering ``user`` (event_services.enter_player): only a member of the club, and the
    window is the organiser's (until round 1, whatever the players' window says); every
    other rule is the same, in words about the player."""
    if entered_by is not None:
        refusal = organiser_refusal(entered_by, section.tournament.club) or organiser_entry_refusal(
            section, entered_by, now)
        if refusal is not None:
            return refusal
        if not ClubMembership.objects.filter(club_id=section.tournament.club_id, user=user).exists():
            return Refusal("not-member", f"{user.username} is not a member of {section.tournament.club.name}: an "
                                         "organiser enters the club's members; others register themselves.")
    else:
        stage = selectors.stage_refusal(section)
        if stage:
            return Refusal("later-stage", stage)
        refusal = _registration_window_refusal(section, now)
        if refusal is not None:
            return refusal
    # The organiser reads the player's name, as the players list and the success say it.
    you = "You are" if entered_by is None else f"{user.name} is"
    entry = Entry.objects.filter(section=section, user=user).first()
    if entry is not None and entry.status != Entry.Status.WITHDRAWN:
        return Refusal("already-entered", f"{you} already entered in this section.")
    if entry is not None and section.status == Section.Status.RUNNING:
        withdrew = "You" if entered_by is None else user.name
        return Refusal("already-entered", f"{withdrew} withdrew from this section after it started.")
    refusal = _room_refusal(section)
    if refusal is not None:
        return refusal
    rating = selectors.frozen_rating(user=user, variant=section.variant)
    eligibility = selectors.eligibility_refusal(section=section, user=user, rating=rating, own=entered_by is None)
    if eligibility:
        return Refusal("not-eligible", eligibility if entered_by is None
                       else f"{user.name} cannot enter: {eligibility}")
    return other_section_refusal(section, user, player=user.name if entered_by is not None else "")


def entered_elsewhere(section: Section) -> QuerySet[Entry]:
    """The entries that keep a player out of ``section``: one section of a tournament
    each (two at once would pair them twice a round). Not withdrawn, in another section
    of its tournament that was not cancelled; a multi-stage event's later stage takes
    its players from the stage before it, never by registration."""
    return (Entry.objects.filter(section__tournament_id=section.tournament_id, status__in=selectors.ACTIVE_ENTRY)
            .exclude(section_id=section.pk).exclude(section__status=Section.Status.CANCELLED))


def other_section_refusal(section: Section, user: Any, *, player: str = "") -> Refusal | None:
    """Why ``user`` may not enter ``section``: entered in another section of the
    tournament (``entered_elsewhere``), named, with the way out. ``player``: their name,
    when an organiser enters them."""
    others = list(entered_elsewhere(section).filter(user_id=user.pk).select_related("section")
                  .order_by("section__name"))
    if not others:
        return None
    # One still to play, if any (several only from before this rule, or a stage carried over).
    other = next((e for e in others if e.section.status != Section.Status.FINISHED), others[0])
    if other.section.status == Section.Status.FINISHED:
        return Refusal("entered-elsewhere", f"{player or 'You'} played in {other.section.name} of this tournament: "
                                            "a player enters one section of a tournament.")
    you = f"{player} is" if player else "You are"
    return Refusal("entered-elsewhere", f"{you} already entered in {other.section.name} of this tournament: "
                                        f"withdraw there first to enter {section.name}.")


def organiser_entry_refusal(section: Section, user: Any, now: datetime) -> Refusal | None:
    """Why an organiser may not enter players in ``section`` now, whoever they are (the
    section page's "Enter a player" form shows when this is None): a later stage, a
    draft, a section under way past its late entries or over, no room."""
    refusal = organiser_refusal(user, section.tournament.club)
    if refusal is not None:
        return refusal
    stage = selectors.stage_refusal(section)
    if stage:
        return Refusal("later-stage", stage)
    return _organiser_window_refusal(section, now) or _room_refusal(section)


def takes_entries(section: Section, now: datetime) -> bool:
    """Whether ``section`` takes registrations now (its window open, not a later stage)."""
    return not selectors.stage_refusal(section) and _registration_window_refusal(section, now) is None


def check_in_refusal(section: Section, entry: Entry | None, now: datetime) -> Refusal | None:
    """Why this entry may not check in now (also when it has checked in already: the
    button is gone, so the service says so too rather than answering silently)."""
    if entry is None or entry.status == Entry.Status.WITHDRAWN:
        return Refusal("not-entered", "You are not entered in this section.")
    if entry.status == Entry.Status.CHECKED_IN:
        return Refusal("checked-in", "You are checked in.")
    if section.check_in_opens_at is None:
        return Refusal("no-check-in", "This section needs no check-in.")
    closes = section.check_in_closes_at or section.starts_at
    if not check_in_open(section, now):
        return Refusal(
            "check-in-closed",
            f"Check-in is open from {_when(section.check_in_opens_at)} to {_when(closes)}.",
        )
    return None


def check_in_open(section: Section, now: datetime) -> bool:
    """Whether ``section``'s check-in window is open now (False: it needs none)."""
    if section.check_in_opens_at is None or section.status != Section.Status.REGISTRATION:
        return False
    return section.check_in_opens_at <= now < (section.check_in_closes_at or section.starts_at)


def withdraw_refusal(section: Section, entry: Entry | None, *, player: str = "") -> Refusal | None:
    """``player``: the player's name, when an organiser withdraws someone (the words name them)."""
    if entry is None or entry.status == Entry.Status.WITHDRAWN:
        return Refusal("not-entered", f"{player or 'You'} {'is' if player else 'are'} not entered in this section.")
    if section.status in (Section.Status.FINISHED, Section.Status.CANCELLED):
        return Refusal("section-over", "This section is over.")
    if entry.user_id in knocked_out(section):
        # Nothing left to forfeit: the withdrawal would only relabel a finished run.
        return Refusal("knocked-out", f"{player + ' is' if player else 'You are'} out of the knockout with no game "
                                      "left to play: there is nothing to withdraw from.")
    return None


def knocked_out(section: Section) -> frozenset[int]:
    """The user ids of a running knockout's players with nothing left to play (out, or
    the winner, with no placement or consolation match to come); none in other formats."""
    if section.status != Section.Status.RUNNING:
        return frozenset()
    progress = format_of(section).progress(section) or {}
    return frozenset(user_id for user_id, mine in progress.items() if mine.done)


def _arena_away_refusal(section: Section, entry: Entry | None, now: datetime) -> Refusal | None:
    """What pausing and coming back share: an entrant of an arena under way, before its end."""
    if entry is None or entry.status == Entry.Status.WITHDRAWN:
        return Refusal("not-entered", "You are not entered in this section.")
    if not format_of(section).timed:
        return Refusal("not-arena", "Only an arena pauses players: other formats pair everyone entered each round.")
    if section.status != Section.Status.RUNNING:
        return Refusal("not-running", "The arena is not under way.")
    closes = format_of(section).closes_at(section)
    if closes is not None and now >= closes:
        return Refusal("arena-over", "The arena's time is up: nobody is paired any more.")
    return None


def player_pause_refusal(section: Section, entry: Entry | None, now: datetime) -> Refusal | None:
    """Why this entrant may not pause now (arena_pause.pause_player)."""
    refusal = _arena_away_refusal(section, entry, now)
    if refusal is None and entry is not None and entry.paused_at is not None:
        return Refusal("paused", "You are paused already.")
    return refusal


def player_back_refusal(section: Section, entry: Entry | None, now: datetime) -> Refusal | None:
    """Why this entrant may not say they are back now (arena_pause.player_back)."""
    refusal = _arena_away_refusal(section, entry, now)
    if refusal is None and entry is not None and entry.paused_at is None:
        return Refusal("not-paused", "You are not paused: the arena pairs you when you are free.")
    return refusal


# -- organisers -------------------------------------------------------------------------------


def _registration_open_now(section: Section, now: datetime) -> bool:
    opened = section.registration_opens_at is None or section.registration_opens_at <= now
    return opened and now < (section.registration_closes_at or section.starts_at)


def open_registration_refusal(tournament: Tournament, user: Any, now: datetime) -> Refusal | None:
    """Opening publishes a draft (each section then follows its own window), or opens a
    published tournament's registration again now; refused once the tournament has
    started, and while every section not started is open."""
    refusal = organiser_refusal(user, tournament.club)
    if refusal is not None:
        return refusal
    if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        # A section not started may still take entries (its own window): said, so the page
        # does not deny the "Registration" shown on that section's card.
        taking = [s.name for s in tournament.sections.filter(status__in=OPEN_SECTION).order_by("starts_at", "name")
                  if takes_entries(s, now)]
        if taking:
            return Refusal("tournament-started", f"This tournament has started: {', '.join(taking)} still "
                                                 f"{'takes' if len(taking) == 1 else 'take'} entries until "
                                                 f"{'its' if len(taking) == 1 else 'their'} round 1; the others' "
                                                 "registration cannot reopen.")
        return Refusal("tournament-started", "This tournament has started: its registration cannot reopen.")
    if tournament.status == Tournament.Status.REGISTRATION:
        sections = tournament.sections.filter(status__in=OPEN_SECTION)
        if all(_registration_open_now(section, now) for section in sections):
            return Refusal("registration-open", "Registration is open.")
    return None


def close_registration_refusal(tournament: Tournament, user: Any, now: datetime) -> Refusal | None:
    """Closing ends registration in every section not started; refused unless one is open."""
    refusal = organiser_refusal(user, tournament.club)
    if refusal is not None:
        return refusal
    if tournament.status != Tournament.Status.REGISTRATION or not any(
        _registration_open_now(section, now) for section in tournament.sections.filter(status__in=OPEN_SECTION)
    ):
        return Refusal("registration-not-open", "Registration is not open.")
    return None


def start_section_refusal(section: Section, user: Any) -> Refusal | None:
    """Starting now pairs round 1 at once: a section taking entries, not paused, with two players."""
    refusal = organiser_refusal(user, section.tournament.club)
    if refusal is not None:
        return refusal
    if section.status != Section.Status.REGISTRATION:
        return Refusal("section-started", f"{section.name} has already started or is over.")
    refusal = waiting_stage_refusal(section)
    if refusal is not None:
        return refusal
    if section.paused_at is not None:
        return Refusal("paused", f"{section.name} is paused: resume it first.")
    if selectors.active_entries(section).count() < 2:
        return Refusal("too-few-players", f"{section.name} needs at least two players to start.")
    if section.rounds and section.format == Section.Format.SWISS and not section.late_entry_rounds and (
            section.rounds >= selectors.active_entries(section).count()):
        players = selectors.active_entries(section).count()
        return Refusal("too-many-rounds", f"{section.name} cannot start: a Swiss of {section.rounds} rounds needs "
                                          f"at least {section.rounds + 1} players (nobody meets anyone twice), and "
                                          f"it has {players}. Edit it to {players - 1} rounds or fewer.")
    return None


def waiting_stage_refusal(section: Section) -> Refusal | None:
    """A later stage waiting for the stage before it: it starts when that one finishes,
    with its qualifiers (stages.after_stage), never by itself, so neither an organiser's
    start nor a round's preview nor "start now" applies to it until then."""
    previous = section.previous_stage
    if previous is None or previous.status == Section.Status.FINISHED:
        return None
    return Refusal("later-stage", f"{section.name} starts when {previous.name} finishes, with "
                                  f"{selectors.going_through_words(section, named=False)}: its round 1 is "
                                  "paired then.")


def sections_to_start(tournament: Tournament) -> QuerySet[Section]:
    """The sections starting the tournament starts: those still taking entries, but a later
    stage only once the stage before it has finished (with its qualifiers it waits for its
    own start time, and the tournament page said it "starts when the stage before it ends")."""
    return tournament.sections.filter(
        Q(previous_stage__isnull=True) | Q(previous_stage__status=Section.Status.FINISHED),
        status__in=OPEN_SECTION)


def start_tournament_refusal(tournament: Tournament, user: Any) -> Refusal | None:
    """Starting the tournament starts each of its sections still taking entries; refused unless each can start."""
    refusal = organiser_refusal(user, tournament.club)
    if refusal is not None:
        return refusal
    if tournament.status == Tournament.Status.DRAFT:
        return Refusal("draft", "Publish it first: a draft does not start.")
    sections = list(sections_to_start(tournament).select_related("tournament__club"))
    if not sections:
        return Refusal("nothing-to-start", "Every section has already started, or starts when the stage before it ends.")
    # All or none: a section that cannot start (too few players, paused) holds the rest,
    # and the refusal names each one that cannot, those with too few players first.
    refused = [(section, r) for section in sections if (r := start_section_refusal(section, user))]
    if len(refused) < 2:
        return refused[0][1] if refused else None
    empty = [section.name for section, r in refused if r.code == "too-few-players"]
    reasons = [r.reason for _, r in refused if r.code != "too-few-players"]
    if len(empty) > 1:
        reasons.insert(0, f"{_and_list(empty)} each need at least two players to start.")
    elif empty:
        reasons.insert(0, f"{empty[0]} needs at least two players to start.")
    return Refusal("too-few-players" if empty else refused[0][1].code, " ".join(reasons))


def _and_list(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def add_section_refusal(tournament: Tournament, user: Any) -> Refusal | None:
    """A tournament takes new sections until it is over."""
    refusal = organiser_refusal(user, tournament.club)
    if refusal is not None:
        return refusal
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        return Refusal("tournament-over", "This tournament is over.")
    return None


def _started_words(section: Section) -> str | None:
    """How a section has begun ("has started", "is over"), or None while it waits for round 1."""
    if section.status == Section.Status.REGISTRATION and not section.current_round and section.started_at is None:
        return None
    return "is over" if section.status in (Section.Status.FINISHED, Section.Status.CANCELLED) else "has started"


def edit_tournament_refusal(tournament: Tournament, user: Any) -> Refusal | None:
    """A tournament's details change until any of it starts (no section with a round)."""
    refusal = organiser_refusal(user, tournament.club)
    if refusal is not None:
        return refusal
    if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        over = tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
        return Refusal("tournament-started", f"{tournament.name} {'is over' if over else 'has started'}: "
                                             "its details are fixed.")
    for section in tournament.sections.all():
        words = _started_words(section)
        if words is not None:
            return Refusal("tournament-started", f"{section.name} {words}: the tournament's details are fixed.")
    return None


def delete_tournament_refusal(tournament: Tournament, user: Any) -> Refusal | None:
    """A tournament is deleted while nothing of it has started and nobody is entered."""
    refusal = edit_tournament_refusal(tournament, user)
    if refusal is not None:
        return refusal
    entered = Entry.objects.filter(section__tournament=tournament, status__in=selectors.ACTIVE_ENTRY).count()
    if entered:
        return Refusal("has-entries", f"{_players(entered)} entered: withdraw them first (beside each name on its "
                                      "section's page), then delete the tournament.")
    return None


def edit_section_refusal(section: Section, user: Any) -> Refusal | None:
    """A section's settings change until its round 1 starts (or the arena's clock)."""
    refusal = organiser_refusal(user, section.tournament.club)
    if refusal is not None:
        return refusal
    words = _started_words(section)
    if words is not None:
        return Refusal("section-started", f"{section.name} {words}: its settings are fixed.")
    return None


def delete_section_refusal(section: Section, user: Any) -> Refusal | None:
    """A section is deleted before its round 1, with nobody entered and no stage after it."""
    refusal = edit_section_refusal(section, user)
    if refusal is not None:
        return refusal
    following = section.next_stages.first()
    if following is not None:
        return Refusal("has-next-stage", f"{following.name} follows {section.name}: delete that stage first, or "
                                         "make it a first stage.")
    entered = selectors.active_entries(section).count()
    if entered:
        return Refusal("has-entries", f"{_players(entered)} entered: withdraw them first (beside each name in the "
                                      "players list), then delete the section.")
    return None


def _players(n: int) -> str:
    return "1 player is" if n == 1 else f"{n:,} players are"


def pause_refusal(section: Section) -> Refusal | None:
    """A section not over may be paused, before its start too."""
    if section.status in (Section.Status.FINISHED, Section.Status.CANCELLED):
        return Refusal("section-over", "This section is over.")
    if section.paused_at is not None:
        return Refusal("already-paused", f"{section.name} is already paused.")
    return None


def end_early_refusal(section: Section) -> Refusal | None:
    """A section ends early only when its next round cannot be paired (Round.unpairable)
    and no game of it is still being played."""
    if section.status != Section.Status.RUNNING:
        return Refusal("section-not-running", f"{section.name} is not running: there is nothing to end early.")
    if not section.round_set.filter(status=Round.Status.SCHEDULED).exclude(unpairable="").exists():
        return Refusal("round-pairable", f"{section.name} ends early only when its next round cannot be paired.")
    if section.pairings.exclude(status=Pairing.Status.FINISHED).exists():
        return Refusal("games-in-play", f"{section.name} has games in play: it ends once they are over.")
    return None


def correction_refusal(pairing: Pairing) -> Refusal | None:
    """Only a finished single game of a format paired on results may be corrected: the
    console asks for its reason only when the correction can be made."""
    if pairing.status != Pairing.Status.FINISHED:
        return Refusal("no-result-yet", "This pairing has no result to correct yet; adjudicate it instead.")
    if pairing.is_bye:
        return Refusal("bye", "A bye has no game to correct.")
    refusal = format_of(pairing.section).correction_refusal
    if refusal is not None:
        return Refusal(*refusal)
    if pairing.match_id:
        return Refusal("match-result", "A match's result comes from its games.")
    return None


def tie_refusal(pairing: Pairing) -> Refusal | None:
    """An arbiter's draw or double forfeit, refused where a pairing must send one player on
    (a knockout: both players absent, the lower seed is the one to forfeit)."""
    if format_of(pairing.section).sends_one_through:
        return Refusal("one-goes-through", "A knockout match sends one player through: forfeit it to one of them "
                                           "or adjudicate a win (with both absent, the higher seed goes through).")
    return None


def resume_refusal(section: Section) -> Refusal | None:
    """A paused section not over may be resumed: games in play go on during a pause, so
    its last round may end it while paused, and then nothing is left to resume."""
    if section.status in (Section.Status.FINISHED, Section.Status.CANCELLED):
        return Refusal("section-over", "This section is over.")
    if section.paused_at is None:
        return Refusal("not-paused", f"{section.name} is not paused.")
    return None


def view_refusal(tournament: Tournament, user: Any) -> Refusal | None:
    """Who may follow a tournament's pages and sockets: anyone, but a draft stays hidden
    from all but its club's organisers (answered as if it did not exist)."""
    if tournament.status == Tournament.Status.DRAFT and not _is_organiser(user, tournament.club):
        return Refusal("no-such-section", "There is no such section.")
    return None


def _when(moment: datetime) -> str:
    """A moment as the pages write it: "Mon 30 Nov 2026, 10:00 UTC"."""
    return f"{day_words(moment.astimezone(UTC).date())}, {moment.astimezone(UTC):%H:%M} UTC"
