"""The search's network mode in the core (gnet.c, gsearch.c's net mode, ``Game.az_search``): the
forward pass against a numpy reference, the search's budget, determinism, values in absolute seat
order, root noise and temperature, nothing hidden read, and a clear error for every bad argument.

The networks here are built from numpy arrays (no torch): the layout ``make_net`` reads is each
matrix input major, followed by its bias (agents/az/network.py's ``PolicyValueNet.native``)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from airships_env.bot_config import HeuristicConfig
from airships_env.engine.actions import NUM_ATTEMPT_ACTIONS
from airships_env.native import NativeGame, require

HEURISTIC = HeuristicConfig.load().native()
ACTIONS = 83


def random_layers(
    players: int, trunk: tuple[int, ...], value_hidden: int, seed: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    """(weight (inputs, outputs), bias) for every layer: trunk, policy, value layer, value head."""
    rng = np.random.default_rng(seed)
    widths = (require().obs_size(players), *trunk)
    shapes = [*itertools.pairwise(widths)]
    shapes += [(trunk[-1], ACTIONS), (trunk[-1], value_hidden), (value_hidden, players)]
    return [
        (
            rng.normal(0, 1 / np.sqrt(n_in), (n_in, n_out)).astype(np.float32),
            rng.normal(0, 0.1, n_out).astype(np.float32),
        )
        for n_in, n_out in shapes
    ]


def make(players: int, layers: list[tuple[np.ndarray, np.ndarray]], value_hidden: int) -> object:
    blob = np.concatenate([part.ravel() for layer in layers for part in layer]).tobytes()
    trunk = [weight.shape[1] for weight, _bias in layers[:-3]]
    return require().make_net(
        require().obs_size(players), trunk, value_hidden, ACTIONS, players, blob
    )


def reference(layers: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray) -> tuple[np.ndarray, ...]:
    """The forward pass in numpy (float64): tanh trunk, linear policy, tanh value layer + head."""
    hidden = x.astype(np.float64)
    for weight, bias in layers[:-3]:
        hidden = np.tanh(hidden @ weight + bias)
    policy = hidden @ layers[-3][0] + layers[-3][1]
    values = np.tanh(hidden @ layers[-2][0] + layers[-2][1]) @ layers[-1][0] + layers[-1][1]
    return policy, values


def decision(players: int, seed: int, steps: int = 9) -> NativeGame:
    """A game in the core a few heuristic moves in, with a choice to make."""
    game = NativeGame.new(players, seed=seed)
    for _ in range(steps):
        game.apply_action(game.bot_action(3, HEURISTIC, game.legal_actions()))
    while len(game.legal_actions()) < 3:
        game.apply_action(game.legal_actions()[0])
    return game


def search(game: NativeGame, net: object, **options: object) -> tuple:  # type: ignore[type-arg]
    settings = {"sims": 60, "seconds": 0.0, "c": 1.5, "rollout_weight": 0.0, "margin_weight": 0.2}
    settings.update({"seed": 5, "heuristic": HEURISTIC, **options})
    return game.public_view().handle.az_search(net, **settings)


@pytest.fixture(scope="module")
def net2() -> object:
    return make(2, random_layers(2, (64, 32), 16, seed=1), 16)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_forward_pass_matches_numpy(players: int) -> None:
    layers = random_layers(players, (48, 40), 24, seed=players)
    net = make(players, layers, 24)
    game = NativeGame.new(players, seed=players)
    for step in range(30):
        x = game.observe(game.current_player).astype(np.float32)
        logits, values = require().net_forward(net, x.tobytes())
        want_logits, want_values = reference(layers, x)
        assert np.allclose(logits, want_logits, atol=1e-4), step
        assert np.allclose(values, want_values, atol=1e-4), step
        game.apply_action(game.bot_action(3, HEURISTIC, game.legal_actions()))


def test_forward_pass_tanh_across_its_range() -> None:
    """gnet.c's own tanh (vectorised arithmetic, not libm's) against numpy's in float64 where the
    layers' inputs span every regime: near 0, the curve, and saturated past +-9 (weights scaled
    up); a trunk width of 37 leaves a tail after each vector."""
    layers = random_layers(2, (37,), 11, seed=9)
    scales = (25, 1, 4, 1)  # trunk, policy, value layer, value head
    layers = [(w * scale, b * scale) for (w, b), scale in zip(layers, scales, strict=True)]
    net = make(2, layers, 11)
    game = NativeGame.new(2, seed=9)
    for step in range(20):
        x = game.observe(game.current_player).astype(np.float32)
        pre = x.astype(np.float64) @ layers[0][0] + layers[0][1]
        if step == 0:  # the inputs do span the regimes
            assert (np.abs(pre) < 0.5).any() and (np.abs(pre) > 9).any()
        logits, values = require().net_forward(net, x.tobytes())
        want_logits, want_values = reference(layers, x)
        assert np.allclose(logits, want_logits, atol=2e-5), step
        assert np.allclose(values, want_values, atol=2e-5), step
        game.apply_action(game.bot_action(3, HEURISTIC, game.legal_actions()))


def test_budget_counts_and_the_report(net2: object) -> None:
    game = decision(2, seed=3)
    action, sims, evaluations, nodes, root, _situations, _slopes = search(game, net2, sims=60)
    assert sims == 60 and 1 <= evaluations <= 60 and 1 <= nodes <= 60
    assert [a for a, *_ in root] == game.legal_actions()  # every legal action, ascending
    assert sum(visits for _a, visits, _m, _p in root) == 60 - 1  # the root's own evaluation
    assert np.isclose(sum(prior for *_rest, prior in root), 1.0)
    best = max(root, key=lambda row: (row[1], row[3], -row[0]))
    assert action == best[0]


def test_one_simulation_is_the_networks_choice(net2: object) -> None:
    game = decision(2, seed=4)
    action, sims, evaluations, _nodes, root, _situations, _slopes = search(game, net2, sims=1)
    assert (sims, evaluations) == (1, 1)
    logits, _values = require().net_forward(net2, game.observe(game.current_player).tobytes())
    legal = game.legal_actions()
    assert action == legal[int(np.argmax(np.array(logits)[legal]))]
    assert all(visits == 0 for _a, visits, _m, _p in root)


def test_same_seed_same_search_and_hidden_cards_unread(net2: object) -> None:
    game = decision(2, seed=6)
    first = search(game, net2, rollout_weight=0.5)
    assert search(game, net2, rollout_weight=0.5) == first
    # Another true state with the same public view (hidden cards re-dealt): the same search.
    world = game.determinize(np.random.default_rng(8))
    assert world.to_dict() != game.to_dict()
    assert search(world, net2, rollout_weight=0.5) == first
    assert search(game, net2, rollout_weight=0.5, seed=6) != first


def test_a_time_budget_stops_it(net2: object) -> None:
    game = decision(2, seed=7)
    _action, sims, *_rest = search(game, net2, sims=0, seconds=0.05)
    assert sims >= 1


def test_values_are_backed_up_in_absolute_seat_order() -> None:
    """A value head that answers the constants v (relative order: the leaf's seat first): after
    two simulations the one root child's mean is v[(root seat - leaf seat) % 4], its leaf being
    the seat to act after the action (the roll reversed would read v[(leaf - root) % 4])."""
    v = np.array([0.1, 0.2, 0.3, 0.4], dtype=np.float32)
    layers = random_layers(4, (16,), 8, seed=3)
    layers[-1] = (np.zeros_like(layers[-1][0]), v)
    net = make(4, layers, 8)
    game = NativeGame.new(4, seed=2)
    checked = 0
    for _step in range(400):
        if game.is_terminal() or checked >= 3:
            break
        if len(game.legal_actions()) > 1:
            *_counts, root, _situations, _slopes = search(game, net, sims=2)
            ((action, _visits, mean, _prior),) = [row for row in root if row[1]]
            view = game.public_view()
            seats = set()
            for sample in range(8):  # who acts after the action, in sampled worlds
                world = view.determinize(np.random.default_rng(sample))
                world.apply_action(action)
                seats.add(world.current_player)
            if len(seats) == 1 and not world.is_terminal():
                (leaf,) = seats
                assert np.isclose(mean, v[(game.current_player - leaf) % 4]), (action, leaf)
                checked += leaf not in (game.current_player, (game.current_player + 2) % 4)
        game.apply_action(game.bot_action(3, HEURISTIC, game.legal_actions()))
    assert checked >= 3


def test_noise_and_temperature_change_the_root(net2: object) -> None:
    game = decision(2, seed=9)
    plain = search(game, net2, sims=80)
    noise = np.zeros(ACTIONS)
    noise[game.legal_actions()[-1]] = 1.0
    noisy = search(game, net2, sims=80, noise=noise.tobytes(), noise_fraction=0.9)
    prior = {a: p for a, _v, _m, p in noisy[4]}
    assert prior[game.legal_actions()[-1]] >= 0.9
    assert noisy[4] != plain[4]
    flat = search(game, net2, sims=80, temperature=50.0)
    visited = [sum(1 for row in result[4] if row[1]) for result in (plain, flat)]
    assert visited[1] >= visited[0]
    assert np.ptp([p for *_r, p in flat[4]]) < np.ptp([p for *_r, p in plain[4]])


def test_the_first_play_value_rule_changes_the_search(net2: object) -> None:
    """``fpu``: an unvisited action starts at its node's mean (the default) or at its node's
    first evaluation; with rollouts the two explore differently, each deterministic."""
    game = decision(2, seed=9)
    mean = search(game, net2, sims=120, rollout_weight=1.0)
    assert search(game, net2, sims=120, rollout_weight=1.0, fpu="mean") == mean
    first = search(game, net2, sims=120, rollout_weight=1.0, fpu="first")
    assert search(game, net2, sims=120, rollout_weight=1.0, fpu="first") == first
    assert [row[1] for row in first[4]] != [row[1] for row in mean[4]]


def test_a_node_keeps_a_record_for_each_situation(net2: object) -> None:
    """Worlds reach one node in different situations (after a roll, the next seat's turn or
    the same seat's chip or extra-turn choice): a search long enough to go below its first
    rolls makes records for them, counted among its nodes; every simulation but those that
    reach the end of the game evaluates exactly one node or record."""
    game = decision(2, seed=4)
    _action, sims, evaluations, nodes, _root, situations, _slopes = search(game, net2, sims=400)
    assert situations > 0
    assert evaluations <= sims and nodes >= evaluations
    again = search(game, net2, sims=400)
    assert again[5] == situations


def test_paired_worlds_change_the_search_and_keep_the_budget(net2: object) -> None:
    """``worlds``: paired (a root action's k-th visit in the search's k-th world, its dice keyed
    by turn) explores otherwise than fresh, each deterministic, the same budget spent."""
    game = decision(2, seed=4)
    fresh = search(game, net2, sims=150, rollout_weight=1.0)
    assert search(game, net2, sims=150, rollout_weight=1.0, worlds="fresh") == fresh
    paired = search(game, net2, sims=150, rollout_weight=1.0, worlds="paired")
    assert search(game, net2, sims=150, rollout_weight=1.0, worlds="paired") == paired
    assert paired[1] == fresh[1] == 150
    assert sum(row[1] for row in paired[4]) == 150 - 1  # the root's own evaluation
    assert [row[1] for row in paired[4]] != [row[1] for row in fresh[4]]


def test_a_rolls_luck_has_mean_zero_given_the_state() -> None:
    """The premise of ``luck="subtract"``: an attempt's roll reaches its target with the odds
    the core computes before it (``attempt_odds``, what the search's luck reads), and falls one
    short with the odds of one short, so each luck term (outcome less odds) has mean zero."""
    reached = short = 0.0
    spread_reached = spread_short = 0.0
    attempts = 0
    for seed in range(40):
        game = NativeGame.new(2, seed=seed)
        while not game.is_terminal():
            action = game.bot_action(3, HEURISTIC, game.legal_actions())
            odds = game.attempt_odds(action) if action < NUM_ATTEMPT_ACTIONS else None
            record = game.apply_action(action).to_dict()
            if odds is None:
                continue
            attempts += 1
            reached += (record["total"] >= record["needed"]) - odds.success
            short += (record["total"] == record["needed"] - 1) - odds.chip_decides
            spread_reached += odds.success * (1 - odds.success)
            spread_short += odds.chip_decides * (1 - odds.chip_decides)
    assert attempts > 1000
    assert abs(reached) < 4 * math.sqrt(spread_reached)
    assert abs(short) < 4 * math.sqrt(spread_short)


def test_subtracting_the_luck_changes_the_search_and_keeps_its_budget(net2: object) -> None:
    """``luck``: "subtract" backs up results less the dice's luck, weighted by slopes fitted
    on the search's earlier simulations: deterministic, the same budget, other visits; the
    slopes are finite and reaching one's target raises one's result (the first slope is
    positive); "keep" reports no slopes."""
    game = decision(2, seed=4)
    kept = search(game, net2, sims=200, rollout_weight=1.0)
    assert search(game, net2, sims=200, rollout_weight=1.0, luck="keep") == kept
    assert kept[6] == (0.0, 0.0, 0.0, 0.0)
    subtracted = search(game, net2, sims=200, rollout_weight=1.0, luck="subtract")
    assert search(game, net2, sims=200, rollout_weight=1.0, luck="subtract") == subtracted
    assert subtracted[1] == kept[1] == 200
    assert [row[1:3] for row in subtracted[4]] != [row[1:3] for row in kept[4]]
    slopes = subtracted[6]
    assert all(math.isfinite(slope) for slope in slopes)
    assert slopes[0] > 0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"sims": 0, "seconds": 0.0}, "needs a budget"),
        ({"sims": -1}, "needs a budget"),
        ({"c": -1.0}, "c must be"),
        ({"c": float("nan")}, "c must be"),
        ({"rollout_weight": 1.5}, "rollout_weight"),
        ({"noise_fraction": 0.5}, "needs noise"),
        ({"noise": b"\0" * 8, "noise_fraction": 0.5}, "noise must be 83"),
        ({"noise": np.full(83, np.nan).tobytes(), "noise_fraction": 0.5}, "noise must be 83"),
        ({"temperature": 0.0}, "temperature"),
        ({"margin_weight": float("inf")}, "margin_weight"),
        ({"fpu": "zero"}, "fpu must be mean or first"),
        ({"worlds": "same"}, "worlds must be fresh or paired"),
        ({"luck": "remove"}, "luck must be keep or subtract"),
    ],
)
def test_bad_search_arguments_are_refused(net2: object, options: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError, match=message):
        search(decision(2, seed=1), net2, **options)


def test_a_network_for_another_table_or_no_network_is_refused(net2: object) -> None:
    with pytest.raises(ValueError, match="another table size"):
        search(NativeGame.new(3, seed=1), net2)
    with pytest.raises(TypeError, match="make_net"):
        search(decision(2, seed=1), object())
    over = NativeGame.new(2, seed=1)
    while not over.is_terminal():
        over.apply_action(over.legal_actions()[0])
    with pytest.raises(ValueError, match="over"):
        search(over, net2)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, [8], 8, 83, 2, b""), "n_inputs"),
        ((10, [], 8, 83, 2, b""), "trunk_widths"),
        ((10, [8, 8, 8, 8, 8], 8, 83, 2, b""), "trunk_widths"),
        ((10, [0], 8, 83, 2, b""), "trunk width"),
        ((10, [True], 8, 83, 2, b""), "trunk width"),
        ((10, [8], 8, 83, 9, b""), "n_values"),
        ((10, [8], 8, 83, 2, b"\0" * 12), "float32 values"),
    ],
)
def test_bad_networks_are_refused(args: tuple, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError, match=message):
        require().make_net(*args)
    with pytest.raises(TypeError, match="make_net"):
        require().net_forward(object(), b"")


def ismcts(game: NativeGame, **options: object) -> tuple:  # type: ignore[type-arg]
    """The core's ismcts (``Game.search``) with Airships' defaults, ``options`` on top."""
    from airships_env.bot_config import GreedyConfig

    settings = {
        "sims": 60,
        "seconds": 0.0,
        "rollout": 3,
        "candidates": 4,
        "c": 0.7,
        "margin_weight": 0.2,
        "widening": 1.0,
        "max_nodes": 100_000,
        "seed": 5,
        "greedy": GreedyConfig().native(),
        "heuristic": HEURISTIC,
        "z": 1.0,
    }
    settings.update(options)
    return game.public_view().handle.search(**settings)


def test_a_network_ranks_the_root_candidates_of_ismcts(net2: object) -> None:
    """``rank_net``: the root's candidates are the network's best (by logit), in its order (the
    heuristic's ranking, without it, differs)."""
    differs = False
    for seed in (2, 3, 4):
        game = decision(2, seed=seed)
        logits = np.array(
            require().net_forward(net2, game.observe(game.current_player).tobytes())[0]
        )
        legal = game.legal_actions()
        best_first = sorted(legal, key=lambda a: (-logits[a], a))
        *_counts, root = ismcts(game, rank_net=net2)
        assert [row[0] for row in root] == best_first[: min(4, len(legal))]
        *_counts, by_heuristic = ismcts(game)
        differs |= [row[0] for row in by_heuristic] != [row[0] for row in root]
    assert differs


def test_a_bad_rank_net_is_refused(net2: object) -> None:
    with pytest.raises(ValueError, match="rank_net is for another table size"):
        ismcts(NativeGame.new(3, seed=1), rank_net=net2)
    with pytest.raises(TypeError, match="make_net"):
        ismcts(decision(2, seed=1), rank_net=object())


def test_a_network_can_rank_every_node(net2: object) -> None:
    """``rank_all``: the same root candidates, a different tree below (deterministic)."""
    changed = False
    for seed in (2, 3):
        game = decision(2, seed=seed)
        root_only = ismcts(game, rank_net=net2)
        everywhere = ismcts(game, rank_net=net2, rank_all=True)
        assert ismcts(game, rank_net=net2, rank_all=True) == everywhere
        assert [row[0] for row in everywhere[4]] == [row[0] for row in root_only[4]]
        changed |= everywhere[4] != root_only[4]
    assert changed


def test_two_threads_share_a_network(net2: object) -> None:
    """The search releases the GIL and only reads the network: searches in two threads at once
    give what they give one after the other."""
    import threading

    games = [decision(2, seed=seed) for seed in (5, 6)]
    alone = [search(game, net2, rollout_weight=0.5, sims=120) for game in games]
    together: list[tuple | None] = [None, None]  # type: ignore[type-arg]

    def run(index: int) -> None:
        together[index] = search(games[index], net2, rollout_weight=0.5, sims=120)

    threads = [threading.Thread(target=run, args=(index,)) for index in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert together == alone
