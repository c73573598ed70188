"""Pairing reasons: each pairer returns the decisions it took, and explain.text says
them with the players' names."""

from __future__ import annotations

from league.formats import arena, dutch, explain, swiss, trf
from league.formats.double_elimination import DoubleElimination
from league.formats.single_elimination import SingleElimination

S = swiss.SwissPlayer
NAMES = {"ana": "Ana", "ben": "Ben", "cy": "Cy", "di": "Di", "ed": "Ed"}


def words(reasons) -> list[str]:
    return [explain.text(r.as_dict(), NAMES) for r in reasons]


def by_pair(pairings):
    return {frozenset((p.first, p.second)): p for p in pairings}


def test_a_float_from_an_odd_group_says_so():
    ana = S("ana", 0, score=3, colours=["X", "O", "X"], opponents={"zed"})
    others = [S("ben", 1, score=2, colours=["O", "O", "X"]), S("cy", 2, score=2, colours=["X", "O", "O"]),
              S("di", 3, score=2, colours=["O", "X", "O"]), S("ed", 4, score=1, colours=["X", "X", "O"])]
    pairings = swiss.pair_round([ana, *others])
    (with_ana,) = [p for p in pairings if "ana" in (p.first, p.second)]
    float_reason = next(r for r in with_ana.reasons if r.code == "float")
    other = NAMES[with_ana.second if with_ana.first == "ana" else with_ana.first]
    assert explain.text(float_reason.as_dict(), NAMES) == (
        f"Ana floated down from 3 points to meet {other} on 2: the 3-point group had an odd number.")
    same = [p for p in pairings if p.second is not None and "ana" not in (p.first, p.second)]
    assert any(r.code == "score-group" and r.data["points"] == 2 for p in same for r in p.reasons)


def test_a_float_to_avoid_a_rematch_names_the_player_avoided():
    ps = [S("ana", 0, score=2, opponents={"ben"}, colours=["X", "O"]),
          S("ben", 1, score=2, opponents={"ana"}, colours=["O", "X"]),
          S("cy", 2, score=1, colours=["O", "X"]), S("di", 3, score=1, colours=["X", "O"])]
    texts = [t for p in swiss.pair_round(ps) for t in words(p.reasons)]
    assert any(t.startswith("Ana floated down from 2 points") and t.endswith("to avoid a rematch with Ben.")
               for t in texts)
    assert any(t.startswith("Ben floated down from 2 points") and t.endswith("to avoid a rematch with Ana.")
               for t in texts)


def test_the_first_move_reason_is_the_rule_that_decided_it():
    # Both moved first last round and have the same history: the higher rank gets its wish.
    ana = S("ana", 0, score=1, colours=["O", "X"], colour_rounds=[1, 2])
    ben = S("ben", 1, score=1, colours=["O", "X"], colour_rounds=[1, 2])
    (p,) = swiss.pair_round([ana, ben])
    (colour,) = [r for r in p.reasons if r.code == "first-move"]
    assert colour.data["rule"] == "rank"
    assert explain.text(colour.as_dict(), NAMES) == (
        "Both preferred to move second with the same history; Ana has the higher rank, so gets it. Ben moves first.")
    # Preferences that differ are both met, and the history is said with its rounds.
    cy = S("cy", 0, score=2, colours=["X", "O", "O"], colour_rounds=[1, 2, 3])
    di = S("di", 1, score=2, colours=["O", "X", "X"], colour_rounds=[1, 2, 3])
    (p,) = swiss.pair_round([cy, di])
    assert (p.first, p.second) == ("cy", "di")
    text = words([r for r in p.reasons if r.code == "first-move"])[0]
    assert text.startswith("Cy moves first and Di second, as both preferred; Cy moved second in rounds 2 and 3")
    assert "(an absolute preference for first)" in text


def test_round_one_first_move_is_by_board():
    pairings = swiss.pair_round([S(n, i) for i, n in enumerate(["ana", "ben", "cy", "di"])])
    rules = [(p.board, next(r.data["rule"] for r in p.reasons if r.code == "first-move")) for p in pairings]
    assert rules == [(1, "board"), (2, "board")]


def test_the_bye_reason_follows_the_bye_rule():
    pairings = swiss.pair_round([S(n, i) for i, n in enumerate(["ana", "ben", "cy", "di", "ed"])])
    (bye,) = [p for p in pairings if p.is_bye]
    assert words(bye.reasons) == ["Ed has the bye: lowest ranked in the lowest score group who has not had one."]
    # Ed had one already: the next one up gets it.
    players = [S(n, i) for i, n in enumerate(["ana", "ben", "cy", "di", "ed"])]
    players[4].had_bye = True
    (bye,) = [p for p in swiss.pair_round(players) if p.is_bye]
    assert bye.first == "di" and bye.reasons[0].data["rule"] == "lowest-eligible"
    # Ed, ranked below, has had one: the reason says so.
    assert words(bye.reasons) == [
        "Di has the bye: every player ranked below Di has had a bye and may not have it again; Di is the lowest "
        "ranked who may."]


def test_a_rematch_as_last_resort_is_said():
    a = S("ana", 0, opponents={"ben"}, colours=["X"])
    b = S("ben", 1, opponents={"ana"}, colours=["O"])
    (p,) = swiss.pair_round([a, b])
    assert "Ana and Ben meet again: no other pairing was possible." in words(p.reasons)


def test_arena_reasons_say_free_nearest_and_who_moves_first():
    a = arena.Arena(100)
    for name in ["ana", "ben", "cy", "di"]:
        a.join(name, 0)
    first_wave = a.pair_explained(1)
    assert [(f, s) for f, s, _ in first_wave] == a_pairs(first_wave)
    assert words(first_wave[0][2])[0] == "Paired as both became free; closest in score (Ana 0, Ben 0); not the last opponent."
    a.finish("ana", "ben", "ana", 5)
    a.finish("cy", "di", "cy", 6)
    wave = a.pair_explained(7)
    texts = [t for _, _, reasons in wave for t in words(reasons)]
    assert all("rematch" not in t for t in texts)
    (ana_game,) = [(f, s, r) for f, s, r in wave if "ana" in (f, s)]
    assert ana_game[2][1].code == "arena-first-move"
    first = NAMES[ana_game[0]]
    assert words([ana_game[2][1]])[0].startswith(f"{first} moves first: {first} has moved first in 0 of 1")


def a_pairs(wave):
    return [(f, s) for f, s, _ in wave]


def test_arena_pair_is_pair_explained_without_the_reasons():
    one, two = arena.Arena(100), arena.Arena(100)
    for name in ["ana", "ben", "cy", "di", "ed"]:
        one.join(name, 0)
        two.join(name, 0)
    assert one.pair(1) == a_pairs(two.pair_explained(1))


def test_seed_path_of_a_knockout():
    bracket = SingleElimination(8, placements="all", consolation=False)
    texts = [explain.text(explain.seed_path(bracket, m).as_dict(), {}) for m in bracket.playable()]
    assert texts[0] == "Seed 1 v seed 8, quarter-final; the winner meets the winner of seed 4 v seed 5."
    bracket.record(bracket.playable()[0].id, 1)
    bracket.record(bracket.playable()[0].id, 4)
    semi = next(m for m in bracket.playable() if m.round == 2 and m.bracket == "winners")
    assert explain.text(explain.seed_path(bracket, semi).as_dict(), {}) == (
        "Seed 1 v seed 4, semi-final; the winner meets the winner from seeds 2, 3, 6, 7.")
    places = [explain.stage_name(bracket, m) for m in bracket.matches if m.bracket == "placement"]
    assert "third-place match" in places and "match for places 5-8" in places and "match for places 7-8" in places
    consolation = SingleElimination(8, consolation=True)
    assert {explain.stage_name(consolation, m) for m in consolation.matches if m.bracket == "consolation"} == {
        "consolation match"}
    small = SingleElimination(2)
    (final,) = small.playable()
    assert explain.text(explain.seed_path(small, final).as_dict(), {}) == (
        "Seed 1 v seed 2, final; the winner takes the title.")
    double = DoubleElimination(4)
    assert explain.text(explain.seed_path(double, double.playable()[0]).as_dict(), {}).startswith(
        "Seed 1 v seed 4, winners' semi-final; the winner meets the winner of seed 2 v seed 3")


def test_only_the_final_takes_the_title():
    """A bracket's last match for places or of the consolation bracket has no next match
    either: 'Seed 5 v seed 6, match for places 5-6; the winner takes the title' (organiser
    probe) promised the title to the fifth place."""
    said = {}
    for bracket in (SingleElimination(8, placements="all", consolation=False), SingleElimination(8, consolation=True)):
        while bracket.playable():
            for match in bracket.playable():
                said[explain.stage_name(bracket, match)] = explain.text(explain.seed_path(bracket, match).as_dict(), {})
                bracket.record(match.id, match.players[0])
    assert [stage for stage, text in said.items() if "takes the title" in text] == ["final"]
    assert said["match for places 5-6"].endswith("; the winner takes place 5.")
    assert said["match for places 7-8"].endswith("; the winner takes place 7.")
    assert said["consolation match"].endswith("; the winner wins the consolation bracket.")


def test_a_round_robin_board_and_bye_say_their_berger_round():
    board = explain.Reason("berger", (7, 9), {"round": 3, "group": "A", "seeds": [1, 4]}).as_dict()
    assert explain.text(board, {7: "Ana", 9: "Ben"}) == (
        "Round 3 of the Berger table of group A, fixed at the start: seed 1 v seed 4; everyone meets everyone, "
        "and who moves first alternates.")
    bye = explain.Reason("berger", (7,), {"round": 2, "group": ""}).as_dict()
    assert explain.text(bye, {7: "Ana"}) == "Ana has the bye in round 2: an odd number of players (Berger table)."


def test_the_dutch_reasons_say_the_initial_colour_rule_and_a_meeting_by_forfeit():
    event = trf.read("XXR 3\nXXC black1\n" + "".join(
        f"001 {n:>4}      Player {n:<26}\n" for n in (1, 2)) + "")
    (p,) = dutch.pair(event, 1)
    names = {1: "Ana", 2: "Ben"}
    (colour,) = [r for r in p.reasons if r.code == "first-move"]
    assert (p.white, p.black) == (2, 1)  # black1: number 1 moves second
    # "Number" said in words: a walkthrough's player took it for the board.
    assert explain.text(colour.as_dict(), names) == (
        "Neither has played yet, so the first move goes by starting number: the players are numbered 1, 2, 3 ... "
        "in seed order (the highest rated first, then the unrated in the order they entered), which is not the "
        "board number. In each pair the higher-ranked "
        "player moves second if their number is odd and first if it is even; Ana is the higher-ranked here, "
        "number 1, so moves second, and Ben moves first.")
    white1 = trf.read("XXR 3\nXXC white1\n" + "".join(f"001 {n:>4}      Player {n:<26}\n" for n in (1, 2)))
    (q,) = dutch.pair(white1, 1)
    (first,) = [r for r in q.reasons if r.code == "first-move"]
    assert explain.text(first.as_dict(), names).endswith(
        "moves first if their number is odd and second if it is even; Ana is the higher-ranked here, number 1, "
        "so moves first.")
    forfeit = explain.Reason("met-by-forfeit", (1, 2), {"rounds": [1, 3]})
    assert explain.text(forfeit.as_dict(), names) == (
        "Ana and Ben met in rounds 1 and 3 only by forfeit: no game was played, so they may be paired again.")
