"""The exact maximum weight matching the Dutch pairer runs on: the native matcher
(native/blossom) against networkx's, on random graphs with weights from 1 bit to a
thousand, and its refusals."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from league.formats import matching

needs_native = pytest.mark.skipif(matching.native is None, reason="native/blossom is not built here")


def _random_graph(rng: random.Random) -> tuple[int, list[tuple[int, int, int]]]:
    size = rng.randint(1, 40)
    density = rng.choice([0.1, 0.3, 0.7, 1.0])
    bits = rng.choice([1, 2, 8, 63, 64, 65, 200, 1000])
    edges = []
    for a in range(size):
        for b in range(a + 1, size):
            if rng.random() < density:
                # Many equal weights too: ties are where matchers go wrong.
                w = rng.choice([1, 1 << (bits - 1), rng.randint(1, 1 << bits)])
                edges.append((a, b, w) if rng.random() < 0.5 else (b, a, w))
    return size, edges


def _weight(mate: list[int], edges: list[tuple[int, int, int]]) -> int:
    weights = {frozenset((a, b)): w for a, b, w in edges}
    assert all(mate[mate[v]] == v for v in range(len(mate))), "mate is not symmetric"
    return sum(weights[frozenset((v, m))] for v, m in enumerate(mate) if m > v)


def _networkx_weight(edges: list[tuple[int, int, int]]) -> int:
    graph = nx.Graph()
    graph.add_weighted_edges_from(edges)
    return sum(graph[a][b]["weight"] for a, b in nx.max_weight_matching(graph))


@needs_native
@pytest.mark.parametrize("seed", range(8))
def test_native_matching_has_networkx_weight(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        size, edges = _random_graph(rng)
        mate = matching.max_weight_matching(size, edges)
        assert _weight(mate, edges) == _networkx_weight(edges), (size, edges)


@needs_native
def test_blossoms_form_and_expand() -> None:
    # networkx's own cases (test_matching.py, S-blossom and T-blossom), renumbered from 0.
    edges = [(0, 1, 8), (0, 2, 9), (1, 2, 10), (2, 3, 7)]
    assert matching.max_weight_matching(4, edges) == [1, 0, 3, 2]
    edges += [(0, 5, 5), (3, 4, 6)]
    assert matching.max_weight_matching(6, edges) == [5, 2, 1, 4, 3, 0]
    edges = [(0, 1, 9), (0, 2, 8), (1, 2, 10), (0, 3, 5), (3, 4, 4), (0, 5, 3)]
    assert matching.max_weight_matching(6, edges) == [5, 2, 1, 4, 3, 0]


def test_the_fallback_matches_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(matching, "native", None)
    rng = random.Random(99)
    for _ in range(30):
        size, edges = _random_graph(rng)
        assert _weight(matching.max_weight_matching(size, edges), edges) == _networkx_weight(edges)


def test_unmatched_and_edgeless_vertices_are_their_own_mates() -> None:
    assert matching.max_weight_matching(3, []) == [0, 1, 2]
    assert matching.max_weight_matching(4, [(1, 3, 5)]) == [0, 3, 2, 1]


@needs_native
def test_weights_wider_than_the_matcher_are_refused() -> None:
    with pytest.raises(ValueError, match="wider"):
        matching.max_weight_matching(2, [(0, 1, 1 << 5000)])


@needs_native
def test_the_native_entry_refuses_bad_input() -> None:
    native = matching.native
    assert native is not None
    one = (1).to_bytes(8, "little")
    pair = (0).to_bytes(4, "little") + (1).to_bytes(4, "little")
    with pytest.raises(ValueError):
        native.max_weight_matching(2, 5, pair, one)  # 5 limbs is not a width it takes
    with pytest.raises(ValueError):
        native.max_weight_matching(1, 1, pair, one)  # vertex 1 of 1
    with pytest.raises(ValueError):
        native.max_weight_matching(2, 1, pair, one + one)  # two weights, one edge
    loop = (0).to_bytes(4, "little") * 2
    with pytest.raises(ValueError):
        native.max_weight_matching(2, 1, loop, one)
