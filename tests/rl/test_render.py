"""Rendering: ``ansi`` and ``rgb_array`` from one seat's view (issue 26, items 1 and 7)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("PIL")

import paohuzi.rl  # noqa: E402  (registers paohuzi/Paohuzi-v0)
from paohuzi.core.player import NoConsistentWorld, Observation  # noqa: E402
from paohuzi.core.rules import preset  # noqa: E402
from paohuzi.rl import paohuzi_v0  # noqa: E402
from paohuzi.rl.gym_env import PaohuziEnv  # noqa: E402
from paohuzi.rl.render import HEIGHT, WIDTH, render_rgb, render_text  # noqa: E402

from .helpers import random_states  # noqa: E402


@pytest.mark.parametrize("rules", ["hunan", "luzhou"])
def test_a_seats_picture_depends_on_its_view_only(rules: str) -> None:
    """Redrawing every card a seat cannot see changes neither its text nor its
    image (the same swap test as the observation's), while the spectator's
    picture, which shows every hand, does change."""
    rng = random.Random(5)
    checked = spectator_changed = 0
    for k, state in enumerate(random_states(preset(rules), hands=3, seed=11)):
        if k % 9:
            continue
        seat = state.seats[k % len(state.seats)]
        try:
            other = Observation(state, seat).determinize(rng)
        except NoConsistentWorld:
            continue
        assert render_text(other, seat) == render_text(state, seat)
        assert np.array_equal(render_rgb(other, seat), render_rgb(state, seat))
        spectator_changed += render_text(other) != render_text(state)
        checked += 1
    assert checked >= 8 and spectator_changed >= checked // 2


def test_gym_rgb_array_is_the_learners_view() -> None:
    env = PaohuziEnv(render_mode="rgb_array")
    _obs, info = env.reset(seed=3)
    img = env.render()
    assert img.shape == (HEIGHT, WIDTH, 3) and img.dtype == np.uint8
    assert np.array_equal(img, render_rgb(env.hand.state, info["seat"]))
    assert img.std() > 10  # a drawn table, not a blank frame


def test_gym_ansi_is_per_seat() -> None:
    env = PaohuziEnv(render_mode="ansi")
    _obs, info = env.reset(seed=3)
    text = env.render()
    me = info["seat"]
    assert f"seat {me}'s view" in text and "(you)" in text
    v = env.hand.view(me)
    assert "".join(c.zh for c in v.hand) in text
    for s in env.hand.state.seats:
        if s != me:  # another hand shows as a count only
            assert f"hand {v.hand_sizes[s]} cards" in text
    with pytest.raises(ValueError, match="render_mode"):
        PaohuziEnv(render_mode="human")


def test_aec_render_seat() -> None:
    env = paohuzi_v0.env(render_mode="rgb_array", render_seat=1)
    env.reset(seed=2)
    img = env.render()
    assert np.array_equal(img, render_rgb(env.unwrapped.hand.state, 1))
    spec = paohuzi_v0.env(render_mode="ansi")
    spec.reset(seed=2)
    assert "spectator" in spec.render()
    with pytest.raises(ValueError, match="render_seat"):
        paohuzi_v0.env(render_seat=3)  # hunan has three seats


def test_make_vec_env_with_maskable_ppo() -> None:
    """sb3's ``make_vec_env`` asks for ``rgb_array`` first (the researcher's first error)."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(1)
    venv = make_vec_env(paohuzi.rl.ENV_ID, n_envs=4, seed=0)
    assert venv.render_mode == "rgb_array"
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=32, n_epochs=1, seed=0)
    model.learn(64)
    assert model.num_timesteps >= 64
    assert venv.get_images()[0].shape == (HEIGHT, WIDTH, 3)


def test_record_video(tmp_path) -> None:
    pytest.importorskip("moviepy")
    from gymnasium.wrappers import RecordVideo

    folder = tmp_path / "videos"  # a new folder: the recorder warns about an existing one
    env = RecordVideo(
        gymnasium.make(paohuzi.rl.ENV_ID, render_mode="rgb_array"),
        str(folder),
        episode_trigger=lambda e: True,
    )
    env.reset(seed=0)
    done = False
    while not done:
        mask = env.unwrapped.action_masks()
        *_, done, _trunc, _info = env.step(int(np.flatnonzero(mask)[0]))
    env.close()
    videos = list(folder.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000
