"""胡牌判定内核: types of the optional C extension built from _kernel.c (docs/speed.md)."""

from collections.abc import Callable, Sequence
from typing import Any

class Kernel:
    def __init__(
        self,
        small: tuple[Sequence[int], int, Sequence[int]],
        big: tuple[Sequence[int], int, Sequence[int]],
        jiao: Sequence[int],
        peng: Sequence[int],
        wei: Sequence[int],
        kan: Sequence[int],
        pao: Sequence[int],
        ti: Sequence[int],
        flat: Sequence[int],
        gain_pao: Sequence[int],
        gain_ti: Sequence[int],
        fallback: Callable[[Any], int],
        position: type | None = None,
    ) -> None: ...
    def best(self, position: Any) -> int: ...
    def core(
        self,
        packed: int,
        table_huxi: int,
        shape: tuple[bool, bool, bool],
        gain_up: int,
        win: int,
        self_drawn: bool,
    ) -> int: ...
    def plan(
        self,
        packed: int,
        table_huxi: int,
        shape: tuple[bool, bool, bool],
        gain_up: int,
        win: int,
        self_drawn: bool,
    ) -> tuple[int, tuple[int, int, bool, str] | None]: ...
    def plan_of(self, position: Any) -> tuple[int, tuple[int, int, bool, str] | None]: ...
    def rest(self, rest: int, pair: bool) -> tuple[int, tuple[int, int, int, int]]: ...
    def entry(self, size: int, key: int) -> tuple[int, int] | None: ...
    def current(self, packed: int, table_huxi: int) -> int | None: ...

class Reader:
    """Position.from_dict's common form read straight (core/position.py ``_read``)."""

    def __init__(
        self,
        words: dict[str, Any],
        melds: dict[str, Any],
        meld: Callable[[str], Any],
        shapes: dict[int, tuple[bool, bool, bool]],
        shape_flags: Callable[[int, int, int, int], tuple[bool, bool, bool]],
        fields: frozenset[str],
        position: type,
        colour: Sequence[int],
        four_rows: int,
    ) -> None: ...
    def __call__(self, d: Any, hand_size: Any) -> Any: ...

class Settler:
    """scoring.settle's common path for one rules object (core/scoring.py ``_settler``)."""

    def __init__(
        self,
        kernel: Kernel,
        rules: Any,
        min_huxi: int,
        ids: tuple[list[int], list[int], list[int]],
        won: dict[Any, Any],
        below: dict[int, Any],
        not_winning: Any,
        shared: type,
        colour: bool,
        miss: Callable[..., Any],
        rmask: int,
        rids: dict[Any, int],
        tinghu: bool,
        search: bool,
        sights: tuple[tuple[int, int, int, int], ...] = (),  # core/refusals.py, as data
        masks: tuple[int, ...] = (),  # what each set of live residual 名堂 reads
    ) -> None: ...
    def settle(self, position: Any, huang: Any) -> Any: ...

class Wild:
    """The 王 search's most 胡息 for one 胡息 grid (core/wang.py ``_solve``)."""

    def __init__(
        self,
        shapes: Sequence[Sequence[tuple[Sequence[int], int, int]]],
        alone: Sequence[Sequence[int]],
        flat: Sequence[int],
        loose: Sequence[Sequence[int]],
        loose_kinds: Sequence[Sequence[Sequence[int]]] | None = None,
        sizes: Kernel | None = None,
    ) -> None: ...
    def most(
        self, rest: int, wang: int, pair_free: bool, need: int
    ) -> tuple[int | None, int | None, int | None, int | None]: ...
    def clear(self) -> None: ...
    def most_of(
        self,
        packed: int,
        keys: tuple[int, ...],
        win: int,
        self_drawn: bool,
        wang: int,
        win_wang: bool,
        hand_wang: int,
        target: int,
    ) -> int: ...
    def classes_of(
        self,
        packed: int,
        keys: tuple[int, ...],
        win: int,
        self_drawn: bool,
        wang: int,
        win_wang: bool,
        hand_wang: int,
        target: int,
        xing: int,
        axes: int,
    ) -> tuple[int, tuple[tuple[int, int, int, int, int, int, tuple[int, ...]], ...]]: ...

class Front:
    """scoring.settle's front door: the rules of the call before straight to their Settler."""

    def __init__(self, slow: Callable[..., Any], default: Any) -> None: ...
    def __call__(self, position: Any, rules: Any = ..., huang: Any = ...) -> Any: ...
    def remember(
        self, rules: Any, native: Callable[..., Any] | None, after: Callable[..., Any] | None
    ) -> None: ...

class Encoder:
    """encoding/observation.py's vector of a View, in C (a bytearray of float32)."""

    def __init__(
        self,
        size: int,
        view: Sequence[int],
        at: Sequence[int],
        phases: tuple[Any, ...],
        phase_at: Sequence[int],
        discard: int,
        rules: tuple[str, ...],
        rule_at: Sequence[int],
        sources: tuple[Any, ...],
        source_at: Sequence[int],
        chi: Any,
        kinds: tuple[Any, ...],
        kind_at: Sequence[int],
        chi_at: dict[int, int],
    ) -> None: ...
    def __call__(self, view: tuple[Any, ...]) -> bytearray: ...
