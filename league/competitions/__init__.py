"""Writes for competitions: tournaments, sections, entries, rounds, results, standings.

The only code that changes competition rows; callers use the services named here
(``from league import competitions``). Each is one transaction; a section's row is
locked (SELECT ... FOR UPDATE) first, so a round starts once and results are recorded
one at a time whatever Celery delivers twice. The database has the last word: one round
per number, one pairing per player per round, one pairing per bracket match. Pairing
itself is the section's format (``formats``, on the pure league/formats/); games are
created through games.services; players hear of their pairing after commit, on their
user group.

Lifecycle (docs/competitions.md): create_section schedules round 1 (a one-off
django-celery-beat task) -> start_round pairs it and creates the games -> each game's
end (games' game_finished signal -> league.record_game_result task) scores its pairing
-> the round's last result schedules the next round, or finishes the section.

Modules, one concern each (lower ones never import higher ones): ``notices`` (what
players and pages hear), ``scheduling`` (beat tasks, sends), ``stages`` (multi-stage events), ``sections`` (tournaments,
sections, prizes, the section lock), ``pairings`` (a pairing's rows, games and score),
``results``, ``rounds``, ``entries``, ``operations`` (the arbiter's decisions),
``arbiter`` (a round previewed, TRF-16 out, a round's pairings set from a TRF),
``arena_pause`` (an arena's players away and back).
"""

from .arbiter import preview_round, section_trf, set_round_pairings
from .arena_pause import pause_player, player_back
from .entries import check_in, register, withdraw
from .notices import section_group
from .operations import (
    adjudicate_pairing,
    correct_result,
    forfeit_pairing,
    pause_section,
    repair_round,
    resume_section,
)
from .pairings import pairing_for_game
from .results import forfeit_no_show, rate_tournament, record_game_result, tournament_games
from .rounds import finish_arena, pair_arena, restart_aborted, start_round, sweep
from .sections import add_prize, create_section, create_tournament, set_swiss_pairing
from .stages import carry_over_stage

__all__ = [
    "add_prize", "adjudicate_pairing", "carry_over_stage", "check_in", "correct_result", "create_section", "create_tournament",
    "finish_arena", "forfeit_no_show", "forfeit_pairing", "pair_arena", "pairing_for_game", "pause_player", "pause_section",
    "player_back", "preview_round", "rate_tournament", "record_game_result", "register", "repair_round", "restart_aborted", "resume_section",
    "section_group", "section_trf", "set_round_pairings", "set_swiss_pairing", "start_round", "sweep", "tournament_games",
    "withdraw",
]
