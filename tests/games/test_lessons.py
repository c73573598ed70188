"""Guided lessons on the real database: starting and resuming a lesson game, the script
refusing a move off the lesson with its hint, the coach's scripted replies, progress kept
per player, and lesson games kept out of ratings, lobby and other players' hands."""

from __future__ import annotations

import html
import re

import pytest

from accounts.errors import ServiceError
from games import lesson_service, selectors, services
from games.lessons import BY_SLUG, LESSONS
from games.models import Game, LessonProgress, Move
from tests.sockets import pushed_board

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def learner(make_player):
    return make_player(username="learner")


def _play_lesson(game: Game, user, *, until: int | None = None) -> Game:
    """The learner plays the script's moves, the coach answering through the service the
    Celery task calls (as the platform does, without its worker)."""
    lesson = BY_SLUG[game.lesson]
    for step in lesson.steps[lesson_service.steps_done(lesson, game.moves.all()):until]:
        game.refresh_from_db()
        while lesson.coach_seat in game.to_move and lesson.learner_seat not in game.to_move:
            services.play_ai_move(game_id=game.pk, ply=game.ply)
            game.refresh_from_db()
        services.submit_move(game_id=game.pk, user=user, ply=game.ply, move=step.move)
        game.refresh_from_db()
        while game.status == Game.Status.ACTIVE and lesson.coach_seat in game.to_move and \
                lesson.learner_seat not in game.to_move:
            if services.play_ai_move(game_id=game.pk, ply=game.ply) is None:
                break
            game.refresh_from_db()
    return game


def test_a_lesson_starts_at_its_set_up_and_is_resumed_not_doubled(learner):
    game = lesson_service.start_lesson(user=learner, slug="nine-square")
    assert game.lesson == "nine-square" and game.status == Game.Status.ACTIVE
    assert not game.rated and game.seed == "lesson-1660"
    assert game.ply == 2 and list(Move.objects.filter(game=game).values_list("seat", flat=True)) == [0, 1]
    assert game.seats.get(number=0).user == learner and game.seats.get(number=1).ai_level
    assert game.state["roll"] == 3  # the script's known roll
    assert lesson_service.start_lesson(user=learner, slug="nine-square").pk == game.pk
    assert Game.objects.filter(lesson="nine-square").count() == 1
    assert LessonProgress.objects.get(user=learner, lesson="nine-square").steps_done == 0


def test_a_move_off_the_lesson_is_refused_with_the_hint_and_nothing_is_stored(learner):
    game = lesson_service.start_lesson(user=learner, slug="classic")
    with pytest.raises(ServiceError) as err:
        services.submit_move(game_id=game.pk, user=learner, ply=0, move={"cell": 1})
    assert err.value.code == "off-lesson"
    assert BY_SLUG["classic"].steps[0].hint in err.value.message
    game.refresh_from_db()
    assert game.ply == 0 and not Move.objects.filter(game=game).exists()


def test_the_coach_plays_its_scripted_reply_and_progress_is_saved(learner):
    game = lesson_service.start_lesson(user=learner, slug="classic")
    services.submit_move(game_id=game.pk, user=learner, ply=0, move={"cell": 5})
    services.play_ai_move(game_id=game.pk, ply=1)
    assert Move.objects.get(game=game, ply=2).move == {"cell": 1}  # the script, not the AI's choice
    progress = LessonProgress.objects.get(user=learner, lesson="classic")
    assert progress.steps_done == 1 and progress.completed_at is None


@pytest.mark.parametrize("slug", [lesson.slug for lesson in LESSONS])
def test_every_lesson_plays_to_its_end_on_the_platform(learner, slug):
    game = _play_lesson(lesson_service.start_lesson(user=learner, slug=slug), learner)
    progress = LessonProgress.objects.get(user=learner, lesson=slug)
    assert progress.steps_done == len(BY_SLUG[slug].steps) and progress.completed_at is not None
    if slug != "nine-square":  # Nine-Square plays on after its lesson
        assert game.status == Game.Status.FINISHED and game.winner_seat == 0 and not game.rated
    # A new start after the end is a fresh attempt; the progress stays complete.
    again = lesson_service.start_lesson(user=learner, slug=slug)
    if game.status == Game.Status.FINISHED:
        assert again.pk != game.pk
    assert LessonProgress.objects.get(user=learner, lesson=slug).completed_at is not None


def test_after_the_last_step_moves_are_free(learner):
    game = _play_lesson(lesson_service.start_lesson(user=learner, slug="nine-square"), learner)
    assert game.status == Game.Status.ACTIVE
    while 1 in game.to_move:
        services.play_ai_move(game_id=game.pk, ply=game.ply)
        game.refresh_from_db()
    state = game.state
    empty = [i for i, c in enumerate("".join(state["board"])) if c == "."][: state["roll"]]
    move = {"marks": [[i // 9 + 1, i % 9 + 1] for i in empty]}
    services.submit_move(game_id=game.pk, user=learner, ply=game.ply, move=move)


def test_lesson_games_are_in_no_lobby_list(learner, make_player):
    lesson_service.start_lesson(user=learner, slug="classic")
    lists = selectors.lobby_games(make_player(username="other"))
    assert all(not any(g.lesson for g in games) for games in lists.values())
    assert not any(g.lesson for g in selectors.lobby_games(learner)["active"])


def test_another_player_cannot_move_in_your_lesson(learner, make_player):
    game = lesson_service.start_lesson(user=learner, slug="classic")
    with pytest.raises(ServiceError) as err:
        services.submit_move(game_id=game.pk, user=make_player(username="intruder"), ply=0, move={"cell": 5})
    assert err.value.code == "not-a-player"


def test_an_unknown_lesson_is_refused(learner):
    with pytest.raises(ServiceError) as err:
        lesson_service.start_lesson(user=learner, slug="chess")
    assert err.value.code == "no-such-lesson"


# -- the pages ------------------------------------------------------------------------------


def test_visitors_see_the_lessons_and_are_asked_to_sign_in(client):
    page = client.get("/learn/").content.decode()
    assert "<title>Learn to play" in page
    assert page.count('class="card" id="lesson-') == 8
    assert "to start a lesson" in page and "Start</button>" not in page
    response = client.post("/learn/classic/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Game.objects.filter(lesson="classic").exists()


def test_the_lesson_page_follows_the_learner(client, learner):
    client.force_login(learner)
    assert "Not started" in client.get("/learn/").content.decode()
    response = client.post("/learn/classic/")
    game = Game.objects.get(lesson="classic")
    assert response.status_code == 302 and response["Location"] == f"/play/{game.pk}/"
    page = client.get(f"/play/{game.pk}/").content.decode()
    assert 'id="lesson-panel"' in page and page.count('id="lesson-panel"') == 1
    assert "Step 1 of 4" in page and "Take the centre, square 5" in page
    # Named as a lesson, with no seed to check (a walkthrough saw "Game 27" and a seed hash).
    from games.lessons import get_lesson

    assert f"<h1>Lesson: {get_lesson('classic').title}</h1>" in page and "Seed hash" not in page
    _play_lesson(game, learner, until=1)
    board = pushed_board(game.pk, learner)
    assert "Step 2 of 4" in board and "put X on square 3" in board
    index = client.get("/learn/").content.decode()
    assert "Step 2 of 4" in index and "Continue</button>" in index
    _play_lesson(Game.objects.get(pk=game.pk), learner)
    board = pushed_board(game.pk, learner)
    # The button names the next lesson itself (three Tic Tac Two lessons share a variant).
    assert ">Lesson complete<" in board and "Next lesson: Tactic-Toe: plans that bounce</button>" in board
    assert "/play/?variant=classic" in board
    assert "Rematch" not in board  # a lesson is started again from /learn/
    index = client.get("/learn/").content.decode()
    assert "✓ Done" in index and "Replay</button>" in index


def test_a_lesson_cannot_be_watched_by_anyone_but_its_learner(client, learner, make_player):
    """A lesson is listed nowhere, and its id no longer opens it to others (the page, the
    API's detail; the socket asks the same ``check_watch``)."""
    game = lesson_service.start_lesson(user=learner, slug="classic")
    assert client.get(f"/play/{game.pk}/").status_code == 403  # anonymous
    client.force_login(make_player(username="watcher"))
    page = client.get(f"/play/{game.pk}/")
    assert page.status_code == 403 and 'id="lesson-panel"' not in page.content.decode()
    detail = client.get(f"/api/v1/games/{game.pk}/")
    assert detail.status_code == 403 and detail.json()["code"] == "private-lesson"
    client.force_login(learner)
    assert client.get(f"/play/{game.pk}/").status_code == 200


def test_a_move_off_the_lesson_over_the_api_is_a_clear_400(client, learner):
    game = lesson_service.start_lesson(user=learner, slug="classic")
    client.force_login(learner)
    response = client.post(f"/api/v1/games/{game.pk}/moves/", {"ply": 0, "move": {"cell": 9}},
                           content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "off-lesson" and "square 5" in response.json()["message"]
    assert Game.objects.get(pk=game.pk).ply == 0


def test_the_steps_move_under_another_name_is_taken(learner):
    """Tic Tac Two names a Wall by the square above or to the left; the other square's
    name for the same border is the same move, as a board's aiming may send it."""
    game = lesson_service.start_lesson(user=learner, slug="tic-tac-two-wall")
    lesson = BY_SLUG["tic-tac-two-wall"]
    game = _play_lesson(game, learner, until=3)
    assert lesson.steps[3].move == {"type": "wall", "cell": 7, "side": "right"}
    with pytest.raises(ServiceError):
        services.submit_move(game_id=game.pk, user=learner, ply=game.ply, move={"type": "wall", "cell": 3, "side": "right"})
    services.submit_move(game_id=game.pk, user=learner, ply=game.ply, move={"type": "wall", "cell": 8, "side": "left"})
    assert LessonProgress.objects.get(user=learner, lesson="tic-tac-two-wall").steps_done == 4


def test_the_coach_is_called_the_coach(learner):
    """A lesson's AI seat reads "Coach" on the page and in the payload; a real game's AI
    keeps its level."""
    game = lesson_service.start_lesson(user=learner, slug="classic")
    names = [s["name"] for s in selectors.game_payload(selectors.load_game(game.pk), 0)["seats"]]
    assert names == [learner.name, "Coach"]
    Game.objects.filter(pk=game.pk).update(lesson="")
    names = [s["name"] for s in selectors.game_payload(selectors.load_game(game.pk), 0)["seats"]]
    assert names[1].startswith("AI (")


def test_a_lesson_page_shows_no_clock_and_no_idle_warning(client, learner):
    game = lesson_service.start_lesson(user=learner, slug="classic")
    client.force_login(learner)
    html = client.get(f"/play/{game.pk}/").content.decode()
    assert 'class="clock' not in html and "idle-note" not in html
    assert "Coach" in html


def test_a_lessons_rule_set_is_never_offered_nor_taken_for_a_real_game(client, learner, make_player):
    game = lesson_service.start_lesson(user=learner, slug="classic")
    lesson_rules = game.rule_set
    assert lesson_rules.for_lessons
    assert lesson_rules not in selectors.current_rule_sets()
    client.force_login(learner)
    assert f'value="{lesson_rules.pk}"' not in client.get("/play/").content.decode()
    before = Game.objects.count()
    response = client.post("/play/new/", {"rule_set": lesson_rules.pk, "opponent": "ai", "ai_level": "casual"})
    assert response.status_code == 400 and Game.objects.count() == before
    with pytest.raises(ServiceError) as refused:
        services.create_game(creator=learner, rule_set=lesson_rules, opponent=make_player())
    assert refused.value.code == "lesson-rules"


def test_a_lesson_under_way_can_be_started_again(client, learner):
    first = lesson_service.start_lesson(user=learner, slug="nine-square")
    client.force_login(learner)
    assert "Start again" in client.get("/learn/").content.decode()
    response = client.post("/learn/nine-square/", {"again": "1"})
    first.refresh_from_db()
    second = lesson_service.unfinished_lesson_game(learner, "nine-square")
    assert first.status == Game.Status.FINISHED and second is not None and second.pk != first.pk
    assert response["Location"] == f"/play/{second.pk}/"
    # Without "again" the game under way is resumed.
    assert client.post("/learn/nine-square/")["Location"] == f"/play/{second.pk}/"


def _finished(user, *slugs: str) -> None:
    from django.utils import timezone

    for slug in slugs:
        LessonProgress.objects.create(user=user, lesson=slug, steps_done=len(BY_SLUG[slug].steps),
                                      completed_at=timezone.now())


def test_the_next_lesson_offered_is_the_first_the_learner_has_not_finished(learner):
    """The walkthrough's find: "Next lesson" offered the lesson after this one on the
    page even when the learner had finished it."""
    _finished(learner, "tactic-toe", "nine-square")  # the 2nd and 3rd lessons
    game = _play_lesson(lesson_service.start_lesson(user=learner, slug="classic"), learner)
    board = pushed_board(game.pk, learner)
    assert f"Next lesson: {BY_SLUG['t-tic-t-tac-toe-standard'].title}</button>" in board
    assert 'action="/learn/t-tic-t-tac-toe-standard/"' in board and "All lessons done" not in board


def test_after_the_last_lesson_the_next_goes_round_to_the_first_not_finished(learner):
    _finished(learner, "classic")
    game = _play_lesson(lesson_service.start_lesson(user=learner, slug="tic-tac-two-wall"), learner)
    board = pushed_board(game.pk, learner)
    assert f"Next lesson: {BY_SLUG['tactic-toe'].title}</button>" in board


def test_with_every_lesson_finished_the_panel_says_so_and_offers_a_real_game(client, learner):
    _finished(learner, *(lesson.slug for lesson in LESSONS if lesson.slug != "classic"))
    game = _play_lesson(lesson_service.start_lesson(user=learner, slug="classic"), learner)
    for board in (pushed_board(game.pk, learner), _logged_in_page(client, learner, game.pk)):
        assert "All lessons done." in board and "Next lesson" not in board
        assert '<a class="button" href="/play/?variant=classic">Play a real game of Classic Tic Tac Toe</a>' in board


def _logged_in_page(client, user, game_id: int) -> str:
    client.force_login(user)
    return client.get(f"/play/{game_id}/").content.decode()


def test_a_lessons_pages_are_under_learn_in_the_menu_not_play(client, learner):
    """The walkthrough's find: a lesson's page (a game page, /play/<id>/) marked Play in
    the site menu as the section you are in; it belongs to Learn. A real game stays Play."""
    learn, play = '<a href="/learn/" aria-current="true">Learn</a>', '<a href="/play/" aria-current="true">Play</a>'
    game = lesson_service.start_lesson(user=learner, slug="classic")
    page = _logged_in_page(client, learner, game.pk)
    assert learn in page and '<a href="/play/">Play</a>' in page and play not in page
    _play_lesson(game, learner)
    replay = client.get(f"/play/{game.pk}/replay/").content.decode()
    assert learn in replay and play not in replay
    real = services.create_game(creator=learner, variant="classic", ai_level="casual", creator_seat=0)
    page = client.get(f"/play/{real.pk}/").content.decode()
    assert play in page and '<a href="/learn/">Learn</a>' in page
    assert '<a href="/learn/" aria-current="page">Learn</a>' in client.get("/learn/").content.decode()


def test_a_lessons_page_shows_no_watcher_count(client, learner):
    """The walkthrough's find: a lesson's page said "0 watching", but nobody may watch a
    lesson (games.observing, private-lesson). A real game's page keeps its count."""
    game = lesson_service.start_lesson(user=learner, slug="classic")
    page = _logged_in_page(client, learner, game.pk)
    assert 'id="observer-count"' not in page and "watching ·" not in page
    real = services.create_game(creator=learner, variant="classic", ai_level="casual", creator_seat=0)
    assert 'id="observer-count"' in client.get(f"/play/{real.pk}/").content.decode()


def test_the_t_tic_t_tac_toe_lesson_names_its_version_first_on_the_card_and_the_first_screen(client, learner):
    """It taught Version 2.0 (no centre wall, supers write letters) and said so only on its
    last screen; the standard game is Version 1.0."""
    client.force_login(learner)
    card = re.search(r'id="lesson-t-tic-t-tac-toe".*?</li>', client.get("/learn/").content.decode(), re.S)
    assert card is not None and "Plays Version 2.0" in card.group(0) and "The standard game is Version 1.0" in card.group(0)
    client.post("/learn/t-tic-t-tac-toe/")
    game = Game.objects.get(lesson="t-tic-t-tac-toe")
    page = html.unescape(client.get(f"/play/{game.pk}/").content.decode())
    first = page.index("This lesson plays Version 2.0: the board starts empty and a super also writes your letters. "
                       "The standard game is Version 1.0, where a Berlin Wall stands around the centre square from "
                       "the start and a super only erases.")
    assert "Step 1 of 7" in page and first < page.index("Take the centre, square 13")


def test_the_standard_t_tic_t_tac_toe_lesson_plays_version_1_with_the_centre_wall_to_a_win(client, learner):
    """The standard rules (Version 1.0) have a lesson of their own: the board drawer's wall
    around 13 from the start, torn down on move 5, a super that gooshes and writes nothing."""
    client.force_login(learner)
    client.post("/learn/t-tic-t-tac-toe-standard/")
    game = Game.objects.get(lesson="t-tic-t-tac-toe-standard")
    # The board drawer's wall (no owner) around 13, there before any move (rule 3.1.02).
    assert game.state["version"] == "1.0" and [(b[0], b[1], b[2]) for b in game.state["blockages"]] == [
        ("wall", "around 13", None)]
    page = html.unescape(client.get(f"/play/{game.pk}/").content.decode())
    assert "Step 1 of 5" in page and "This lesson plays the standard rules, Version 1.0" in page
    _play_lesson(game, learner, until=4)  # up to and with the super on 7, 8, 12, 13
    game.refresh_from_db()
    assert game.state["cells"][12] is None and game.state["cells"][11] is None  # 13 gooshed, no X written on 12
    _play_lesson(game, learner)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner_seat == 0 and not game.rated
