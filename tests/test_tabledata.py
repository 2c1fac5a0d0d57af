"""The precomputed 句 table shipped in ``paohuzi.core.tabledata`` is what the
evaluator's own algorithm computes today (regenerate: scripts/gen_tabledata.py)."""

from __future__ import annotations

from paohuzi.core import tabledata
from paohuzi.core.evaluator import _all_keys, valued_run_counts


def test_shipped_table_matches_algorithm() -> None:
    assert tabledata.runs() == valued_run_counts()


def test_table_covers_every_key_the_evaluator_meets() -> None:
    """Counts ≤ 2 everywhere, or one point held 3 times (a pair + the winning card)."""
    keys = _all_keys()[0]
    assert len(keys) == 3**10 + 10 * 3**9 == len(set(keys)) == len(tabledata.runs())
    for k in keys:
        fields = [(k >> (3 * p)) & 7 for p in range(10)]
        assert max(fields) <= 3 and fields.count(3) <= 1
    # 一二三 twice with a 将 elsewhere is impossible in 6 cards, but 一一二二三三 makes
    # two valued 句 without a pair and none with one.
    key = 2 * (1 << 0) + 2 * (1 << 3) + 2 * (1 << 6)
    byte = tabledata.runs()[keys.index(key)]
    assert (byte & 15) - 1 == 2  # two 一二三
    assert (byte >> 4) - 1 == -1  # no split with exactly one pair
