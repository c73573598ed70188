"""A round that cannot be paired (docs/competitions.md, "A round that cannot be paired"):
no pairing meets the format's absolute rules (a Swiss whose players have all met, or
whose only player left for the bye has had one), or a Swiss declares more rounds than its
field can play. Said in words; the scheduler stops trying such a round, and its organisers
are told what they can do (end the section after its last round, or pair it by hand)."""

from __future__ import annotations

import logging
import zlib
from datetime import datetime
from itertools import combinations

from accounts.notices import Kind, NoticeSpec, notify_many
from league.formats import dutch, swiss
from league.models import PairingPlayer, Round, Section

from . import selectors
from .notices import broadcast_section, section_url

log = logging.getLogger(__name__)

#: What a format's pairing raises when no pairing satisfies its absolute rules.
UNPAIRABLE: tuple[type[Exception], ...] = (dutch.DutchError, swiss.PairingError)


def round_words(section: Section, round_: Round) -> str:
    """Why round N cannot be paired, in words: the players still in have all met, or none
    of them may have the bye, or (else) the rules in general."""
    number = round_.number
    active = selectors.active_user_ids(section, number)
    history = list(PairingPlayer.objects.filter(round__section=section, round__number__lt=number, user_id__in=active)
                   .values_list("user_id", "opponent_id", "played", "points"))
    met = {frozenset((user, opponent)) for user, opponent, played, _ in history if opponent is not None and played}
    no_bye = {user for user, opponent, played, points in history
              if opponent is None or (not played and (points or 0) > 0)}
    players = len(active)
    rules = "no two players meet twice, and no player who has had a bye or a win by forfeit has the bye again"
    if players < 2:
        why = f"fewer than two players are still in ({players})"
    elif all(frozenset(pair) in met for pair in combinations(active, 2)):
        why = f"the {players} players still in have all played each other"
    elif players % 2 and active <= no_bye:
        why = f"the {players} players still in are an odd number, and each has had a bye or a win by forfeit"
    else:
        why = f"no pairing of the {players} players still in keeps the rules"
    return f"Round {number} cannot be paired: {why} (FIDE's rules: {rules})."


def swiss_rounds_refusal(section: Section, players: int) -> str:
    """A Swiss that declares more rounds than ``players`` can play (nobody meets twice:
    at most players − 1), in words; "" when it can be paired that far, or may be: with late
    entries allowed the field can still grow (a round left unpairable then stops as above)."""
    if (section.format != Section.Format.SWISS or not section.rounds or section.rounds <= players - 1
            or section.late_entry_rounds):
        return ""
    # With fewer than two players no number of rounds helps: only more entries do.
    remedy = (f"Edit the section to {_rounds(players - 1)} or fewer (or empty: the recommended number), or wait "
              "for more entries." if players >= 2 else "Wait for more entries.")
    return (f"{section.name} cannot start: a Swiss of {_rounds(section.rounds)} needs at least {section.rounds + 1} "
            f"players (nobody meets anyone twice), and it has {players}. {remedy}")


def _rounds(count: int) -> str:
    return f"{count} round" if count == 1 else f"{count} rounds"


def mark(section: Section, round_: Round, words: str, now: datetime) -> None:
    """Keep why ``round_`` cannot be paired on it (the scheduler then leaves it alone) and
    tell the club's organisers, once per round and reason."""
    first_time = round_.unpairable != words
    round_.unpairable = words
    round_.save(update_fields=["unpairable"])
    if not first_time:
        return
    log.warning("section %s: %s", section.pk, words)
    tournament = section.tournament
    what = (f"End {section.name} after round {section.current_round} from its page, or pair round {round_.number} "
            "by hand (its pairings from a TRF, then publish them from the preview)."
            if section.current_round else "Edit the section, then start it from its page.")
    notify_many([NoticeSpec(
        recipient_id=user_id, kind=Kind.ORGANISING, cause=f"round-unpairable:{round_.pk}:{zlib.crc32(words.encode())}",
        message=f"{tournament.name}: {words} {what}"[:500], url=section_url(section),
        data={"tournament": tournament.pk, "section": section.pk, "round": round_.number, "at": now.isoformat()},
    ) for user_id in selectors.organiser_ids(tournament.club_id)])
    broadcast_section(section, {"event": "round-unpairable", "round": round_.number})
