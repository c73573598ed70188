"""What players and pages hear: a player's pairing as a stored notice (accounts/notices.py,
pushed after commit), a section's progress on its group (``section_group``) after commit.
A lost section update costs a page refresh, never a result."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.age import day_words
from accounts.broadcast import send_to_groups
from accounts.notices import Kind, NoticeSpec, notify_many
from league.models import Entry, Pairing, Round, Section

from . import selectors, stages  # stages a module: it tells pages through broadcast_section
from .podium import podium


def section_group(section_id: int) -> str:
    """The channel-layer group of a section's live pages."""
    return f"section-{section_id}"


def announce_round(section: Section, round_: Round) -> None:
    pairings = list(round_.pairings.select_related("first", "second"))
    notify_players(section, round_, pairings)
    broadcast_section(section, {"event": "round-started", "round": round_.number})


def notify_players(section: Section, round_: Round, pairings: list[Pairing], *, again: str = "") -> None:
    """Each player's notice of their pairing, stored in this transaction (accounts/notices.py):
    once per pairing and game, so a retried task or a replayed draw writes each once.
    ``again``: why a pairing has a new game ("a new game after the drawn one, ..."), said
    after "your game is ready": the same words as the first game's read as a duplicate."""
    specs = []
    for pairing in pairings:
        game_id = pairing.game_id or (pairing.match.games.order_by("number_in_match").values_list(
            "pk", flat=True).last() if pairing.match is not None else None)
        for user_id, opponent_id in ((pairing.first_id, pairing.second_id), (pairing.second_id, pairing.first_id)):
            if user_id is None:
                continue
            kind = Kind.PAIRING
            if opponent_id is None:
                text, kind = f"{section}: round {round_.number}: you have a bye.", Kind.ROUND_STARTED
            elif game_id is None:
                text = f"{section}: round {round_.number}: {_forfeit_words(pairing, user_id)}"
                kind = Kind.ROUND_STARTED
            else:
                text = f"{section}: round {round_.number}, board {pairing.board}: your game is ready" + (
                    f" ({again})." if again else ".")
            specs.append(NoticeSpec(
                recipient_id=user_id, kind=kind, cause=f"pairing:{pairing.pk}:game:{game_id or 0}", message=text,
                url=f"/play/{game_id}/" if game_id else section_url(section),
                data={"section": section.pk, "round": round_.number, "board": pairing.board, "game": game_id},
            ))
    notify_many(specs)


def notify_paused(section: Section, pairing: Pairing, user_ids: list[int], reason: str) -> None:
    """Each player an arena paused for losing ``pairing`` without a move (arena_pause.py):
    why, and that "I'm back" on the section's page brings them back; a player who closed
    the tab learns it here. Once per pairing and player. Not for a break the player asked
    for: they know."""
    notify_many(NoticeSpec(
        recipient_id=user_id, kind=Kind.ARENA_PAUSED, cause=f"arena-paused:{pairing.pk}",
        message=f"{section}: you are paused. {reason} The arena pairs you with nobody until you press "
                "“I'm back” on its page.",
        url=f"{section_url(section)}#entry-heading",  # the entry box: why, and "I'm back"
        data={"section": section.pk, "round": pairing.round.number, "board": pairing.board},
    ) for user_id in user_ids)


def _forfeit_words(pairing: Pairing, reader_id: int) -> str:
    """A pairing decided without a game, for one of its players: "you won by forfeit",
    not the table's "Second player won by forfeit" (which names nobody)."""
    R = Pairing.Result
    if pairing.result not in (R.FIRST_FORFEIT_WIN, R.SECOND_FORFEIT_WIN, R.DOUBLE_FORFEIT):
        return f"result by forfeit ({pairing.get_result_display()})."
    if pairing.result == R.DOUBLE_FORFEIT:
        return "both players forfeited: no points."
    winner_id = pairing.first_id if pairing.result == R.FIRST_FORFEIT_WIN else pairing.second_id
    return "you won by forfeit." if winner_id == reader_id else "you lost by forfeit."


def section_url(section: Section) -> str:
    tournament = section.tournament
    return reverse("competitions:section", args=[tournament.club.slug, tournament.slug, section.slug])


def results_url(section: Section) -> str:
    tournament = section.tournament
    return reverse("competitions:section-results", args=[tournament.club.slug, tournament.slug, section.slug])


def _not_in_table_words(status: str, reason: str) -> str:
    """Why an entrant has no place in the final table. Everyone seeded at the start has
    one (withdrawn since or not), so they left before it: by a missed check-in, the
    organiser's hand, their own, or for a reason someone typed."""
    if status != Entry.Status.WITHDRAWN:
        return "You did not play in it."
    reason = reason.strip()
    if reason == selectors.NO_CHECK_IN:
        return "You did not play: you had not checked in when round 1 started."
    if reason == selectors.BY_ORGANISER:
        return "The organiser withdrew you before it started."
    if reason in ("", selectors.WITHDREW):
        return "You withdrew before it started."
    return "Your entry was withdrawn before it started."


def notify_section_finished(section: Section) -> None:
    """Every entrant of a finished section (withdrawn ones too), once: the winner, their own
    place and the podium, with a link to the results. Per section, so a section that ends
    before the others of its tournament announces itself; the cause makes a retried
    task write nothing more."""
    following = section.next_stages.first()
    if following is not None:
        notify_stage_finished(section, following)
        return
    result = podium(section)
    if result is None:
        return
    tournament = section.tournament
    url = results_url(section)
    places = {f.user_id: f for f in result.table}
    # The top three places, a shared one whole: a knockout's two semi-finalists share 3rd, and
    # "3. Mei" alone read to the other one as if they had not placed.
    podium_places = [f for f in result.table if f.rank <= 3] or result.table[:3]
    top = ", ".join(f"{f.rank}. {f.name}" + ("" if f.progress else f" ({f.points:g})") for f in podium_places)
    early = f"{section.ended_early} " if section.ended_early else ""
    specs = []
    for user_id, status, reason in section.entries.values_list("user_id", "status", "withdrawn_reason"):
        mine = places.get(user_id)
        if mine is None:
            yours = _not_in_table_words(status, reason)
        elif len(result.winners) == 1 and result.winners[0].user_id == user_id:
            yours = f"Congratulations: you {mine.placed(len(result.table))}."
        else:
            yours = f"You {mine.placed(len(result.table))}."
        specs.append(NoticeSpec(
            recipient_id=user_id, kind=Kind.TOURNAMENT_FINISHED,
            cause=f"tournament-finished:{tournament.pk}:section:{section.pk}",
            message=f"{tournament.name}: {section.name} is over. {early}{result.headline()}. {yours} "
                    f"Final standings: {top}.",
            url=url, data={"tournament": tournament.pk, "section": section.pk,
                           "place": mine.rank if mine else None, "players": len(result.table),
                           "points": mine.points if mine else None,
                           "winners": [w.username for w in result.winners]},
        ))
    notify_many(specs)


def notify_result_corrected(section: Section, pairing: Pairing, before: dict[int, tuple[int, float]],
                            reason: str, *, at: float) -> None:
    """After a finished section's result is corrected: the two players, and everyone whose
    final place or points changed, hear what changed and where they now stand (their
    "is over" notice named the old place). ``before``: user id -> (rank, points) before
    the correction; ``at`` (a timestamp) keeps each correction's notices apart."""
    result = podium(section)
    if result is None:  # an earlier stage: the next stage was seeded at its finish
        return
    tournament = section.tournament
    first, second = pairing.first, pairing.second
    if first is None or second is None:  # a bye: no result to correct
        return
    outcomes = {Pairing.Result.FIRST_WON: f"{first.name} won", Pairing.Result.SECOND_WON: f"{second.name} won"}
    outcome = outcomes.get(Pairing.Result(pairing.result), "a draw")  # corrected to 1-0, 0-1 or a draw
    what = (f"{tournament.name}: {section.name}: the arbiter corrected round {pairing.round.number}, "
            f"{first.name} v {second.name}, to {outcome} ({reason.strip()}).")
    specs = []
    for finisher in result.table:
        was = before.get(finisher.user_id)
        if finisher.user_id not in (first.pk, second.pk) and was == (finisher.rank, finisher.points):
            continue
        now = f"You {finisher.placed(len(result.table))}"
        if was is not None and was[0] != finisher.rank:
            now += f" (before the correction: {was[0]})"
        specs.append(NoticeSpec(
            recipient_id=finisher.user_id, kind=Kind.TOURNAMENT_FINISHED,
            cause=f"result-corrected:{section.pk}:{pairing.pk}:{at}",
            message=f"{what} {now}. {result.headline()}.", url=results_url(section),
            data={"tournament": tournament.pk, "section": section.pk, "place": finisher.rank,
                  "was": was[0] if was else None, "points": finisher.points, "corrected": pairing.pk},
        ))
    notify_many(specs)


def notify_stage_finished(section: Section, following: Section) -> None:
    """Every entrant of a finished earlier stage, once: whether they go through to
    ``following`` (and as which seed), or where they finished."""
    tournament = section.tournament
    through = {user_id: seed for seed, user_id in enumerate(stages.qualifiers(section, following.advance or 0), start=1)}
    ranks = dict(section.standings.values_list("user_id", "rank"))
    # A later stage due later keeps its own start (the organiser may start it sooner): the
    # qualifiers were told they go through, not when they play again.
    start = following.starts_at.astimezone(UTC)
    when = f" Its round 1 starts {day_words(start.date())}, {start:%H:%M} UTC." if start > timezone.now() else ""
    specs = []
    for user_id, status, reason in section.entries.values_list("user_id", "status", "withdrawn_reason"):
        if user_id in through:
            yours = f"You go through to {following.name} as seed {through[user_id]}.{when}"
        elif user_id in ranks:
            rank = ranks[user_id]
            where = "in your group" if section.groups > 1 else f"of {len(ranks)}"
            if status == Entry.Status.WITHDRAWN:  # qualifiers() passes over them, whatever their place
                yours = f"You finished {rank} {where}; withdrawn since, you do not go through to {following.name}."
            else:
                tie = " (tied on the table: the better seed goes through)" if rank <= (following.advance or 0) else ""
                yours = f"You finished {rank} {where} and do not go through to {following.name}{tie}."
        else:
            yours = _not_in_table_words(status, reason)
        specs.append(NoticeSpec(
            recipient_id=user_id, kind=Kind.TOURNAMENT_FINISHED,
            cause=f"tournament-finished:{tournament.pk}:section:{section.pk}",
            message=f"{tournament.name}: {section.name} is over. {yours}",
            url=section_url(following),
            data={"tournament": tournament.pk, "section": section.pk, "next_stage": following.pk,
                  "seed": through.get(user_id), "place": ranks.get(user_id)},
        ))
    notify_many(specs)


def notify_stage_waiting(section: Section, qualifiers: int) -> None:
    """The club's organisers, once per stage: the stage before ``section`` is over, its
    ``qualifiers`` are in, and ``section`` waits for its own start time (beat starts it
    then) unless they press "Start now" on the tournament's page. Without it an organiser
    waited on a knockout that was waiting on them (organiser club night)."""
    tournament = section.tournament
    previous = section.previous_stage
    start = section.starts_at.astimezone(UTC)
    message = (f"{tournament.name}: {previous.name if previous else 'the stage before'} is over and its "
               f"{qualifiers} qualifiers are in {section.name}, which starts {day_words(start.date())}, "
               f"{start:%H:%M} UTC. To start it sooner, press “Start now” on the tournament's page.")
    url = reverse("competitions:tournament", args=[tournament.club.slug, tournament.slug]) + "#org-heading"
    notify_many(NoticeSpec(
        recipient_id=user_id, kind=Kind.ORGANISING, cause=f"stage-waiting:{section.pk}", message=message, url=url,
        data={"tournament": tournament.pk, "section": section.pk,
              "previous_stage": previous.pk if previous else None, "starts_at": start.isoformat()},
    ) for user_id in selectors.organiser_ids(tournament.club_id))


def broadcast_section(section: Section, payload: dict[str, Any]) -> None:
    message = {"type": "section.update", "section": section.pk, **payload}
    group = section_group(section.pk)
    transaction.on_commit(lambda: send_to_groups([(group, message)]))
