"""Bots: ``make_bot("random" | "greedy" | "ismcts[:key=value,…]" | "neural")``."""

from __future__ import annotations

from ..core.player import Bot, NoConsistentWorld, Observation, RandomBot

_REGISTRY: dict[str, type[Bot]] = {"random": RandomBot}


def register(cls: type[Bot]) -> type[Bot]:
    """Class decorator: make a bot available to :func:`make_bot` by its name."""
    _REGISTRY[cls.name] = cls
    return cls


def bot_names() -> list[str]:
    _load_all()
    return sorted(_REGISTRY)


def make_bot(spec: str) -> Bot:
    """A bot from ``"name"`` or ``"name:key=value,…"`` (options are passed as kwargs)."""
    _load_all()
    name, _, opts = spec.partition(":")
    cls = _REGISTRY.get(name.strip())
    if cls is None:
        raise ValueError(f"unknown bot {name!r} (one of {', '.join(sorted(_REGISTRY))})")
    kwargs: dict[str, object] = {}
    for item in filter(None, opts.split(",")):
        k, sep, v = item.partition("=")
        if not sep:
            raise ValueError(f"bot option {item!r} is not key=value")
        kwargs[k.strip()] = _value(v.strip())
    try:
        return cls(**kwargs)
    except TypeError as e:
        raise ValueError(f"bad options for bot {name!r}: {e}") from None


def make_bot_or_random(spec: str) -> tuple[Bot, str | None]:
    """``make_bot(spec)`` and ``None``; or, when ``spec`` makes no bot (unknown name,
    bad options, a bot module that fails to load), the random bot and a notice why.

    For games people are playing: a seat is never left empty over a bot's name.
    """
    try:
        return make_bot(spec), None
    except Exception as e:
        return RandomBot(), f"bot {spec!r} unavailable ({e}); {RandomBot.name} plays instead"


def _value(v: str) -> object:
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    return v


def _load_all() -> None:
    """Import the bot modules so that their @register runs (they import this one)."""
    import importlib

    for mod in ("greedy", "ismcts", "neural", "novice"):
        try:
            importlib.import_module(f"{__name__}.{mod}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{mod}":
                raise


__all__ = [
    "Bot",
    "NoConsistentWorld",
    "Observation",
    "RandomBot",
    "bot_names",
    "make_bot",
    "make_bot_or_random",
    "register",
]
