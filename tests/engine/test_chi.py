"""R19 比牌: the 吃 package generator (chi.py)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from paohuzi.core.cards import Card, format_cards, parse_cards
from paohuzi.core.chi import PARTNERS, cards_used, chi_packages, packages_packed

from .helpers import counts


def _pk(hand: str, x: str) -> set[tuple[str, ...]]:
    """The packages as multisets of groups (sorted group strings)."""
    out = [
        tuple(format_cards(g) for g in (chi, *bis))
        for chi, bis in chi_packages(counts(parse_cards(hand)), Card.parse(x))
    ]
    assert all(p == tuple(sorted(p, key=parse_cards)) for p in out)  # canonical order
    assert len(set(out)) == len(out)  # one package per multiset of groups
    return {tuple(sorted(p)) for p in out}


def _n(*groups: str) -> tuple[str, ...]:
    return tuple(sorted(groups))


def test_R19_seed_example_2_all_packages() -> None:
    """R19 example 2: 一, 二二, 三三, 四, 贰贰 eating 二.

    The seeds list three packages (吃 二贰贰 比 一二三 + 二三四; 吃 一二三 比 二二贰;
    吃 一二三 比 二三四 + 二贰贰); the first and third lay out the same groups, so
    they are one choice. The same rule gives 二二贰 + 二三四 (吃 二二贰 比 二三四 or
    吃 二三四 比 二二贰). Nothing else: 二七十 needs 七十 (absent), and 二二贰 + 一二三
    is the second seed package, whichever group is called 吃.
    """
    assert _pk("一二二三三四贰贰", "二") == {
        _n("二贰贰", "一二三", "二三四"),
        _n("一二三", "二二贰"),
        _n("二二贰", "二三四"),
    }


def test_R19_seed_example_1_bi_by_remaining_hand() -> None:
    """R19 example 1: the other 一 is 比'd as 一一壹, 一壹壹 or 一二三, as the hand allows."""
    assert _pk("一二三二三", "一") == {_n("一二三", "一二三")}
    # 吃 一二三 would leave 一 + 壹: no 比 — only 吃 一一壹 (nothing left to 比).
    assert _pk("一二三壹", "一") == {_n("一一壹")}
    assert _pk("一二三壹壹", "一") == {
        _n("一一壹"),  # uses the hand's 一: nothing to 比
        _n("一壹壹", "一二三"),  # 吃 一壹壹 比 一二三, or 吃 一二三 比 一壹壹: one choice
    }
    assert _pk("一二三", "一") == set()  # the 一 left cannot be 比'd: no 吃


def test_R19_two_remaining_must_both_be_bi() -> None:
    """R19: two X left in hand must both be 比'd; one 比 is not enough."""
    assert _pk("五五四六三", "五") == set()  # 吃 四五六 leaves 五五 + 三: no 比 for both
    assert _n("三四五", "四五六", "五六七") in _pk("五五三四四六六七", "五")


def test_kan_is_never_used() -> None:
    """R§3 拆坎: 坎 cards take part in no 吃 or 比."""
    assert _pk("一三三三", "二") == set()
    assert _pk("一一一二三", "二") == set()


def test_erqishi_and_jiao_shapes() -> None:
    """句 二七十 and 绞 (一一壹 / 一壹壹) are 吃 shapes; sizes never mix in a 句."""
    assert _pk("二七", "十") == {_n("二七十")}
    assert _pk("贰七", "十") == set()
    assert _pk("拾拾", "十") == {_n("十拾拾")}


def test_partners_are_valid_groups() -> None:
    from paohuzi.core.melds import is_jiao, is_run

    for x in range(20):
        for a, b in PARTNERS[x]:
            assert is_run((x, a, b)) or is_jiao((x, a, b))


def test_cards_used() -> None:
    pk = (((0, 1, 2)), ((0, 1, 2),))
    assert sorted(cards_used(pk, 0)) == [0, 1, 1, 2, 2]  # type: ignore[arg-type]


def _oracle(counts: list[int], x: int) -> set[tuple[tuple[int, ...], ...]]:
    """R19 by brute force: every 吃 group X+a+b of usable hand cards that is a 句 or
    绞 (checked by melds, not chi's partner table), then every multiset of 比
    groups laying out each X still in hand the same way; a package is the
    multiset of all its groups (sorted), whichever was called 吃."""
    from paohuzi.core.melds import is_jiao, is_run

    u = [n if n < 3 else 0 for n in counts]  # 坎 stay whole

    def groups(u: list[int]) -> list[tuple[int, int, int]]:
        out = []
        for a in range(20):
            for b in range(a, 20):
                need = Counter([a, b])
                if all(u[k] >= n for k, n in need.items()):
                    g = tuple(sorted((x, a, b)))
                    if is_run(g) or is_jiao(g):
                        out.append((a, b, g))
        return out

    def bis(u: list[int]) -> set[tuple[tuple[int, ...], ...]]:
        if u[x] == 0:
            return {()}
        found: set[tuple[tuple[int, ...], ...]] = set()
        u[x] -= 1
        for a, b, g in groups(u):
            u[a] -= 1
            u[b] -= 1
            found |= {tuple(sorted((g, *rest))) for rest in bis(u)}
            u[a] += 1
            u[b] += 1
        u[x] += 1
        return found

    out = set()
    for a, b, g in groups(u):
        u[a] -= 1
        u[b] -= 1
        out |= {tuple(sorted((g, *rest))) for rest in bis(u)}
        u[a] += 1
        u[b] += 1
    return out


@settings(max_examples=600, deadline=None)
@given(
    hand=st.lists(st.integers(0, 19), min_size=0, max_size=24),
    x=st.integers(0, 19),
)
def test_R19_packages_match_brute_force(hand: list[int], x: int) -> None:
    """R19: chi_packages and the engine's packed variant equal a brute-force enumeration."""
    cnt = [min(4, n) for n in counts(hand)]
    want = _oracle(cnt, x)
    got = chi_packages(cnt, x)
    assert got == sorted(got) and len(set(got)) == len(got)
    multisets = [(c, *b) for c, b in got]
    assert all(list(m) == sorted(m) for m in multisets)  # canonical: groups sorted
    assert len(set(multisets)) == len(multisets)  # no two lay out the same groups
    assert set(multisets) == want
    packed = sum(n << (3 * k) for k, n in enumerate(cnt))
    assert packages_packed(packed, x) == tuple(((c, *b), len(b)) for c, b in got)
