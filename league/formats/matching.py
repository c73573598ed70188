"""Maximum weight matching on exact integers of any size, for the Dutch pairer. Pure.

The work is done by ``ttt_blossom`` (native/blossom/, C++, built by ``./dev`` into the
virtual environment) when it is installed, else by networkx; both give a maximum weight
matching, and the tests check that they agree on its weight. Why a matcher of our own:
networkx's, in pure Python, spent 39 of the 48 s of CPU a 1,000-player Dutch round took
(docs/formats.md has the figures), and no maintained library takes integers several
hundred bits wide (rustworkx stops at 128 bits).
"""

from __future__ import annotations

import importlib
from array import array
from collections.abc import Iterable
from types import ModuleType

import networkx as nx

native: ModuleType | None
try:
    native = importlib.import_module("ttt_blossom")
except ImportError:  # no compiler where the environment was built: networkx does it
    native = None

# Bits above the largest weight the native matcher keeps free: its duals (twice a vertex's
# share) reach twice the largest weight, and a blossom's can reach the vertex count times it.
_HEADROOM = 4


def widest(size: int) -> int | None:
    """The widest weights, in bits, a matching of ``size`` vertices takes (None: any)."""
    if native is None:
        return None
    limbs: int = max(native.limbs())
    return 64 * limbs - size.bit_length() - _HEADROOM


def max_weight_matching(size: int, edges: Iterable[tuple[int, int, int]]) -> list[int]:
    """The mate of each vertex 0..size-1 (itself if unmatched) in a matching of the
    greatest total weight over ``edges`` (a, b, weight > 0)."""
    edges = list(edges)
    mate = list(range(size))
    if not edges:
        return mate
    if native is None:
        graph = nx.Graph()
        graph.add_weighted_edges_from(edges)
        for a, b in nx.max_weight_matching(graph):
            mate[a], mate[b] = b, a
        return mate
    bits = max(w for _, _, w in edges).bit_length() + size.bit_length() + _HEADROOM
    limbs = next((k for k in native.limbs() if 64 * k >= bits), None)
    if limbs is None:
        raise ValueError(f"weights of {bits} bits are wider than the matcher takes")
    # Only the vertices with an edge: the matcher's work and memory grow with the square
    # and the cube of its vertex count (a bracket of 300 among 1,000 players).
    vertices = sorted({v for a, b, _ in edges for v in (a, b)})
    index = {v: i for i, v in enumerate(vertices)}
    ends = array("i")
    for a, b, _ in edges:
        ends.append(index[a])
        ends.append(index[b])
    width = 8 * limbs
    weights = b"".join(w.to_bytes(width, "little") for _, _, w in edges)
    found = array("i")
    found.frombytes(native.max_weight_matching(len(vertices), limbs, ends.tobytes(), weights))
    for i, m in enumerate(found):
        if m >= 0:
            mate[vertices[i]] = vertices[m]
    return mate
