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


def test_entries_decoded_from_the_table_equal_the_algorithm() -> None:
    """_SizeTable._shipped (decoding on first use) gives, for every key the table
    holds, exactly the entry the lazy algorithm computes; other keys fall back."""
    from paohuzi.core.evaluator import NEG, _SizeTable

    def norm(e: tuple[int, int, int, int] | None) -> tuple[int, ...] | None:
        # "no split" is any negative value (the algorithm's are NEG plus some 句)
        return None if e is None else (*(v if v >= 0 else NEG for v in e[:2]), *e[2:])

    def table() -> _SizeTable:
        return _SizeTable(run_val=(3,) + (0,) * 7, v2710=3, pair_val=(0,) * 10)

    algo, shipped = table(), table()
    shipped.prefill(tabledata.runs(), 3)
    for k in _all_keys()[0]:
        assert shipped._shipped(k) == norm(algo.entry(k)), k
    two_threes = 3 * (1 << 0) + 3 * (1 << 3)
    assert shipped._shipped(two_threes) is None
    assert norm(shipped.entry(two_threes)) == norm(algo.entry(two_threes))


def test_preload_decodes_the_same_entries() -> None:
    from paohuzi.core.evaluator import _SizeTable

    t = _SizeTable(run_val=(3,) + (0,) * 7, v2710=3, pair_val=(0,) * 10)
    t.prefill(tabledata.runs(), 3)
    t.preload()
    keys = _all_keys()[0]
    assert len(t.entries) == len(keys)
    assert all(t.entries[k] == t._shipped(k) for k in keys[1:])  # key 0 is preset
