"""python -m league.formats.swiss: bbpPairings' command line (-p pairs the next round, -c
checks every round), with --fast; its output format pinned by bbpPairings' own -p output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from league.formats import swiss_cli, trf

DATA = Path(__file__).resolve().parents[1] / "data" / "dutch"
REPO = Path(__file__).resolve().parents[3]
SMALL = DATA / "021-n015-r06-s182499.trf"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "league.formats.swiss", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("expected", sorted((DATA / "next").glob("*.txt")), ids=lambda p: p.name)
def test_the_pairs_are_written_as_bbppairings_writes_them(expected):
    """Its stored round, in published order, is byte for byte what bbpPairings' -p wrote."""
    name, round_text = expected.name.removesuffix(".txt").split(".round")
    t = trf.read((DATA / f"{name}.trf").read_text())
    number = int(round_text)
    before = trf.before_round(t, number)
    stored = trf.round_pairings(t, number, skip_absent=True)
    assert trf.next_round(before) == number
    assert swiss_cli.format_pairs(trf.published_order(stored, before, number)) == expected.read_text()


def test_dash_p_pairs_the_next_round_end_to_end(tmp_path):
    t = trf.read(SMALL.read_text())
    (tmp_path / "in.trf").write_text(trf.write(trf.before_round(t, 4)).replace("\n", "\r"))
    printed = run("--fast", str(tmp_path / "in.trf"), "-p")
    written = run("--fast", str(tmp_path / "in.trf"), "-p", str(tmp_path / "out.txt"))
    assert printed.returncode == written.returncode == 0 and printed.stderr == ""
    assert (tmp_path / "out.txt").read_bytes() == printed.stdout.encode()
    lines = printed.stdout.split("\n")
    assert lines[-1] == "" and "\r" not in printed.stdout
    count, pairs = int(lines[0]), [tuple(map(int, line.split())) for line in lines[1:-1]]
    assert count == len(pairs) == 8 and all(len(pair) == 2 for pair in pairs)
    assert pairs[-1][1] == 0 and all(black for _, black in pairs[:-1])  # 15 players: the bye last, "n 0"
    assert sorted(n for pair in pairs for n in pair if n) == list(range(1, 16))


def test_dash_c_lists_the_rounds_that_differ(tmp_path):
    checked = run("--fast", str(SMALL), "-c")
    lines = checked.stdout.splitlines()
    results = [swiss_cli.check_round("fast", trf.read(SMALL.read_text()), n) for n in range(1, 7)]
    differing = [r.number for r in results if not r.agrees]
    assert differing, "the fast pairer is not the Dutch: some round of this file differs"
    assert checked.returncode == 1 and checked.stderr == ""
    assert [int(line.split()[1].rstrip(":")) for line in lines[:-1]] == differing
    assert "pairs differ (white-black); file " in lines[0] and "; ours " in lines[0]
    assert lines[-1] == f"{6 - len(differing)} of 6 rounds agree with the file (fast)."


def test_dash_c_agrees_with_the_reference_on_every_round_with_3_1_0_points():
    checked = run("--dutch", str(DATA / "006-n072-r09-s328224.trf"), "-c")  # a 162 line: 3-1-0 points
    assert (checked.returncode, checked.stdout, checked.stderr) == (0, "9 of 9 rounds agree with the file (dutch).\n", "")


@pytest.mark.parametrize("expected", sorted((DATA / "next").glob("*.txt")), ids=lambda p: p.name)
def test_dash_p_writes_what_bbppairings_wrote_byte_for_byte(expected, tmp_path):
    name, round_text = expected.name.removesuffix(".txt").split(".round")
    before = trf.before_round(trf.read((DATA / f"{name}.trf").read_text()), int(round_text))
    (tmp_path / "in.trf").write_text(trf.write(before))
    written = run("--dutch", str(tmp_path / "in.trf"), "-p", str(tmp_path / "out.txt"))
    assert (written.returncode, written.stderr) == (0, "")
    assert (tmp_path / "out.txt").read_text() == expected.read_text()


@pytest.mark.parametrize(("content", "code", "message"), [
    (None, 5, "cannot read"),
    (b"", 3, "no player lines"),
    (b"Hello, this is not a tournament.\n", 3, "no player lines"),
    (b"\x89PNG\r\n\x1a\n\x00\xff\xfe", 3, "not UTF-8 text"),
    ("Jos\u00e9 M\u00fcller\n".encode("latin-1"), 3, "not UTF-8 text"),
    (b"001 12ab\n", 3, "start number"),
    ("001    \u00b9      A\n".encode(), 3, "start number"),  # a superscript one, which str.isdigit takes
    (b"001    1      A                                                                  0.0    1     7 w 1\n", 3,
     "opponent 7"),
])
def test_bad_input_gives_one_line_and_the_status(tmp_path, content, code, message):
    path = tmp_path / "in.trf"
    if content is not None:
        path.write_bytes(content)
    for mode in ("-c", "-p"):
        done = run("--fast", str(path), mode)
        assert done.returncode == code and done.stdout == ""
        assert message in done.stderr and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_a_round_without_all_its_results_is_not_paired_past(tmp_path):
    t = trf.read(SMALL.read_text())
    for player in t.players:  # round 3 paired, its results not in yet
        player.rounds = player.rounds[:3]
        if player.rounds[2].opponent is not None:
            player.rounds[2].result = " "
    (tmp_path / "in.trf").write_text(trf.write(t))
    done = run("--dutch", str(tmp_path / "in.trf"), "-p")
    assert (done.returncode, done.stdout) == (3, "")
    assert "round 3 is not finished" in done.stderr and done.stderr.count("\n") == 1


def test_a_file_with_no_round_paired_has_nothing_to_check(tmp_path):
    t = trf.read(SMALL.read_text())
    for player in t.players:
        player.rounds = []
    (tmp_path / "in.trf").write_text(trf.write(t))
    done = run("--dutch", str(tmp_path / "in.trf"), "-c")
    assert (done.returncode, done.stdout) == (3, "") and "nothing to check" in done.stderr


def test_no_valid_pairing_is_an_error_line_and_status_1(tmp_path):
    (tmp_path / "in.trf").write_text(
        "XXR 3\n001    1      A                                                                  1.0    1     2 w 1\n"
        "001    2      B                                                                  0.0    2     1 b 0\n")
    done = run("--dutch", str(tmp_path / "in.trf"), "-p")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith("error: no valid pairing exists for round 2")


def test_an_unwritable_output_is_a_file_error(tmp_path):
    done = run("--fast", str(SMALL), "-p", str(tmp_path / "missing" / "out.txt"))
    assert (done.returncode, done.stdout) == (5, "") and "cannot write" in done.stderr


def test_an_accelerated_file_checks_clean_with_dutch_and_is_refused_by_fast():
    accelerated = DATA / "accelerated" / "007-n014-r06-s79481-baku.trf"
    checked = run("--dutch", str(accelerated), "-c")
    assert checked.returncode == 0 and checked.stdout.strip() == "6 of 6 rounds agree with the file (dutch)."
    refused = run("--fast", str(accelerated), "-c")
    assert refused.returncode == 3 and refused.stdout == ""
    assert refused.stderr.startswith("error: ") and "virtual points" in refused.stderr
