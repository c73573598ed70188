"""What checking a stored game against its state schema costs, per load.

Run from the repository root::

    .venv/bin/python bench/state_schema.py

``load`` runs on every move and every board a viewer is sent, so the schema check sits
on the hot path. For each variant, a game a dozen random moves in, this prints the time
of one check by the jsonschema library (a validator built once and reused, its fastest
use), by the platform's compiled checker (games/rules/schema.py), and of the whole
``load`` (which includes the compiled check).
"""

from __future__ import annotations

import functools
import random
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from jsonschema import Draft202012Validator  # noqa: E402

from games.rules import get_variant, variant_slugs  # noqa: E402
from games.rules.schema import compile_schema  # noqa: E402

RUNS = 2000


def per_call(call: Callable[[], object]) -> float:
    """Microseconds per call, over RUNS calls."""
    return timeit.timeit(call, number=RUNS) / RUNS * 1e6


def main() -> None:
    print(f"{'variant':20} {'jsonschema':>12} {'compiled':>10} {'whole load':>11}   (microseconds per load)")
    for slug in variant_slugs():
        rules = get_variant(slug)
        state = rules.new_game(options=None, seed=1)
        rng = random.Random(1)
        for _ in range(12):
            if rules.outcome(state) is not None or not state.to_move:
                break
            seat = state.to_move[0]
            state = rules.apply(state, seat, rules.random_move(state, seat, rng))
        data = rules.dump(state)
        validator = Draft202012Validator(rules.state_schema)
        check = compile_schema(rules.state_schema)
        library = per_call(functools.partial(validator.is_valid, data))
        compiled = per_call(functools.partial(check, data, ""))
        whole = per_call(functools.partial(rules.load, data))
        print(f"{slug:20} {library:12.1f} {compiled:10.1f} {whole:11.1f}")


if __name__ == "__main__":
    main()
