"""What a result correction changes and what it leaves as it is, in words the console
says before the organiser confirms and again once it is done (docs/competitions.md,
"A correction"). A correction re-scores one pairing and recomputes the standings; it
never pairs a round again (FIDE's corrections don't), so in a format paired on the
scores the rounds paired since stand as they were paired, on the old scores."""

from __future__ import annotations

from league.models import Entry, Pairing, Round, Section

from .formats import format_of


def later_rounds_paired(pairing: Pairing) -> list[int]:
    """The numbers of the section's rounds after the pairing's that have their boards."""
    return list(Round.objects.filter(section_id=pairing.section_id, number__gt=pairing.round.number)
                .exclude(status=Round.Status.SCHEDULED).order_by("number").values_list("number", flat=True))


def rounds_words(numbers: list[int]) -> str:
    """"Round 4", "Rounds 4 and 5", "Rounds 4 to 9" (a run), "Rounds 4, 6 and 7"."""
    if len(numbers) == 1:
        return f"Round {numbers[0]}"
    if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"Rounds {numbers[0]} to {numbers[-1]}"
    return "Rounds " + ", ".join(str(n) for n in numbers[:-1]) + f" and {numbers[-1]}"


def correction_note(pairing: Pairing, *, done: bool = False) -> str:
    """What correcting ``pairing`` does beyond its own result, before (``done`` False) or
    after it: the rounds paired since (not paired again), the next round still to pair
    (on the corrected scores), a next stage already seeded, and the standings."""
    section: Section = pairing.section
    later = later_rounds_paired(pairing)
    said: list[str] = []
    if later and format_of(section).pairs_on_scores:
        were = "was" if len(later) == 1 else "were"
        is_not = were if done else "is" if len(later) == 1 else "are"
        said.append(f"{rounds_words(later)} {were} paired on the old scores and {is_not} not paired again: "
                    f"{'its' if len(later) == 1 else 'their'} pairings stand.")
    elif later and section.format == Section.Format.ROUND_ROBIN:
        said.append(f"{rounds_words(later)} keep{'s' if len(later) == 1 else ''} "
                    f"{'its' if len(later) == 1 else 'their'} pairings: a round robin's come from the Berger "
                    f"table, not the scores.")
    after = (later[-1] if later else pairing.round.number) + 1
    upcoming = Round.objects.filter(section_id=section.pk, number=after, status=Round.Status.SCHEDULED).first()
    if upcoming is not None and format_of(section).pairs_on_scores and section.status == Section.Status.RUNNING:
        if upcoming.pairing_override:
            said.append(f"Round {after} has the arbiter's pairings from a TRF: they are kept as set.")
        else:
            said.append(f"Round {after}, not paired yet, {'will be' if not done else 'is'} paired on the "
                        f"corrected scores.")
    seeded = [stage.name for stage in section.next_stages.all()
              if Entry.objects.filter(section=stage).exists()]
    if seeded:
        said.append(f"The next stage ({', '.join(seeded)}) was seeded from the old standings and is not seeded "
                    f"again.")
    recomputed = "were recomputed" if done else "are recomputed at once"
    told = ("; the players whose final place or points moved are told" if done else
            "; the players whose final place or points move are told") \
        if section.status == Section.Status.FINISHED else ""
    said.append(f"The standings {recomputed}{told}.")
    if pairing.game is not None and pairing.game.rated:
        said.append(f"A rating recompute from the game log {'was' if done else 'is'} queued.")
    return " ".join(said)
