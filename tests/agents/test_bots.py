"""The bots: legal play over whole games, their own generators, hidden-order independence of the
search (docs/airships/RULES.md V2), the heuristic's config file and its end-of-game judgement (E1, E2)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents.bots import GreedyAgent, HeuristicAgent, HeuristicConfig, MCTSAgent
from airships_env.bot_config import DEFAULT_CONFIG
from airships_env.engine import (
    CHIP_DECISION,
    CHOOSE_TARGET,
    KEEP_CHIP,
    SPEND_CHIP,
    GameState,
    new_game,
    public_view,
)
from airships_env.engine.actions import (
    EXCHANGE,
    EXCHANGE_GIVING_FIXED,
    FIRST_PHASE_TARGET,
    attempt_action,
    attempt_target,
    attempt_variant,
)
from airships_env.engine.dice import FACES
from airships_env.engine.rules import player_pool, target_card
from airships_env.engine.state import CHANGE_OF_ERA
from airships_env.policy import Decision, Policy


def small_mcts(**options: object) -> MCTSAgent:
    """A search bot with a tiny budget that searches at every decision."""
    settings: dict[str, object] = {"sims": 6, "candidates": 3, "search_turns": 0.0}
    settings.update(options)
    return MCTSAgent(**settings)  # type: ignore[arg-type]


def play(bots: list[Policy], seed: int, check_rng: bool = False) -> GameState:
    """Play a whole game; every action must be legal; optionally check that no bot touches the
    game's generator."""
    state = new_game(num_players=len(bots), seed=seed)
    for seat, bot in enumerate(bots):
        bot.reset(seat, len(bots), np.random.default_rng(1000 + seat))
    while not state.is_terminal():
        decision = Decision.from_state(state)
        assert state.rng is not None
        before = state.rng.bit_generator.state
        action = bots[state.current_player].act(decision)
        if check_rng:
            assert state.rng.bit_generator.state == before
        assert action in decision.legal_actions, (action, decision.legal_actions)
        state.apply_action(action)
    return state


# -- legal play and generators ------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_and_heuristic_play_legal_whole_games(players: int) -> None:
    for seed in range(3):
        bots: list[Policy] = [HeuristicAgent() if p % 2 else GreedyAgent() for p in range(players)]
        final = play(bots, seed=seed + 10 * players, check_rng=True)
        assert final.winners


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mcts_plays_legal_whole_games(players: int) -> None:
    bots: list[Policy] = [small_mcts(sims=4, candidates=2)] + [
        HeuristicAgent() for _ in range(players - 1)
    ]
    final = play(bots, seed=77 + players, check_rng=True)
    assert final.winners


def test_bots_do_not_change_the_games_dice() -> None:
    """Same deal, same bots' choices up to the first point they differ: the game's dice come from
    the game's generator only, so two bots that choose the same actions see the same game."""
    first = play([GreedyAgent(), GreedyAgent()], seed=5)
    # It searches at every decision but never trusts the search: it plays the heuristic's moves.
    searching = small_mcts(sims=4, candidates=2, z=1e9)
    second = play([HeuristicAgent(), HeuristicAgent()], seed=5)
    third = play([searching, HeuristicAgent()], seed=5)
    assert first.to_dict() != second.to_dict()  # different bots play differently...
    assert second.to_dict() == third.to_dict()  # ...but the search bot's sampling left no trace


def test_mcts_draws_from_its_own_generator() -> None:
    state = new_game(num_players=2, seed=3)
    decision = Decision.from_state(state)
    choices = set()
    for agent_seed in range(6):
        bot = small_mcts(sims=8)
        rng = np.random.default_rng(agent_seed)
        bot.reset(0, 2, rng)
        before = rng.bit_generator.state
        choices.add(bot.act(decision))
        assert rng.bit_generator.state != before  # it sampled from the generator it was given
    assert choices <= set(decision.legal_actions)


# -- the search never depends on the true hidden order (V2) ------------------------------------
def _hidden_swapped(state: GameState) -> GameState:
    """The same game with two Era 2 deck cards swapped and two hidden tier-3 airships swapped."""
    other = state.clone()
    era_two = [
        i
        for i, c in enumerate(other.deck)
        if c != CHANGE_OF_ERA and other.cards.expansions[c].era == 2
    ]
    i, j = era_two[0], era_two[-1]
    other.deck[i], other.deck[j] = other.deck[j], other.deck[i]
    bottoms = [s for s in range(4) if len(other.stacks[s]) >= 2]
    a, b = bottoms[0], bottoms[1]
    other.stacks[a][0], other.stacks[b][0] = other.stacks[b][0], other.stacks[a][0]
    return other


def test_mcts_choice_does_not_depend_on_the_hidden_order() -> None:
    state = new_game(num_players=2, seed=11)
    while len(state.legal_actions()) < 4 or state.phase != CHOOSE_TARGET:
        state.apply_action(state.legal_actions()[0])
    swapped = _hidden_swapped(state)
    assert swapped.deck != state.deck and swapped.stacks != state.stacks
    assert public_view(state).to_dict() == public_view(swapped).to_dict()
    outcomes = []
    for true_state in (state, swapped):
        bot = small_mcts(sims=24, candidates=4)
        bot.reset(state.current_player, 2, np.random.default_rng(42))
        action = bot.act(Decision.from_state(true_state))
        outcomes.append((action, bot.last_stats))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][1]  # the search ran and its statistics are compared in full


def test_no_bot_reads_the_hidden_order() -> None:
    state = new_game(num_players=3, seed=8)
    swapped = _hidden_swapped(state)
    for seed in range(30):  # decisions along a game, each with its hidden-swapped twin
        for bot in (GreedyAgent(), HeuristicAgent()):
            bot.reset(state.current_player, 3, np.random.default_rng(seed))
            assert bot.act(Decision.from_state(state)) == bot.act(Decision.from_state(swapped))
        action = HeuristicAgent().act(Decision.from_state(state))
        state.apply_action(action)
        swapped.apply_action(action)
        if state.is_terminal():
            break
        if public_view(state).to_dict() != public_view(swapped).to_dict():
            swapped = _hidden_swapped(state)  # a swapped card came up: hide another swap


def test_mcts_seeds_change_the_search() -> None:
    """The comparison above can fail: another agent seed gives other sampled worlds."""
    state = new_game(num_players=2, seed=11)
    while len(state.legal_actions()) < 4 or state.phase != CHOOSE_TARGET:
        state.apply_action(state.legal_actions()[0])
    stats = []
    for agent_seed in (1, 2):
        bot = small_mcts(sims=24, candidates=4)
        bot.reset(state.current_player, 2, np.random.default_rng(agent_seed))
        bot.act(Decision.from_state(state))
        stats.append(bot.last_stats)
    assert stats[0] != stats[1]


def test_mcts_budget_options() -> None:
    with pytest.raises(ValueError, match="sims"):
        MCTSAgent(sims=0)
    with pytest.raises(ValueError, match="steps"):
        MCTSAgent(steps=-5)
    with pytest.raises(ValueError, match="seconds"):
        MCTSAgent(seconds=-1.0)
    with pytest.raises(ValueError, match="candidates"):
        MCTSAgent(candidates=0)
    default = MCTSAgent()
    assert (default.sims, default.steps, default.seconds) == (200, 2000, None)
    timed = MCTSAgent(seconds=0.05, search_turns=0.0)
    assert (timed.sims, timed.steps) == (None, None)  # a time budget alone is not capped
    state = new_game(num_players=2, seed=4)
    while len(state.legal_actions()) < 3:
        state.apply_action(state.legal_actions()[0])
    decision = Decision.from_state(state)
    for bot in (timed, MCTSAgent(steps=40, search_turns=0.0)):
        bot.reset(state.current_player, 2, np.random.default_rng(0))
        assert bot.act(decision) in decision.legal_actions
        assert bot.last_stats  # it searched


# -- the greedy bot ------------------------------------------------------------------------------
def test_greedy_spends_the_chip_that_decides_the_attempt() -> None:
    rng = np.random.default_rng(0)
    for seed in range(40):
        state = new_game(num_players=2, seed=seed)
        while not state.is_terminal() and state.phase != CHIP_DECISION:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        if state.phase == CHIP_DECISION:
            bot = GreedyAgent()
            bot.reset(state.current_player, 2, np.random.default_rng(0))
            assert bot.act(Decision.from_state(state)) == SPEND_CHIP  # T5
            return
    pytest.fail("no chip decision came up in 40 random games")


# -- the heuristic's config ----------------------------------------------------------------------
def test_heuristic_default_config_is_the_shipped_file() -> None:
    assert DEFAULT_CONFIG.is_file()
    assert HeuristicAgent().config == HeuristicConfig.load(DEFAULT_CONFIG)


def test_heuristic_config_file_overrides_keys(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("race_weight: 0\ndice_weight: 1.25\n", encoding="utf-8")
    config = HeuristicAgent(config=path).config
    assert config.race_weight == 0.0 and config.dice_weight == 1.25
    assert config.win_value == HeuristicConfig.load().win_value
    assert HeuristicAgent(config=str(path), chip_value_min=0.5).config.chip_value_min == 0.5


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("dice_wieght: 1.0\n", r"dice_wieght: unknown key \(known: .*dice_weight"),
        ("dice_weight: lots\n", "dice_weight: expected a finite number, found 'lots'"),
        ("dice_weight: true\n", "dice_weight: expected a finite number, found True"),
        ("value_era: 3\n", "value_era: expected one of 1 or 2, found 3"),
        ("- 1\n- 2\n", "expected a mapping of keys"),
        ("dice_weight: [1\n", "not valid YAML"),
        ("", "the file is empty"),
    ],
)
def test_heuristic_config_errors_name_the_file_and_the_key(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message) as caught:
        HeuristicAgent(config=path)
    assert str(path) in str(caught.value)


def test_heuristic_config_missing_file_and_bad_keyword(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"absent\.yaml: no such config file"):
        HeuristicAgent(config=tmp_path / "absent.yaml")
    with pytest.raises(ValueError, match="heuristic options: speed: unknown key"):
        HeuristicAgent(speed=3.0)


# -- the heuristic's end of game (E1, E2) --------------------------------------------------------
def _last_phase_state(own_airships: list[str]) -> GameState:
    """Player 0 to act with strong dice; the opponent holds Hindenburg phases 1-3; phase 4 and an
    airship stack of three cards are open (taking its top does not end the game)."""
    state = new_game(num_players=2, seed=1)
    cards = state.cards
    exp, air = cards.expansion_index, cards.airship_index
    state.era = 2
    state.deck = []
    me, other = state.players
    me.slots = [
        exp["financier-23"],
        exp["hangar-23"],
        exp["captain-22"],
        exp["engineer-22"],
        exp["engine-23"],
        -1,
    ]
    me.airships = [air[a] for a in own_airships]
    other.airships = []
    state.stacks = [[], [air["airship-D3"], air["airship-M3"], air["airship-L1"]], [], []]
    state.hindenburg_open = True
    state.hindenburg = [1, 1, 1, -1]
    state.wooden_airship = 1
    state.current_player = 0
    state.legal_cache = None
    return state


def test_heuristic_does_not_complete_the_hindenburg_to_lose() -> None:
    # 10 points of airships + 12 for phase 4 < 27 for the opponent's three phases at high (E2).
    state = _last_phase_state(["airship-D2", "airship-D6"])
    bot = HeuristicAgent()
    bot.reset(0, 2, np.random.default_rng(0))
    decision = Decision.from_state(state)
    assert attempt_action(FIRST_PHASE_TARGET + 3) in decision.legal_actions
    assert attempt_target(bot.act(decision)) != FIRST_PHASE_TARGET + 3


def test_heuristic_completes_the_hindenburg_to_win() -> None:
    # 20 points of airships + 12 > 27: completing the Hindenburg ends the game with a win (E1).
    state = _last_phase_state(["airship-D2", "airship-D5", "airship-D1", "airship-M1"])
    bot = HeuristicAgent()
    bot.reset(0, 2, np.random.default_rng(0))
    assert attempt_target(bot.act(Decision.from_state(state))) == FIRST_PHASE_TARGET + 3


def _chip_decision(state: GameState, action: int) -> GameState:
    """The state after ``action`` whose roll misses by exactly 1 (T5), found by trying faces."""
    rng = np.random.default_rng(0)
    info = target_card(state, attempt_target(action))
    assert info is not None
    shape = player_pool(state, state.current_player).shape(attempt_variant(action), info[2])
    for _ in range(5000):
        faces: list[tuple[int, ...]] = [(), (), ()]
        for colour, rolled, _keep, _fixed in shape:
            faces[colour] = tuple(int(rng.choice(FACES[colour])) for _ in range(rolled))
        trial = state.clone()
        record = trial.apply_action(action, dice=(faces[0], faces[1], faces[2]))
        if record.result == "chip decision":
            return trial
    raise AssertionError("no roll missing by exactly 1 was found")


def test_heuristic_spends_a_chip_only_on_a_card_worth_it() -> None:
    """Spending the deciding chip gains the card but costs a chip; keeping it fails the attempt and
    brings a chip from the supply (T5, T7). Worth it for the winning phase, not for a card that
    would replace a better one."""
    state = _last_phase_state(["airship-D2", "airship-D5", "airship-D1", "airship-M1"])
    state.board[0] = state.cards.expansion_index["financier-22"]  # worse than financier-23
    state.legal_cache = None
    bot = HeuristicAgent()
    bot.reset(0, 2, np.random.default_rng(0))
    worthless = _chip_decision(state, attempt_action(0))
    assert worthless.phase == CHIP_DECISION
    assert bot.act(Decision.from_state(worthless)) == KEEP_CHIP
    winning = _chip_decision(state, attempt_action(FIRST_PHASE_TARGET + 3))
    assert bot.act(Decision.from_state(winning)) == SPEND_CHIP


@pytest.mark.parametrize("bot", [GreedyAgent(), HeuristicAgent()], ids=["greedy", "heuristic"])
def test_bots_give_the_fixed_die_where_that_variant_dominates(bot: Policy) -> None:
    """docs/airships/RULES.md X4: for engine-23, giving the fixed red 3 succeeds with 5/18 against 2/9 for
    giving two rollable reds (and more often with a chip too): the bots take the better variant."""
    state = new_game(2, seed=0)
    state.era = 2
    cards = state.cards
    state.players[0].slots = [-1] * 6
    for card_id in ("hangar-12", "financier-22", "engineer-12", "materials-21"):
        card = cards.expansion_index[card_id]
        state.players[0].slots[cards.expansions[card].department] = card
    state.board = [-1] * 18
    state.board[12] = cards.expansion_index["engine-23"]  # engine row, slot 1: target 12
    state.legal_cache = None
    keep, give_fixed = attempt_action(12, EXCHANGE), attempt_action(12, EXCHANGE_GIVING_FIXED)
    assert {keep, give_fixed} <= set(state.legal_actions())
    bot.reset(0, 2, np.random.default_rng(0))
    decision = Decision(public_view(state), 0, (keep, give_fixed))
    assert bot.act(decision) == give_fixed
    decision = Decision(public_view(state), 0, (give_fixed, keep))
    assert bot.act(decision) == give_fixed
