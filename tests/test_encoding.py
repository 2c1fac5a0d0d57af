"""编码: the numbers the shipped model was trained on stay exactly what they were.

Shipped weights name :data:`FEATURE_VERSION`; any change to the state or action
features, the observation log, greedy's opinion (values and choice) or the
shipped network's play shows here. The expectations were recorded with the
features' earlier home (``train/features.py``, ``rl/observation.py``) before
they moved to :mod:`paohuzi.encoding`: SHA-256 of the float32 bytes over every
decision point (every seat in ``to_act``) of 16 greedy and 16 random hands per
preset, and the neural bot's choice (ε = 0.2) at every 8th of them.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator

import pytest

from paohuzi.bots import make_bot
from paohuzi.bots.greedy import greedy_choice, greedy_values
from paohuzi.core.player import Observation
from paohuzi.core.rules import preset
from paohuzi.core.state import GameState
from paohuzi.encoding.features import FEATURE_VERSION, action_features, state_features
from paohuzi.encoding.observation import encode_history

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"  # a choice per character
# (the history digests changed on 2026-12-05: a 吃 group reads 0.5, two alike 1.0; the
# features, labels and plays did not)
EXPECTED = {
    "hunan": (
        940,
        "1e24c4db0d681680a5dc8b978546ea2a948de3f56e703d4ac482c4108ce951d4",
        "1aca75dc2f8d62ec7f1cd635cbe95e596b2b90a49b421d42e71a2dfeb21d4ee4",
        "d6c89d14cea17a69aa6c618574928857a44fdaf32cec6b278fe13bf682c3f277",
        "f074107322701073420214c210110102070201610b080004011010003023214c"
        "11141008220b010170110030000018221850110120b10201013101",
    ),
    "changde": (
        940,
        "51b241675fda16bc4d22df4d454420eede82742f85b6969337ceb99c9401c153",
        "1aca75dc2f8d62ec7f1cd635cbe95e596b2b90a49b421d42e71a2dfeb21d4ee4",
        "d6c89d14cea17a69aa6c618574928857a44fdaf32cec6b278fe13bf682c3f277",
        "f074107322701073420214c210110102070201610b080004011010003023214c"
        "11141008220b010170110030000018221650120126b10201013101",
    ),
    "luzhou": (
        771,
        "5418d92557dd41cd2d4ad1efb2f9e5bdf067d6685078cfa81fc3da9b6eaf6a25",
        "d060983a3ba53881bfad079a9c82cddaa7d0631b2001666c5d1f911513939ac5",
        "23365a8535697c6c830a2ced1b524e7e35d7c5944365b52891b67a1deaf9a8af",
        "f08100a410d200011011283010120101501001610e0110001130000011100113"
        "310101510241010b10971170016212113",
    ),
}


def _positions(rules: str) -> Iterator[Observation]:
    for policy in ("greedy", "random"):
        bot = make_bot(policy)
        for seed in range(16):
            st = GameState(preset(rules), seed=seed)
            rng = random.Random(seed)
            while not st.is_terminal():
                for seat in st.to_act():
                    yield Observation(st, seat)
                st.apply(bot.act(Observation(st, st.current_player), rng))


def test_feature_version_is_the_shipped_models() -> None:
    assert FEATURE_VERSION == 1  # a new version needs new weights and new expectations


@pytest.mark.parametrize("rules", sorted(EXPECTED))
def test_features_and_play_are_unchanged(rules: str) -> None:
    neural = make_bot("neural:eps=0.2")
    feats, hist, labels, plays = hashlib.sha256(), hashlib.sha256(), [], []
    n = 0
    for n, obs in enumerate(_positions(rules), 1):
        values = greedy_values(obs)
        choice = greedy_choice(obs.legal, values)
        feats.update(state_features(obs).tobytes())
        feats.update(action_features(obs, values, choice).tobytes())
        labels.append(choice)
        if (n - 1) % 8 == 0:
            hist.update(encode_history(obs.view).tobytes())
            plays.append(DIGITS[obs.legal.index(neural.act(obs, random.Random(n - 1)))])
    got = (
        n,
        feats.hexdigest(),
        hist.hexdigest(),
        hashlib.sha256(bytes(labels)).hexdigest(),
        "".join(plays),
    )
    assert got == EXPECTED[rules]
