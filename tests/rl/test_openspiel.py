"""The OpenSpiel game python_paohuzi: OpenSpiel's own random-simulation checks."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import paohuzi.rl.openspiel  # noqa: E402, F401  (registers python_paohuzi)
from paohuzi.core.action_index import BASE_ACTION_COUNT  # noqa: E402
from paohuzi.core.cards import WANG  # noqa: E402
from paohuzi.core.rules import PRESETS  # noqa: E402
from paohuzi.encoding.observation import HISTORY_SIZE, OBSERVATION_SIZE  # noqa: E402


def deal(game, rng: random.Random):
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        actions, probs = zip(*outcomes, strict=True)
        state.apply_action(rng.choices(actions, probs)[0])
    return state


@pytest.mark.parametrize("rules", list(PRESETS))
def test_random_sim(rules: str) -> None:
    """Every preset: 永州 deals its 王 (R39) as chance outcomes too (it once dealt 80
    cards and failed), 娄底's race (R45) is general-sum (it was declared zero-sum, and
    OpenSpiel's check of the returns' sum failed)."""
    game = pyspiel.load_game("python_paohuzi", {"rules": rules})
    zero_sum = PRESETS[rules].zero_sum
    assert (game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM) == zero_sum
    assert game.max_chance_outcomes() == 20 + (PRESETS[rules].wang > 0)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "spec", ["guilin:zimo=unit", "hengyang:tun=3+1,xing=gen", "yongzhou:xing=gen;cap:600"]
)
def test_a_game_with_options_reads_its_own_string_back(spec: str) -> None:
    """A preset with options (variants.parse) is a game whose string — which OpenSpiel's
    serialization writes — loads the same game again (``=`` and ``,`` cannot stand in
    a game string: the options are spelled ``id:value;…`` there)."""
    game = pyspiel.load_game("python_paohuzi", {"rules": spec})
    again = pyspiel.load_game(str(game))
    assert again.rules == game.rules and str(again) == str(game)
    assert "=" not in game.get_parameters()["rules"]
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = deal(game, random.Random(3))
    g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert g2.rules == game.rules and str(s2) == str(state)


def test_wang_are_dealt_and_race_returns_need_not_cancel() -> None:
    rng = random.Random(11)
    yongzhou = pyspiel.load_game("python_paohuzi", {"rules": "yongzhou"})
    state = deal(yongzhou, rng)
    wang = PRESETS["yongzhou"].wang
    assert sorted(state.hand.state.deck) == sorted([*range(20)] * 4 + [WANG] * wang)
    assert state.move_number() == 1 + 80 + wang
    loudi = pyspiel.load_game("python_paohuzi", {"rules": "loudi"})
    sums = set()
    for _ in range(12):
        state = deal(loudi, rng)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.returns() == [float(x) for x in state.hand.state.returns()]
        sums.add(sum(state.returns()))
    assert sums != {0.0}  # a 荒庄 costs the dealer alone, a win pays more than is lost


def test_game_shape() -> None:
    game = pyspiel.load_game("python_paohuzi")
    assert game.num_players() == 3 and game.num_distinct_actions() == BASE_ACTION_COUNT
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]
    assert game.information_state_tensor_shape() == [OBSERVATION_SIZE + HISTORY_SIZE]
    assert pyspiel.load_game("python_paohuzi", {"rules": "luzhou"}).num_players() == 4


def test_deal_is_the_dealer_then_the_deck() -> None:
    game = pyspiel.load_game("python_paohuzi")
    state = game.new_initial_state()
    assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2]  # the dealer
    state.apply_action(1)
    assert len(state.chance_outcomes()) == 20
    for _ in range(4):
        state.apply_action(7)
    assert 7 not in [a for a, _ in state.chance_outcomes()]  # four copies placed
    state = deal(game, random.Random(3))
    assert state.move_number() == 81 and state.hand.state.dealer in (0, 1, 2)
    assert sorted(state.hand.state.deck) == sorted(c for c in range(20) for _ in range(4))


def test_play_clone_and_returns() -> None:
    game = pyspiel.load_game("python_paohuzi")
    rng = random.Random(5)
    for _ in range(3):
        state = deal(game, rng)
        while not state.is_terminal():
            player = state.current_player()
            legal = state.legal_actions()
            assert legal == state.legal_actions(player) and legal
            if rng.random() < 0.1:
                copy = state.clone()
                assert copy.information_state_string(player) == (
                    state.information_state_string(player)
                )
                copy.apply_action(legal[0])  # the copy moves on alone
                assert copy.history() != state.history()
            state.apply_action(rng.choice(legal))
        assert sum(state.returns()) == 0
        assert state.returns() == [float(x) for x in state.hand.state.returns()]


def test_claim_windows_ask_every_seat_in_a_fixed_order() -> None:
    """As in the AEC env (issue 26): the order of players in a claim window is play
    order from the open card's owner, whatever anyone's options; a seat without
    one may only pass (index 41)."""
    from paohuzi.core.action_index import PASS_INDEX, index_of

    game = pyspiel.load_game("python_paohuzi")
    rng = random.Random(8)
    windows = forced = 0
    for _ in range(6):
        state = deal(game, rng)
        asked: list[int] = []
        while not state.is_terminal():
            st = state.hand.state
            player = state.current_player()
            if st.phase == "claim":
                if not asked:
                    owner = st.open_card[1]
                    order = [s for k in range(3) if (s := (owner + k) % 3) in st.seats]
                    options = {s: sorted(index_of(a) for a in st.legal_actions(s)) for s in order}
                    windows += 1
                asked.append(player)
                assert player == order[len(asked) - 1]
                assert state.legal_actions() == (options[player] or [PASS_INDEX])
                forced += not options[player]
                if len(asked) == len(order):
                    asked = []
            else:
                assert player == st.current_player and not asked
            state.apply_action(rng.choice(state.legal_actions()))
        assert sum(state.returns()) == 0
    assert windows > 10 and forced > 5
