"""Results announced (docs/competitions.md): a finished section's podium with its ties
and prizes, one notice to every entrant, the shareable results page and its image."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.urls import reverse
from PIL import Image

from accounts.models import GuardianConsent, Notice
from league import competitions as cs
from league.competitions import notices
from league.competitions.podium import JUNIOR, podium
from league.models import Rating, Section, Standing
from tests.factories import SectionFactory, players, section_with

from .support import decide, run_decided

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]

Kind = Notice.Kind


def rated(make_player, n: int, **kwargs):
    """``n`` players rated 2000, 1900, ...: the higher seed is the first."""
    users = players(make_player, n, **kwargs)
    for i, user in enumerate(users):
        Rating.objects.create(user=user, variant="classic", list_key="league", rating=2000 - 100 * i)
    return users


def results_url(section: Section, name: str = "section-results") -> str:
    t = section.tournament
    return reverse(f"competitions:{name}", args=[t.club.slug, t.slug, section.slug])


# -- the podium ------------------------------------------------------------------------------


def test_no_podium_before_the_end(make_player):
    section = section_with(rated(make_player, 4), format="swiss", rounds=2)
    assert podium(section) is None


@pytest.mark.parametrize("placements,thirds", [("none", 2), ("third", 1)])
def test_an_elimination_has_two_thirds_unless_a_third_place_match_was_played(make_player, placements, thirds):
    users = rated(make_player, 4)
    section = section_with(users, format="single-elimination", placements=placements)
    run_decided(section)  # the higher seed wins every match
    result = podium(section)
    assert result is not None
    assert [(s.place, [p.username for p in s.players]) for s in result.steps][:2] == [(1, ["p001"]), (2, ["p002"])]
    third = result.steps[2]
    assert third.place == 3 and len(third.players) == thirds
    assert third.label == ("3rd (shared)" if thirds == 2 else "3rd")
    assert result.headline() == f"{users[0].name} won"


def test_a_shared_first_place_is_shown_as_shared_and_the_next_place_is_third(make_player):
    users = rated(make_player, 4)
    section = section_with(users, format="round-robin")
    run_decided(section)
    # Two players tied on everything share a rank (league/formats/tiebreaks.py): as if so.
    Standing.objects.filter(section=section, user=users[1]).update(rank=1)
    Standing.objects.filter(section=section, user=users[2]).update(rank=3)
    result = podium(section)
    assert result is not None
    assert [(s.place, len(s.players)) for s in result.steps] == [(1, 2), (3, 1)]
    assert result.headline() == f"{users[0].name} and {users[1].name} shared first place"


def test_the_podium_lists_place_age_and_rating_prizes_with_their_winners(make_player):
    adults = rated(make_player, 3)
    kid = make_player(username="kid", born=date(2016, 3, 3))
    Rating.objects.create(user=kid, variant="classic", list_key="league", rating=1200)
    section = section_with([*adults, kid], format="round-robin", start=False)
    cs.add_prize(section=section, label="Gold", value="a cup")
    cs.add_prize(section=section, kind="age", age_under=12, label="Junior prize")
    cs.add_prize(section=section, kind="rating", rating_below=1850, label="Under 1850")
    cs.start_round(section_id=section.pk, number=1, force=True)
    run_decided(section)
    result = podium(section)
    assert result is not None
    shown = [(p.label, p.what, p.winner.username if p.winner else None) for p in result.prizes]
    assert shown == [("Gold", "1st place", "p001"), ("Junior prize", "Best U12", "kid"),
                     ("Under 1850", "Best rated below 1850", "p003")]


# -- notices ---------------------------------------------------------------------------------


def test_every_entrant_withdrawn_ones_included_is_told_once_with_their_place(make_player):
    users = rated(make_player, 5)
    section = section_with(users, format="swiss", rounds=2)
    cs.withdraw(section=section, user=users[4], reason="Went home")  # mid-event: stays in the standings
    run_decided(section)
    told = {n.recipient_id: n for n in Notice.objects.filter(kind=Kind.TOURNAMENT_FINISHED)}
    assert set(told) == {u.pk for u in users}
    table = {row.user_id: row.rank for row in Standing.objects.filter(section=section)}
    for user in users:
        notice = told[user.pk]
        assert notice.data["place"] == table[user.pk]
        assert f"{users[0].name} won" in notice.message
        assert notice.url == results_url(section)
    assert "Congratulations: you placed 1 of 5" in told[users[0].pk].message
    # A retried task, or the announcement made again, writes nothing more.
    cs.sweep()
    notices.notify_section_finished(section)
    assert Notice.objects.filter(kind=Kind.TOURNAMENT_FINISHED).count() == 5


def test_a_section_that_ends_first_announces_itself_before_the_tournament_ends(make_player):
    users = rated(make_player, 4)
    fast = section_with(users[:2], format="single-elimination", tournament="Two fields")
    slow = SectionFactory.create(tournament=fast.tournament, name="Slow", format="swiss", rounds=3,
                                 players=users[2:], starts_at=fast.starts_at)
    decide(fast)
    cs.sweep()
    fast.refresh_from_db()
    slow.refresh_from_db()
    assert fast.status == Section.Status.FINISHED and slow.status != Section.Status.FINISHED
    told = Notice.objects.filter(kind=Kind.TOURNAMENT_FINISHED)
    assert sorted(n.recipient_id for n in told) == sorted(u.pk for u in users[:2])
    assert all(n.data["section"] == fast.pk for n in told)


# -- the results page and image ----------------------------------------------------------------


def test_the_results_page_shows_the_podium_the_table_and_a_link_card(client, make_player):
    users = rated(make_player, 4)
    GuardianConsent.objects.create(user=users[1], guardian_name="Parent", guardian_email="parent@example.org")
    section = section_with(users, format="single-elimination", placements="third")
    run_decided(section)
    page = client.get(results_url(section))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="podium-heading"' in html and "Standings (final)" in html
    image_url = results_url(section, "section-results-image")
    assert f'<meta property="og:image" content="http://testserver{image_url}">' in html
    assert '<meta property="og:title"' in html
    # The link card leaves the site: a child is not named there; the page names them as the standings do.
    card = html.split('<meta property="og:description" content="')[1].split('"')[0]
    assert JUNIOR in card and users[1].name not in card and users[0].name in card
    assert users[1].name in html
    # The section page shows the same podium, with a link to this page.
    section_page = client.get(reverse("competitions:section", args=[section.tournament.club.slug,
                                                                     section.tournament.slug, section.slug]))
    assert 'id="podium-heading"' in section_page.content.decode()
    assert results_url(section) in section_page.content.decode()


def test_a_correction_after_the_finish_tells_those_it_moves_and_the_two_players(make_player):
    """Seeds A > B > C > D, round robin, the higher seed wins every game: A 3, B 2, C 1,
    D 0. The arbiter corrects A v B to B's win: B first, A second; C and D keep their
    places and points and hear nothing more."""
    a, b, c, d = users = rated(make_player, 4)
    section = section_with(users, format="round-robin")
    run_decided(section)
    pairing = section.pairings.get(first__in=[a, b], second__in=[a, b])
    corrected = "0-1" if pairing.first_id == a.pk else "1-0"
    cs.correct_result(pairing_id=pairing.pk, result=corrected, reason="The scoresheet says so")
    told = {n.recipient_id: n for n in Notice.objects.filter(cause__startswith="result-corrected:")}
    assert set(told) == {a.pk, b.pk}
    table = {row.user_id: (row.rank, row.points) for row in Standing.objects.filter(section=section)}
    assert table[b.pk] == (1, 3) and table[a.pk] == (2, 2) and table[c.pk] == (3, 1) and table[d.pk] == (4, 0)
    assert f"{b.name} won (The scoresheet says so)" in told[a.pk].message
    assert "You placed 2 of 4 with 2 points (before the correction: 1)" in told[a.pk].message
    assert "You placed 1 of 4 with 3 points (before the correction: 2)" in told[b.pk].message
    assert told[b.pk].data["place"] == 1 and told[b.pk].data["was"] == 2
    assert f"{b.name} won" in told[b.pk].message.split("). ")[-1]  # the new headline
    # Corrected back: a new notice each, the earlier ones kept.
    cs.correct_result(pairing_id=pairing.pk, result="1-0" if corrected == "0-1" else "0-1", reason="Misread")
    assert Notice.objects.filter(cause__startswith="result-corrected:").count() == 4


def test_the_results_image_is_a_png_of_the_card_size_cached_by_its_table(client, make_player):
    section = section_with(rated(make_player, 4), format="round-robin")
    run_decided(section)
    response = client.get(results_url(section, "section-results-image"))
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    assert image.format == "PNG" and image.size == (1200, 630)
    assert "max-age=300" in response["Cache-Control"] and "public" in response["Cache-Control"]
    etag = response["ETag"]
    assert str(section.pk) in etag
    again = client.get(results_url(section, "section-results-image"), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    # A correction after the finish changes the table, so the image and its ETag.
    pairing = section.pairings.filter(result="1-0").first()
    cs.correct_result(pairing_id=pairing.pk, result="0-1", reason="The scoresheet says so")
    redrawn = client.get(results_url(section, "section-results-image"), HTTP_IF_NONE_MATCH=etag)
    assert redrawn.status_code == 200 and redrawn["ETag"] != etag and redrawn.content != response.content


def test_before_the_end_the_page_says_when_and_there_is_no_image(client, make_player):
    section = section_with(rated(make_player, 4), format="swiss", rounds=2)
    page = client.get(results_url(section))
    assert page.status_code == 200
    html = page.content.decode()
    assert "The results are announced here when" in html and "og:image" not in html
    assert 'id="podium-heading"' not in html
    assert client.get(results_url(section, "section-results-image")).status_code == 404


def test_a_draft_tournaments_results_are_not_found(client, make_player):
    section = section_with(rated(make_player, 2), format="swiss", rounds=1, start=False)
    section.tournament.status = "draft"
    section.tournament.save(update_fields=["status"])
    assert client.get(results_url(section)).status_code == 404
    assert client.get(results_url(section, "section-results-image")).status_code == 404


def test_the_image_draws_accented_names_when_the_server_has_a_full_font():
    from pathlib import Path

    from league.views.results import FONT_FILES, _font

    if not any(Path(path).exists() for path in FONT_FILES):
        pytest.skip("no system font with accents on this machine (Pillow's own is used)")
    font = _font(40)
    missing = font.getmask("\U000f0000").getbbox()  # a private-use letter no font draws: the "missing" box
    assert font.getmask("í").getbbox() != missing and font.getmask("Ł").getbbox() != missing
