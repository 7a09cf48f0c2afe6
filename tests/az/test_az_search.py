"""The az search and agent: legal choices, budgets, batching, no hidden information, registry."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch

from agents.az.agent import AZAgent
from agents.az.network import PolicyValueNet
from agents.az.search import (
    Node,
    PUCTSearch,
    SearchCounts,
    SearchSettings,
    game_result,
    run_searches,
)
from agents.registry import make_agent
from airships_env.engine import CHOOSE_TARGET, determinize, new_game
from airships_env.native import NativeGame
from airships_env.policy import Decision


def _decision_state(seed: int = 11, num_players: int = 2):  # type: ignore[no-untyped-def]
    """A state whose seat to act has several targets to choose from."""
    state = new_game(num_players=num_players, seed=seed)
    while len(state.legal_actions()) < 4 or state.phase != CHOOSE_TARGET:
        state.apply_action(state.legal_actions()[0])
    return state


@pytest.fixture(scope="module")
def net_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A small scratch network with a random value head (so that values differ between the
    sampled worlds' leaves), saved for ``az:path=``."""
    path = tmp_path_factory.mktemp("az") / "small.pt"
    net = PolicyValueNet(2, (32,), 16, rng=np.random.default_rng(0))
    generator = torch.Generator().manual_seed(0)
    with torch.no_grad():
        net.value_head.weight.copy_(torch.randn(net.value_head.weight.shape, generator=generator))
    net.save(path)
    return str(path)


@pytest.fixture(params=["native", "python"])
def engine(request: pytest.FixtureRequest) -> str:
    """The search in the core, or the Python tree."""
    return str(request.param)


def _agent(path: str, **options: object) -> AZAgent:
    return AZAgent(sims=24, batch=4, path=path, **options)  # type: ignore[arg-type]


def _same(counts: SearchCounts | None) -> tuple[object, ...]:
    """What a search did, without its wall time."""
    assert counts is not None
    return (counts.simulations, counts.evaluations, counts.nodes, counts.root)


def test_the_choice_is_legal_and_the_budget_is_kept(net_path: str, engine: str) -> None:
    state = _decision_state()
    agent = _agent(net_path, engine=engine)
    agent.reset(state.current_player, 2, np.random.default_rng(1))
    action = agent.act(Decision.from_state(state))
    assert action in state.legal_actions()
    counts = agent.last_counts
    assert counts is not None
    assert counts.simulations == 24
    assert 1 <= counts.evaluations <= 24
    assert sum(visits for _action, visits, _mean in counts.root) == 24 - 1  # the root's own
    assert {a for a, _v, _m in counts.root} <= set(state.legal_actions())


def test_a_time_budget_stops_the_search(net_path: str) -> None:
    state = _decision_state()
    agent = AZAgent(ms=30, batch=4, path=net_path)
    agent.reset(state.current_player, 2, np.random.default_rng(1))
    agent.act(Decision.from_state(state))
    counts = agent.last_counts
    assert counts is not None and counts.simulations >= 1
    assert counts.seconds < 0.03 + 0.5  # the budget plus one batch in flight, generously


def test_hidden_information_is_never_read(net_path: str, engine: str) -> None:
    """Two true states sharing the public view (hidden cards and generator re-dealt) give the
    same search, decision after decision, for the same agent seed."""
    state = _decision_state(seed=4)
    outcomes = []
    for world in (1, 2):
        true_state = determinize(state, np.random.default_rng(world))
        assert true_state.deck != state.deck or true_state.stacks != state.stacks
        agent = _agent(net_path, engine=engine)
        agent.reset(state.current_player, 2, np.random.default_rng(42))
        # The decision carries the true state itself: the agent must strip it.
        decision = Decision(
            true_state, true_state.current_player, tuple(true_state.legal_actions())
        )
        outcomes.append((agent.act(decision), _same(agent.last_counts)))
    assert outcomes[0] == outcomes[1]


def test_agent_seeds_change_the_search(net_path: str, engine: str) -> None:
    """The comparison above can fail: another agent seed samples other worlds."""
    state = _decision_state(seed=4)
    counts = []
    for seed in (1, 2):
        agent = _agent(net_path, engine=engine)
        agent.reset(state.current_player, 2, np.random.default_rng(seed))
        agent.act(Decision.from_state(state))
        counts.append(_same(agent.last_counts))
    assert counts[0] != counts[1]


def test_a_fixed_seed_replaces_the_game_generator(net_path: str, engine: str) -> None:
    state = _decision_state()
    seen = []
    for game_seed in (1, 2):
        agent = _agent(net_path, engine=engine, seed=9)
        agent.reset(state.current_player, 2, np.random.default_rng(game_seed))
        agent.act(Decision.from_state(state))
        seen.append(_same(agent.last_counts))
    assert seen[0] == seen[1]


def test_batched_searches_side_by_side() -> None:
    """Leaves of several searches share forward passes; each keeps its own budget."""
    net = PolicyValueNet(2, (16,), 8, rng=np.random.default_rng(2))
    views = [NativeGame.new(2, seed=seed).public_view().handle for seed in (1, 2, 3)]
    settings = SearchSettings(batch=4, dirichlet_fraction=0.25)
    searches = [
        PUCTSearch(view, settings, np.random.default_rng(index), sims=12)
        for index, view in enumerate(views)
    ]
    calls: list[int] = []

    def evaluate(observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        calls.append(len(observations))
        return net.predict(observations, masks)

    passes, leaves = run_searches(searches, [evaluate] * 3)
    assert passes == len(calls) and leaves == sum(calls)
    assert max(calls) > 4  # leaves of several searches in one pass
    for search in searches:
        assert search.counts.simulations == 12 and search.done()
        assert search.best_action() in search.legal
        assert search.root.pending == 0
        assert all(child.pending == 0 for child in search.root.children.values())


def test_leaf_values_come_back_in_absolute_seat_order() -> None:
    """The network answers in the observation's order (the leaf's seat first)."""
    game = NativeGame.new(4, seed=2)
    while game.current_player != 1:  # not 0 nor 2 (a roll by 2 of 4 is its own inverse)
        game.apply_action(game.legal_actions()[0])
    view = game.public_view().handle
    search = PUCTSearch(view, SearchSettings(), np.random.default_rng(0), sims=1)
    leaves = search.gather()
    assert len(leaves) == 1 and leaves[0].seat == view.current_player
    relative = np.array([[0.1, 0.2, 0.3, 0.4]])
    search.finish(leaves, np.full((1, 83), 1 / 83), relative)
    seat = leaves[0].seat
    assert seat == 1
    expected = [relative[0][(s - seat) % 4] for s in range(4)]
    assert search.root.value_sum == expected


def test_rollouts_mix_into_leaf_values(net_path: str, engine: str) -> None:
    state = _decision_state()
    agent = _agent(net_path, engine=engine, rollout_weight=1.0)
    agent.reset(state.current_player, 2, np.random.default_rng(1))
    agent.act(Decision.from_state(state))
    with_rollouts = _same(agent.last_counts)
    no_rollouts = _agent(net_path, engine=engine, rollout_weight=0.0)
    no_rollouts.reset(state.current_player, 2, np.random.default_rng(1))
    no_rollouts.act(Decision.from_state(state))
    assert _same(no_rollouts.last_counts)[3] != with_rollouts[3]
    # A rollout result is a win share plus a margin term: within [-0.2, 1.2].
    assert all(-0.2 <= mean <= 1.2 for _a, _v, mean in with_rollouts[3])  # type: ignore[attr-defined]


def test_root_value_is_the_visit_weighted_mean_of_the_root(net_path: str, engine: str) -> None:
    assert SearchCounts(root=[(3, 2, 0.5), (7, 6, 0.1)]).root_value() == pytest.approx(0.2)
    assert SearchCounts(root=[(3, 0, 0.0)]).root_value() is None
    assert SearchCounts().root_value() is None
    state = _decision_state()
    agent = _agent(net_path, engine=engine, rollout_weight=1.0)
    agent.reset(state.current_player, 2, np.random.default_rng(1))
    agent.act(Decision.from_state(state))
    counts = agent.last_counts
    assert counts is not None
    value = counts.root_value()
    means = [mean for _action, visits, mean in counts.root if visits]
    assert value is not None and min(means) <= value <= max(means)


def test_game_result_is_win_share_plus_margin() -> None:
    game = NativeGame.new(2, seed=3)
    while not game.is_terminal():
        game.apply_action(game.legal_actions()[0])
    scores, winners = game.final_scores, game.winners
    assert scores is not None and winners is not None
    values = game_result(game.handle, 2, 0.0)
    assert list(values) == [1.0 / len(winners) if s in winners else 0.0 for s in range(2)]
    with_margin = game_result(game.handle, 2, 0.2)
    assert np.allclose(
        with_margin - values,
        [0.2 * np.tanh((scores[0] - scores[1]) / 10), 0.2 * np.tanh((scores[1] - scores[0]) / 10)],
    )


@pytest.mark.parametrize(("fpu", "chosen"), [("mean", 1), ("first", 0)])
def test_an_unvisited_action_starts_at_the_rule_of_fpu(fpu: str, chosen: int) -> None:
    """Two actions of equal prior, action 0 visited once (result 0.2): under ``mean`` the
    unvisited action 1 starts at the node's mean so far (0.9) and is chosen; under ``first`` at
    the node's first evaluation (-1.0), and the visited one is chosen."""
    search = PUCTSearch.__new__(PUCTSearch)
    search.settings = SearchSettings(c_puct=1.5, fpu=fpu)
    node, child = Node(2), Node(2)
    node.prior = [0.5, 0.5] + [0.0] * 81
    node.visits, node.value_sum, node.first = 2, [1.8, 0.2], [-1.0, 2.0]
    child.visits, child.value_sum = 1, [0.2, 0.8]
    node.children[0] = child
    assert search._select(node, 0, [0, 1]) == chosen


class _CountingView:
    """A native public view that counts the worlds a search draws from it."""

    def __init__(self, view: object):
        self.view = view
        self.worlds = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.view, name)

    def determinize(self, state: object) -> object:
        self.worlds += 1
        return self.view.determinize(state)  # type: ignore[attr-defined]


@pytest.mark.parametrize("worlds", ["paired", "fresh"])
def test_paired_worlds_are_one_list_that_every_root_action_walks(
    net_path: str, worlds: str
) -> None:
    """``worlds=paired``: a root action's k-th visit plays the search's k-th world, so the
    search makes exactly as many worlds as its most visited root action has visits (every
    other action replays some of them); ``fresh`` makes one a simulation. The Python tree."""
    from agents.az.network import load_network

    state = _decision_state()
    view = _CountingView(NativeGame.from_state(state).public_view().handle)
    settings = SearchSettings(batch=1, rollout_weight=1.0, worlds=worlds)  # type: ignore[arg-type]
    heuristic = AZAgent()._heuristic
    search = PUCTSearch(view, settings, np.random.default_rng(3), sims=40, heuristic=heuristic)
    run_searches([search], [load_network(net_path).predict])
    visits = search.visit_counts()
    assert visits.sum() == 40 - 1 and np.count_nonzero(visits) >= 3
    assert view.worlds == (int(visits.max()) if worlds == "paired" else 40)


def _searches_by_option(
    net_path: str, option: str, values: tuple[str, ...]
) -> dict[str, SearchCounts]:
    """The native search of one decision under each value of ``option`` (rollouts, seed 4); a
    value searched again must repeat its search exactly (the same seed: the same search)."""
    state = _decision_state()
    seen: dict[str, SearchCounts] = {}
    for value in values:
        agent = _agent(net_path, rollout_weight=1.0, seed=4, **{option: value})
        agent.reset(state.current_player, 2, np.random.default_rng(1))
        agent.act(Decision.from_state(state))
        assert agent.last_counts is not None
        assert _same(seen.setdefault(value, agent.last_counts)) == _same(agent.last_counts)
    return seen


def test_paired_worlds_change_the_native_search_and_repeat(net_path: str) -> None:
    seen = _searches_by_option(net_path, "worlds", ("paired", "fresh", "paired"))
    assert seen["paired"].root != seen["fresh"].root


def test_subtracting_the_luck_changes_the_native_search_and_repeats(net_path: str) -> None:
    """``az:luck=subtract``: the core's search backs up results less the dice's luck; the
    same seed gives the same search, other than keeping the luck, and the slopes it fitted are
    reported (none when the luck is kept). The Python tree refuses it."""
    seen = _searches_by_option(net_path, "luck", ("subtract", "keep", "subtract"))
    assert seen["subtract"].root != seen["keep"].root
    assert len(seen["subtract"].luck_slopes) == 4 and any(seen["subtract"].luck_slopes)
    assert seen["keep"].luck_slopes == (0.0, 0.0, 0.0, 0.0)
    state = _decision_state()
    with pytest.raises(ValueError, match="engine native"):
        PUCTSearch(
            NativeGame.from_state(state).public_view().handle,
            SearchSettings(luck="subtract"),
            np.random.default_rng(0),
            sims=4,
        )


def test_the_choices_script_screens_variants_against_a_long_search(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tests.scripts import load_script

    script = load_script("az_choices")
    args = ["--positions", "2", "--reference-sims", "30", "--sims", "10", "--seeds", "2"]
    assert script.main([*args, "--json", "--no-progress", "default", "worlds=paired"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [row["variant"] for row in report["variants"]] == ["default", "worlds=paired"]
    for row in report["variants"]:
        assert 0 <= row["agree"] <= 1 and math.isfinite(row["loss"]) and row["agree_error"] >= 0
    for bad in (["--sims", "0"], ["worlds=same"], ["depth=3"]):
        with pytest.raises(SystemExit):
            script.main([*args, "--no-progress", *bad])


def test_registry_builds_az_and_checks_options() -> None:
    agent = make_agent("az:sims=8,batch=2")
    assert isinstance(agent, AZAgent) and agent.sims == 8 and agent.ms is None
    assert AZAgent().ms == 100.0
    assert AZAgent().settings.luck == "subtract"  # the core's search subtracts it by default
    assert AZAgent(engine="python").settings.luck == "keep"
    bad_specs = (
        "az:sims=0",
        "az:ms=-1",
        "az:batch=0",
        "az:c=-1",
        "az:rollout_weight=2",
        "az:engine=gpu",
        "az:temperature=0",
        "az:engine=python,temperature=2",
        "az:search=beam",
        "az:engine=python,search=gated",
        "az:fpu=zero",
        "az:worlds=same",
        "az:luck=remove",
        "az:engine=python,luck=subtract",
    )
    for bad in bad_specs:
        with pytest.raises(ValueError):
            make_agent(bad)


def test_one_simulation_is_the_network_alone(net_path: str, engine: str) -> None:
    """``az:sims=1``: one forward pass, the most probable legal action."""
    from agents.az.network import load_network

    state = _decision_state()
    agent = AZAgent(sims=1, path=net_path, engine=engine)
    agent.reset(state.current_player, 2, np.random.default_rng(0))
    action = agent.act(Decision.from_state(state))
    assert agent.last_counts is not None and agent.last_counts.evaluations == 1
    game = NativeGame.from_state(state)
    observation = game.observe(state.current_player)[None]
    mask = np.zeros((1, 83), dtype=bool)
    mask[0, state.legal_actions()] = True
    priors, _values = load_network(net_path).predict(observation, mask)
    assert action == int(np.argmax(priors[0]))


def test_az_alone_plays_the_shipped_network_where_its_table_has_one() -> None:
    """``az`` without ``path``: at 2 players the network expert iteration made
    (``agents/models/az_2p.pt``); at 4, where none is shipped, the bundled ``ppo_4p``'s trunk
    and policy head."""
    from agents.az.network import bundled_network, bundled_ppo, from_ppo, load_network

    shipped = bundled_network(2)
    assert shipped is not None and shipped.name == "az_2p.pt"
    assert bundled_network(4) is None
    agent = AZAgent(sims=1)
    agent.reset(0, 2, np.random.default_rng(0))
    assert agent.net is not None
    expected = load_network(shipped).state_dict()
    played = agent.net.state_dict()
    assert played.keys() == expected.keys()
    assert all(torch.equal(played[key], expected[key]) for key in expected)
    agent.reset(0, 4, np.random.default_rng(0))
    assert agent.net is not None and agent.net.num_players == 4
    initial, _copied = from_ppo(bundled_ppo(4), 4)
    assert torch.equal(agent.net.policy_head.weight, initial.policy_head.weight)


def test_a_network_for_another_table_is_refused(net_path: str) -> None:
    from agents.registry import TableFitError

    with pytest.raises(TableFitError, match="trained for 2 players, this table has 4"):
        make_agent(f"az:path={net_path}", num_players=4)


@pytest.mark.parametrize("search", ["gated", "ranked"])
def test_gated_search_reads_the_public_view_only(net_path: str, search: str) -> None:
    """``search=gated``: ismcts with the network ranking the root; the same public view and
    generator give the same legal choice whatever the hidden cards."""
    state = _decision_state(seed=4)
    chosen = []
    for world in (1, 2):
        true_state = determinize(state, np.random.default_rng(world))
        agent = AZAgent(sims=40, path=net_path, search=search)
        agent.reset(state.current_player, 2, np.random.default_rng(42))
        decision = Decision(
            true_state, true_state.current_player, tuple(true_state.legal_actions())
        )
        chosen.append(agent.act(decision))
    assert chosen[0] == chosen[1] and chosen[0] in state.legal_actions()
