"""The league app's models, one module per domain; every model is re-exported here so
Django (and ``from league.models import X``) finds them under the app label "league"."""

from .clubs import ORGANISER_ROLES, Club, ClubMembership, JoinRequest
from .competitions import (
    CalendarFeed,
    Entry,
    League,
    Pairing,
    PairingPlayer,
    Prize,
    Round,
    Season,
    Section,
    Standing,
    Tournament,
)
from .ratings import (
    LEAGUE_LIST,
    PeriodGame,
    Rating,
    RatingAdjustment,
    RatingChange,
    RatingLedger,
    RatingPeriod,
    RatingSystem,
    RecomputeRun,
    club_list_key,
)

__all__ = [
    "LEAGUE_LIST",
    "ORGANISER_ROLES",
    "CalendarFeed",
    "Club",
    "ClubMembership",
    "Entry",
    "JoinRequest",
    "League",
    "Pairing",
    "PairingPlayer",
    "PeriodGame",
    "Prize",
    "Rating",
    "RatingAdjustment",
    "RatingChange",
    "RatingLedger",
    "RatingPeriod",
    "RatingSystem",
    "RecomputeRun",
    "Round",
    "Season",
    "Section",
    "Standing",
    "Tournament",
    "club_list_key",
]
