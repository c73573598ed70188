"""A finished section's podium and prizes, read from its final standings
(``selectors.standings``) and its awarded prizes: what the section page, the results
page, the results image and the entrants' notices all say (docs/competitions.md,
"Results announced")."""

from __future__ import annotations

from dataclasses import dataclass, field

from accounts.models import GuardianConsent
from league.models import Prize, Section

from . import event_selectors, selectors

#: How a child (an account opened with a guardian's consent) is named where the result
#: leaves the site: the shared image and the link card (docs/accounts.md: children are
#: not offered to strangers).
JUNIOR = "A junior player"

PODIUM_PLACES = 3


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True)
class Finisher:
    user_id: int
    username: str
    name: str
    rank: int
    points: float
    child: bool
    #: A knockout: how far they got ("Runner-up (lost the final)"), said instead of points
    progress: str = ""
    #: The tie-breaks' (heading, value) in the section's order: who is ahead of whom on equal points
    tiebreaks: tuple[tuple[str, float], ...] = ()

    @property
    def points_words(self) -> str:
        return f"{self.points:g} point" + ("" if self.points == 1 else "s")

    def placed(self, players: int) -> str:
        """The notices' "placed 2 of 8 with 5 points" (a knockout: "placed 2 of 8: Runner-up ...")."""
        return f"placed {self.rank} of {players}" + (f": {self.progress}" if self.progress else
                                                      f" with {self.points_words}")

    @property
    def summary(self) -> str:
        """What the podium says beside the name: a knockout's progress, else the points."""
        return self.progress or self.points_words

    @property
    def public_name(self) -> str:
        """The name for the image and the link card, which anyone may be shown."""
        return JUNIOR if self.child else self.name


@dataclass(frozen=True)
class Step:
    """One step of the podium: a place and everyone sharing it."""

    place: int
    players: list[Finisher]

    @property
    def label(self) -> str:
        return ordinal(self.place) + (" (shared)" if len(self.players) > 1 else "")


@dataclass(frozen=True)
class AwardedPrize:
    label: str
    value: str
    what: str  # the prize's rule in words: "2nd place", "Best U12", "Best rated below 1400"
    winner: Finisher | None


@dataclass
class Podium:
    section: Section
    steps: list[Step]
    prizes: list[AwardedPrize]
    table: list[Finisher] = field(default_factory=list)

    @property
    def winners(self) -> list[Finisher]:
        return self.steps[0].players if self.steps else []

    def winners_words(self, *, public: bool = False) -> str:
        names = [p.public_name if public else p.name for p in self.winners]
        if not names:
            return "nobody"
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    @property
    def ties_broken(self) -> list[str]:
        """Why one step is above the next on equal points, in words ("Kofi is ahead of
        Lucía on DE (1 to 0), both on 3.5 points"): "Kofi won" over a Lucía with as many
        points read as a mistake, with the reason only in the table's columns below."""
        notes = []
        for upper, lower in zip(self.steps, self.steps[1:], strict=False):
            above, below = upper.players[-1], lower.players[0]
            if above.progress or above.points != below.points:
                continue
            for (label, mine), (_, theirs) in zip(above.tiebreaks, below.tiebreaks, strict=False):
                if mine != theirs:
                    notes.append(f"{above.name} is ahead of {below.name} on {label} ({mine:g} to {theirs:g}), "
                                 f"both on {above.points_words}")
                    break
        return notes

    def headline(self, *, public: bool = False) -> str:
        """'Mei won' or 'Mei and Arnav shared first place'."""
        if len(self.winners) > 1:
            return f"{self.winners_words(public=public)} shared first place"
        return f"{self.winners_words(public=public)} won"


def prize_words(prize: Prize) -> str:
    best = "Best" if prize.place == 1 else f"{ordinal(prize.place)} best"
    if prize.kind == Prize.Kind.AGE:
        group = f"U{prize.age_under}" if prize.age_under is not None else f"{prize.age_over}+"
        return f"{best} {group}"
    if prize.kind == Prize.Kind.RATING:
        return f"{best} rated below {prize.rating_below}"
    return f"{ordinal(prize.place)} place"


def podium(section: Section) -> Podium | None:
    """The podium of a finished section (None before it finishes): places 1 to 3 from the
    final standings, players sharing a place together on one step (so a place may be
    missing after a shared one: two 1st, then 3rd; an elimination without a third-place
    match has two 3rd), then its prizes with their winners, then the whole table. An
    earlier stage of a multi-stage event has none: its result is who goes through, and
    the last stage's podium is the event's."""
    if section.status != Section.Status.FINISHED or section.next_stages.exists():
        return None
    rows = list(selectors.standings(section).select_related("user__profile"))
    children = set(GuardianConsent.objects.filter(user_id__in=[r.user_id for r in rows])
                   .values_list("user_id", flat=True))
    progress = event_selectors.knockout_progress(section) or {}
    columns = event_selectors.tiebreak_columns(section)
    table = [Finisher(r.user_id, r.user.username, r.user.name, r.rank, r.points, r.user_id in children,
                      progress[r.user_id].words if r.user_id in progress else "",
                      tuple((c.label, float((r.tiebreaks or {}).get(c.name, 0))) for c in columns))
             for r in rows]
    by_user = {f.user_id: f for f in table}
    steps: list[Step] = []
    for finisher in table:
        if finisher.rank > PODIUM_PLACES:
            break
        if steps and steps[-1].place == finisher.rank:
            steps[-1].players.append(finisher)
        else:
            steps.append(Step(finisher.rank, [finisher]))
    prizes = [AwardedPrize(p.label, p.value, prize_words(p), by_user.get(p.winner_id) if p.winner_id else None)
              for p in selectors.prizes_in_order(section)]
    return Podium(section, steps, prizes, table)
