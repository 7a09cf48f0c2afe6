"""The agent registry (specs, options, lists of specs) and the trained-policy agent."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from agents import registry
from agents.registry import (
    AgentUnavailableError,
    make_agent,
    parse_spec,
    parse_value,
    split_specs,
)
from airships_env.engine import NUM_ACTIONS, new_game
from airships_env.policy import Decision, Policy, RandomPolicy


class OptionAgent:
    """A test agent with typed keyword options."""

    name = "option-agent"

    def __init__(
        self, sims: int = 10, seconds: float = 0.5, verbose: bool = False, label: str = "x"
    ):
        self.sims, self.seconds, self.verbose, self.label = sims, seconds, verbose, label

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Nothing to reset."""

    def act(self, decision: Decision) -> int:
        """The first legal action."""
        return decision.legal_actions[0]


class NotAnAgent:
    """No act method."""

    def __init__(self) -> None:
        self.name = "nothing"


def test_parse_value_types():
    assert parse_value("400") == 400 and isinstance(parse_value("400"), int)
    assert parse_value("1.5") == 1.5
    assert parse_value("true") is True and parse_value("False") is False
    assert parse_value("none") is None
    assert parse_value("configs/h.yaml") == "configs/h.yaml"


def test_parse_spec():
    assert parse_spec("greedy") == ("greedy", {})
    assert parse_spec(" mcts:sims=400,seconds=1.5 ") == ("mcts", {"sims": 400, "seconds": 1.5})
    with pytest.raises(ValueError, match="not key=value"):
        parse_spec("mcts:400")
    with pytest.raises(ValueError, match="given twice"):
        parse_spec("mcts:sims=1,sims=2")
    with pytest.raises(ValueError, match="known agents"):
        parse_spec("=x")


def test_split_specs_keeps_options_with_their_agent():
    assert split_specs("greedy,random") == ["greedy", "random"]
    assert split_specs("mcts:sims=400,seconds=1,greedy,random") == [
        "mcts:sims=400,seconds=1",
        "greedy",
        "random",
    ]
    assert split_specs("random,mcts:sims=4,heuristic:config=a.yaml") == [
        "random",
        "mcts:sims=4",
        "heuristic:config=a.yaml",
    ]
    with pytest.raises(ValueError, match="follows no agent"):
        split_specs("sims=3,greedy")
    with pytest.raises(ValueError, match="follows no agent"):
        split_specs("greedy,sims=3")
    with pytest.raises(ValueError, match="empty entry"):
        split_specs("greedy,,random")


def test_make_agent_random_uses_the_given_generator():
    agent = make_agent("random", rng=np.random.default_rng(5))
    assert isinstance(agent, RandomPolicy) and isinstance(agent, Policy)
    decision = Decision.from_state(new_game(2, seed=1))
    twin = RandomPolicy(np.random.default_rng(5))
    assert [agent.act(decision) for _ in range(20)] == [twin.act(decision) for _ in range(20)]


def test_make_agent_by_dotted_path_with_typed_options():
    agent = make_agent(f"{__name__}.OptionAgent:sims=400,seconds=1,verbose=true,label=abc")
    assert isinstance(agent, OptionAgent)
    assert (agent.sims, agent.seconds, agent.verbose, agent.label) == (400, 1, True, "abc")


def test_unknown_agent_or_option_lists_the_valid_ones():
    with pytest.raises(ValueError, match=r"unknown agent 'nosuch'.*random, greedy, heuristic"):
        make_agent("nosuch")
    with pytest.raises(ValueError, match=r"unknown option\(s\) depth.*sims, seconds, verbose"):
        make_agent(f"{__name__}.OptionAgent:depth=3")
    with pytest.raises(ValueError, match="takes: no options"):
        make_agent("random:sims=3")
    with pytest.raises(ValueError, match="Policy protocol"):
        make_agent(f"{__name__}.NotAnAgent")


def test_missing_bot_module_is_a_clear_error(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(registry.AGENTS, "ghost", "agents.bots.ghost_bot:GhostAgent")
    with pytest.raises(AgentUnavailableError, match=r"agents\.bots\.ghost_bot, which does not"):
        make_agent("ghost")
    monkeypatch.setitem(registry.AGENTS, "needs", f"{__name__}:MissingClass")
    with pytest.raises(AgentUnavailableError, match="has no 'MissingClass'"):
        make_agent("needs")


def test_registered_bots_build_when_their_modules_exist():
    for name in ("greedy", "heuristic", "mcts", "ismcts"):
        module = registry.AGENTS[name].partition(":")[0]
        if importlib.util.find_spec(module) is None:
            with pytest.raises(AgentUnavailableError):
                make_agent(name)
            continue
        agent = make_agent(name)
        assert isinstance(agent, Policy)
        state = new_game(2, seed=3)
        agent.reset(0, 2, np.random.default_rng(0))
        decision = Decision.from_state(state)
        assert agent.act(decision) in decision.legal_actions


# ---------------------------------------------------------------------------------------------
# The trained-policy agent
# ---------------------------------------------------------------------------------------------
def _sb3_available() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in ("sb3_contrib", "gymnasium"))


def test_ppo_agent_missing_file(tmp_path: Path):
    if not _sb3_available():
        pytest.skip("sb3-contrib is not installed")
    with pytest.raises(
        ValueError, match=r"agent spec 'ppo:path=.*none\.zip': PPO model .* not found"
    ):
        make_agent(f"ppo:path={tmp_path / 'none.zip'}")


@pytest.mark.slow  # importing torch and sb3 alone takes several seconds
def test_ppo_agent_refuses_a_model_with_another_action_space(tmp_path: Path):
    if not _sb3_available():
        pytest.skip("sb3-contrib is not installed")
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    class Tiny(gym.Env):
        observation_space = gym.spaces.Box(-1.0, 1.0, (3,), np.float32)
        action_space = gym.spaces.Discrete(5)

        def reset(self, *, seed=None, options=None):
            return np.zeros(3, np.float32), {}

        def step(self, action):
            return np.zeros(3, np.float32), 0.0, True, False, {}

        def action_masks(self):
            return np.ones(5, dtype=bool)

    MaskablePPO("MlpPolicy", Tiny(), n_steps=8, batch_size=8).save(tmp_path / "tiny")
    with pytest.raises(ValueError, match=f"has 5 actions, the game has {NUM_ACTIONS}"):
        make_agent(f"ppo:path={tmp_path / 'tiny.zip'}")


@pytest.mark.slow
def test_ppo_agent_plays_legal_moves_with_a_tiny_trained_model(tmp_path: Path):
    if not _sb3_available():
        pytest.skip("sb3-contrib is not installed")
    if importlib.util.find_spec("airships_env.single_agent") is None:
        pytest.skip("airships_env.single_agent does not exist yet: no env to train a model on")
    from sb3_contrib import MaskablePPO

    from airships_env.single_agent import AirshipsSingleAgentEnv

    started = time.perf_counter()
    env = AirshipsSingleAgentEnv()
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0)
    model.learn(128)
    model.save(tmp_path / "tiny")
    if time.perf_counter() - started > 15:
        pytest.skip("training the tiny model took more than 15 s on this machine")
    players = env.unwrapped.num_players if hasattr(env.unwrapped, "num_players") else 2
    agent = make_agent(f"ppo:path={tmp_path / 'tiny.zip'},deterministic=false")
    agent.reset(0, players, np.random.default_rng(0))
    state = new_game(players, seed=4)
    for _ in range(30):
        if state.is_terminal():
            break
        decision = Decision.from_state(state)
        action = agent.act(decision)
        assert action in decision.legal_actions
        state.apply_action(action)
    other = 3 if players != 3 else 2
    with pytest.raises(ValueError, match="another player count"):
        agent.act(Decision.from_state(new_game(other, seed=1)))


def test_ppo_without_a_path_uses_the_bundled_model_for_the_player_count():
    import numpy as np

    from agents.policy_agent import bundled_model
    from airships_env.engine import new_game
    from airships_env.policy import Decision

    agent = make_agent("ppo")
    with pytest.raises(RuntimeError, match="only after reset"):
        agent.act(Decision.from_state(new_game(2, seed=0)))
    assert bundled_model(3).name == "ppo_3p.zip"
    if not bundled_model(3).exists():  # no 3-player policy ships: the error says what to do
        with pytest.raises(FileNotFoundError, match=r"no bundled 3-player policy .*ppo:path="):
            agent.reset(0, 3, np.random.default_rng(0))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:sims=abc", "option sims=abc: expected a whole number or none"),
        ("mcts:seconds=fast", "option seconds=fast: expected a number or none"),
        ("mcts:candidates=2.5", "option candidates=2.5: expected a whole number"),
        ("mcts:sims=0", "sims must be a positive whole number"),
    ],
)
def test_an_option_of_the_wrong_kind_names_the_option_and_what_is_allowed(spec, message):
    with pytest.raises(ValueError) as caught:
        make_agent(spec)
    assert str(caught.value).startswith(f"agent spec {spec!r}: ") and message in str(caught.value)
    assert "invalid literal" not in str(caught.value)


@pytest.mark.parametrize(
    "spec",
    [
        "mcts:z=nan",
        "mcts:seconds=inf",
        "mcts:margin_weight=-inf",
        "mcts:search_turns=NaN",
        "ismcts:c=inf",
        "heuristic:dice_weight=nan",
    ],
)
def test_nan_and_infinity_are_refused_for_every_float_option(spec):
    """A range check such as ``value < 0`` lets NaN through: non-finite numbers are refused
    first, naming the option."""
    key, _, value = spec.partition(":")[2].partition("=")
    with pytest.raises(ValueError) as caught:
        make_agent(spec)
    message = str(caught.value)
    assert f"{key}={float(value)}" in message and "finite" in message, message


def test_a_negative_seed_names_the_seed_and_what_is_allowed(capsys):
    from agents.cli import main

    assert main(["arena", "--agents", "random,random", "--seed", "-1", "--no-progress"]) == 2
    assert "--seed: must be 0 or more, got -1" in capsys.readouterr().err


def test_an_agent_whose_package_is_missing_names_the_extra(monkeypatch) -> None:
    """The bundled ppo loads its zip with stable-baselines3: without it, an installed wheel
    said 'ModuleNotFoundError: ...' (exit 1); now the registry names the extra to install."""
    monkeypatch.setitem(sys.modules, "stable_baselines3.common.save_util", None)
    with pytest.raises(AgentUnavailableError) as error:
        make_agent("ppo", num_players=2)
    message = str(error.value)
    assert "agent 'ppo' needs the package 'stable_baselines3', which is not installed" in message
    assert "pip install 'airships-env[train]'" in message


def test_a_games_agent_defaults_apply_under_the_specs_own_options() -> None:
    """Clockwork City and Australia tune their ``ismcts`` (agent_defaults); a spec's own options
    win, and a game without defaults (Nippon) keeps the agent's."""
    from agents.registry import game_agent_defaults

    for game in ("clockwork", "australia"):
        tuned = make_agent("ismcts", game=game)
        assert (tuned.rollout, tuned.prior, tuned.bias, tuned.c) == (10, "heuristic", 50.0, 0.3)
        mine = make_agent("ismcts:c=1.5,prior=greedy", game=game)
        assert (mine.rollout, mine.prior, mine.c) == (10, "greedy", 1.5)
    plain = make_agent("ismcts", game="nippon")
    assert game_agent_defaults("nippon") == {} and plain.prior is None and plain.c == 0.7
    assert game_agent_defaults(None) == {}
