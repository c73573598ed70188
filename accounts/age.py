"""Age rules, as pure functions (no Django).

Three different questions, kept apart on purpose:

1. May this person use the service on their own? Each country sets a digital-consent
   age (GDPR Art. 8 lets EU states choose 13 to 16; the UK uses 13; the US, under
   COPPA, 13). The rule texts' Nine-Square page sets the platform's own rule for the
   EU: citizens of an EU member nation may not use the service under 16. Below the
   age a guardian must consent (see docs/accounts.md).
2. May this person be entered in play? The FAQ: infants are too young; the age group
   4 to 104 is a guideline, shown but never enforced above; 105 and older are welcome.
3. Which competition age groups fit this person? By birth year as FIDE's youth
   categories (U8 to U18) and seniors (50+, 65+) do, or by age on a cutoff date.

Birthdays on 29 February: in a year with no such day the birthday is taken as
1 March (the person has not yet had their birthday on 28 February), as UK law does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

#: EU member states (ISO 3166-1 alpha-2). The service's own rule for them is 16.
EU_MEMBERS = frozenset(
    ["AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "IE", "IT", "LV", "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE"]
)
#: Parts of member states that are in the EU but have an ISO code of their own: the
#: outermost regions (TFEU Art. 349: French Guiana, Guadeloupe, Martinique, Mayotte,
#: Réunion, Saint-Martin) and Åland. Their people are the member's citizens; without
#: them a 14-year-old chose "Réunion" and signed up without a guardian (rules probe).
EU_TERRITORIES = frozenset(["GF", "GP", "MQ", "YT", "RE", "MF", "AX"])
#: The overseas countries and territories (TFEU Annex II) outside the EU whose people
#: are citizens of a member state, so of the Union: the rule is about citizens
#: (French Polynesia, New Caledonia, Wallis and Futuna, Saint-Pierre-et-Miquelon,
#: Saint-Barthélemy, the French Southern Lands, Aruba, Curaçao, Sint Maarten, the
#: Caribbean Netherlands, Greenland). Not the Faroes: Danish nationals living there are
#: not nationals of a member state under the Treaties (Denmark's accession protocol).
EU_CITIZENS_TERRITORIES = frozenset(["PF", "NC", "WF", "PM", "BL", "TF", "AW", "CW", "SX", "BQ", "GL"])
EU_SERVICE_AGE = 16

#: Digital-consent ages outside the EU; countries not listed use DEFAULT_CONSENT_AGE.
CONSENT_AGE_BY_COUNTRY: dict[str, int] = {
    **{code: EU_SERVICE_AGE for code in EU_MEMBERS | EU_TERRITORIES | EU_CITIZENS_TERRITORIES},
    "GB": 13,  # UK GDPR / Data Protection Act 2018, s.9
    "US": 13,  # COPPA
    "CA": 13,
    "IS": 13,  # EEA states set their own GDPR Art. 8 age
    "NO": 13,
    "LI": 16,
    "CH": 16,
}
DEFAULT_CONSENT_AGE = 13

#: The FAQ's guideline ("ages 4 to 104"); only the lower end is enforced.
GUIDELINE_MIN_AGE = 4
GUIDELINE_MAX_AGE = 104

YOUTH_CATEGORIES = (8, 10, 12, 14, 16, 18)
SENIOR_CATEGORIES = (50, 65)


#: A date of birth as the page's date box sends it and the API takes it: ASCII digits.
PLAIN_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_plain_date(text: str) -> date | None:
    """``YYYY-MM-DD`` and nothing else, or None. Every age rule reads this date, so the
    reading is one, not one of many: Python's ``date.fromisoformat`` (under Django's
    ``parse_date`` and DRF's) also reads ``20130101``, ISO week dates (``2000-W01-1``)
    and digits other than ASCII ones; Django's form field ``01/02/2013``, which it reads
    as 2 January and most of the world as 1 February."""
    if not PLAIN_DATE.fullmatch(text):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:  # a day the calendar lacks: 2013-02-30, 0000-01-01
        return None


def age_on(birth_date: date, on: date) -> int:
    """Whole years of age on ``on``. Before birth it is an error, not a negative age."""
    if on < birth_date:
        raise ValueError("The date is before the date of birth.")
    had_birthday = (on.month, on.day) >= (birth_date.month, birth_date.day)
    return on.year - birth_date.year - (0 if had_birthday else 1)


def consent_age(country: str | None) -> int:
    """The age from which a person of ``country`` may use the service alone."""
    return CONSENT_AGE_BY_COUNTRY.get((country or "").upper(), DEFAULT_CONSENT_AGE)


@dataclass(frozen=True)
class AccessDecision:
    """Whether a person may use the service alone, and if not, why in words."""

    allowed: bool
    needs_guardian_consent: bool
    age: int
    consent_age: int
    reason: str = ""


def service_access(birth_date: date, country: str | None, today: date) -> AccessDecision:
    """May someone born on ``birth_date``, of ``country``, use the service alone today?"""
    if birth_date > today:
        raise ValueError("A date of birth cannot be in the future.")
    age = age_on(birth_date, today)
    needed = consent_age(country)
    if age >= needed:
        return AccessDecision(True, False, age, needed)
    code = (country or "").upper()
    where = "in the European Union" if code in EU_MEMBERS | EU_TERRITORIES else \
        "who are citizens of the European Union" if code in EU_CITIZENS_TERRITORIES else "where you live"
    reason = (
        f"People under {needed} {where} need a parent's or guardian's consent to use the platform. "
        "Ask them to confirm it for you."
    )
    return AccessDecision(False, True, age, needed, reason)


@dataclass(frozen=True)
class PlayDecision:
    allowed: bool
    reason: str = ""
    note: str = ""


def play_eligibility(birth_date: date, today: date) -> PlayDecision:
    """May this person be entered in play? Under 4 is too young; there is no upper limit."""
    age = age_on(birth_date, today)
    if age < GUIDELINE_MIN_AGE:
        return PlayDecision(
            False,
            reason=f"Players must be at least {GUIDELINE_MIN_AGE} to be entered in play "
            f"(the rules: infants are too young); this player is {age}.",
        )
    if age > GUIDELINE_MAX_AGE:
        return PlayDecision(
            True,
            note=f"The rules suggest ages {GUIDELINE_MIN_AGE} to {GUIDELINE_MAX_AGE}, "
            "and players of 105 and older are still welcome.",
        )
    return PlayDecision(True)


# -- competition age groups ---------------------------------------------------------


def youth_category_allows(birth_year: int, season_year: int, under: int) -> bool:
    """FIDE youth category U``under`` in ``season_year``: born in season_year - under or later."""
    return birth_year >= season_year - under


def senior_category_allows(birth_year: int, season_year: int, over: int) -> bool:
    """FIDE seniors ``over``+: the age is reached by 31 December of ``season_year``."""
    return season_year - birth_year >= over


def age_group_refusal(
    birth_date: date,
    *,
    season_year: int | None = None,
    under: int | None = None,
    over: int | None = None,
    cutoff: date | None = None,
    min_age: int | None = None,
    max_age: int | None = None,
) -> str:
    """Why this person is outside the age group, in words; "" when they fit.

    By birth year (``season_year`` with ``under`` or ``over``) or by age on ``cutoff``
    (``min_age`` and/or ``max_age``, both inclusive).
    """
    if under is not None or over is not None:
        if season_year is None:
            raise ValueError("Birth-year age groups need the season's year.")
        if under is not None and not youth_category_allows(birth_date.year, season_year, under):
            return (
                f"Born {birth_date.year}, and this U{under} section is for players born "
                f"{season_year - under} or later."
            )
        if over is not None and not senior_category_allows(birth_date.year, season_year, over):
            return (
                f"Born {birth_date.year}, and this {over}+ section is for players born "
                f"{season_year - over} or earlier."
            )
    if min_age is not None or max_age is not None:
        if cutoff is None:
            raise ValueError("Age limits need a cutoff date.")
        if cutoff < birth_date:
            return f"Not yet born on the cutoff date {cutoff.isoformat()}."
        age = age_on(birth_date, cutoff)
        if min_age is not None and age < min_age:
            return f"Aged {age} on {day_words(cutoff)}, and this section is for ages {min_age} and over."
        if max_age is not None and age > max_age:
            return f"Aged {age} on {day_words(cutoff)}, and this section is for ages up to {max_age}."
    return ""


def day_words(day: date) -> str:
    """A day as the pages write it: "Tue 1 Sep 2026" (English names, whatever the locale)."""
    days, months = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    return f"{days[day.weekday()]} {day.day} {months[day.month - 1]} {day.year}"
