"""Chance from a seed, never from a global.

Every die or coin is the ``n``-th draw of the game's seed: a pure function of
(seed, n), so a state needs to store only the seed and how many draws it has made,
and any roll can be checked by anyone who learns the seed once the game is over.
"""

from __future__ import annotations

import hashlib
import secrets

from .errors import RuleError


def new_seed() -> str:
    """A fresh unpredictable seed, for games started without one."""
    return secrets.token_hex(16)


def normalise_seed(seed: int | str | None) -> str:
    if seed is None:
        return new_seed()
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise RuleError("bad-seed", "A seed must be a whole number or a text.")
    return str(seed)


def draw(seed: str, index: int, sides: int) -> int:
    """The ``index``-th draw of ``seed``: a number from 0 to ``sides - 1``.

    Uniform: rejection sampling over 64-bit blocks removes modulo bias.
    """
    limit = (1 << 64) - ((1 << 64) % sides)
    attempt = 0
    while True:
        digest = hashlib.sha256(f"{seed}:{index}:{attempt}".encode()).digest()
        value = int.from_bytes(digest[:8], "big")
        if value < limit:
            return value % sides
        attempt += 1


def roll_die(seed: str, index: int, sides: int = 6) -> int:
    """A die from 1 to ``sides``."""
    return draw(seed, index, sides) + 1


def seed_commitment(seed: str) -> str:
    """The hash published when a game starts, so its rolls can be verified later."""
    return hashlib.sha256(seed.encode()).hexdigest()
