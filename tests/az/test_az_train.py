"""Expert iteration: the tiny config, checkpoints, exact resume, config errors, the CLI route."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.az.config import AZConfig, ConfigError, config_from_dict, is_az_config, load_config
from agents.az.network import PolicyValueNet, load_network
from agents.az.train import (
    GamesResult,
    ReplayBuffer,
    Timer,
    initial_network,
    play_games,
    train,
    value_targets,
    warm_up_values,
)
from agents.cli.train import main as train_main
from agents.training.checkpoint import ResumeError
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "configs" / "az_tiny.yaml"


def _tiny(tmp_path: Path, **changes: object) -> AZConfig:
    config = load_config(TINY)
    run = {"name": "tiny", "output_dir": str(tmp_path)}
    return config.replace(run=run, tensorboard=False, **changes)


def _weights(path: Path) -> dict[str, torch.Tensor]:
    return load_network(path).state_dict()


def _final(run_dir: Path) -> tuple[dict[str, object], ...]:
    """The last checkpoint's networks, optimizer moments, generator, buffer and history."""
    state = (run_dir / "state.json").read_text(encoding="utf-8")
    name = __import__("json").loads(state)["checkpoint"]
    data = torch.load(run_dir / "checkpoints" / f"{name}.pt", weights_only=True)
    with np.load(run_dir / "checkpoints" / f"{name}.buffer.npz") as buffer:
        arrays = {key: buffer[key].copy() for key in buffer.files}
    history = __import__("json").loads(data["history"])
    stable = [
        {
            k: v
            for k, v in metrics.items()
            if not k.startswith(("time/", "speed/", "share/", "wall"))
        }
        for metrics in history
    ]
    return (
        data["best"],
        data["learner"],
        data["optimizer"]["state"],
        {"rng": data["rng"]},
        arrays,
        {"history": stable},
    )


def _equal(a: object, b: object) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and torch.equal(a, b)
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and np.array_equal(a, b)
    return a == b


def test_tiny_run_writes_a_checkpoint_and_resumes_exactly(tmp_path: Path) -> None:
    whole = _tiny(tmp_path / "whole")
    result = train(whole)
    assert result.generations == 2 and not result.interrupted
    run_dir = whole.run_dir()
    assert sorted(p.name for p in (run_dir / "checkpoints").iterdir()) == [
        "gen_00001.buffer.npz",
        "gen_00001.pt",
        "gen_00002.buffer.npz",
        "gen_00002.pt",
    ]
    assert load_network(run_dir / "best.pt").num_players == 2
    metrics = result.history[-1]
    assert metrics["buffer/size"] > 0 and metrics["selfplay/games"] == 2
    assert 0.0 <= metrics["arena/score"] <= 1.0

    halves = _tiny(tmp_path / "halves", generations=1)
    assert train(halves).generations == 1
    resumed = train(halves.replace(generations=2), resume=True)
    assert resumed.generations == 2
    first, second = _final(run_dir), _final(halves.run_dir())
    for mine, theirs in zip(first, second, strict=True):
        assert _equal(mine, theirs)
    assert _equal(_weights(run_dir / "best.pt"), _weights(halves.run_dir() / "best.pt"))


def test_a_different_seed_gives_a_different_run(tmp_path: Path) -> None:
    """The comparison above can fail: another seed changes the buffer."""
    runs = []
    for seed in (0, 1):
        config = _tiny(tmp_path / str(seed), generations=1, seed=seed)
        train(config)
        runs.append(_final(config.run_dir())[4])
    assert not _equal(runs[0], runs[1])


@pytest.mark.parametrize("engine", ["native", "python"])
def test_value_targets_put_the_acting_seat_first(tmp_path: Path, engine: str) -> None:
    config = _tiny(tmp_path, num_players=4, arena={"deals": 1, "sims": 2, "gate": 0.3})
    config = config.replace(search=config.search.model_copy(update={"engine": engine}))
    net = initial_network(config, np.random.default_rng(0))
    played = play_games(
        [[net] * 4] * 2,
        config,
        np.random.default_rng(1),
        sims=3,
        noise=True,
        record=True,
        timer=Timer(),
    )
    assert len(played.results) == 2 and len(played.samples) > 20
    assert {seat for seat in played.sample_seats} == {0, 1, 2, 3}
    for sample, game, seat in zip(
        played.samples, played.sample_games, played.sample_seats, strict=True
    ):
        result = played.results[game]
        assert [sample[3][i] for i in range(4)] == [result[(seat + i) % 4] for i in range(4)]
        _observation, mask, policy, _value = sample
        assert np.isclose(policy.sum(), 1.0) and not policy[~mask].any()
    assert all(abs(shares.sum() - 1.0) < 1e-9 for shares in played.shares)


def test_a_run_can_start_from_a_network_file(tmp_path: Path) -> None:
    """``network.init: FILE`` starts from that network, whole; a file for another table size,
    or no file, is refused naming the key."""
    source = PolicyValueNet(2, (32,), 16, np.random.default_rng(5))
    source.save(tmp_path / "start.pt")
    config = config_from_dict(
        {"backend": "az", "network": {"init": str(tmp_path / "start.pt")}}, "configs/x.yaml"
    )
    net = initial_network(config, np.random.default_rng(0))
    assert (net.hidden, net.value_hidden) == ((32,), 16)
    assert _equal(net.state_dict(), source.state_dict())
    four = config.replace(num_players=4, arena={"gate": 0.3})
    with pytest.raises(ConfigError, match=r"network\.init: .*start\.pt is a network for 2 players"):
        initial_network(four, np.random.default_rng(0))
    with pytest.raises(ConfigError, match=r"network\.init: expected ppo, scratch or the path"):
        config_from_dict({"backend": "az", "network": {"init": "gone.pt"}}, "configs/x.yaml")


def test_value_warmup_trains_the_value_head_alone(tmp_path: Path) -> None:
    config = _tiny(tmp_path, generations=1)
    config = config.replace(
        network=config.network.model_copy(
            update={"value_warmup_games": 10, "value_warmup_steps": 5}
        )
    )
    start = initial_network(config, np.random.default_rng(config.seed))
    warmed = initial_network(config, np.random.default_rng(config.seed))
    report = warm_up_values(warmed, config, np.random.default_rng(3))
    assert report["warmup/games"] == 10 and report["warmup/held_out_samples"] > 0
    assert report["warmup/error_after"] != report["warmup/error_before"]
    for name, tensor in warmed.state_dict().items():
        unchanged = torch.equal(tensor, start.state_dict()[name])
        assert unchanged == (not name.startswith("value_")), name
    train(config)
    written = json.loads((config.run_dir() / "warmup.json").read_text(encoding="utf-8"))
    assert set(written) == set(report)


def test_value_targets_are_the_searches_root_values() -> None:
    played = GamesResult(
        samples=[
            (np.zeros(1), np.ones(1, bool), np.ones(1), np.array([1.2, -0.2])),
            (np.zeros(1), np.ones(1, bool), np.ones(1), np.array([-0.2, 1.2])),
        ],
        sample_root_values=[0.7, float("nan")],
    )
    # The acting seat's target is its root value, the other's 1 minus it (2 players); a sample
    # without one (the network alone) keeps its game's results.
    assert value_targets(played, 2).tolist() == [[0.7, pytest.approx(0.3)], [-0.2, 1.2]]
    three = GamesResult(
        samples=[(np.zeros(1), np.ones(1, bool), np.ones(1), np.array([0.0, 1.0, 0.0]))],
        sample_root_values=[0.4],
    )
    assert value_targets(three, 3).tolist() == [[0.4, 1.0, 0.0]]


def test_searched_value_warmup_learns_root_values(tmp_path: Path) -> None:
    config = _tiny(tmp_path, generations=1)
    config = config.replace(
        network=config.network.model_copy(
            update={"value_warmup_games": 10, "value_warmup_steps": 5, "value_warmup_sims": 8}
        )
    )
    start = initial_network(config, np.random.default_rng(config.seed))
    warmed = initial_network(config, np.random.default_rng(config.seed))
    finished: list[int] = []
    report = warm_up_values(warmed, config, np.random.default_rng(3), finished.append)
    assert finished == [1] * 10
    assert report["warmup/sims"] == 8 and report["warmup/held_out_samples"] > 0
    assert report["warmup/error_after"] != report["warmup/error_before"]
    assert 0 <= report["warmup/root_value_error_to_results"] < 2
    assert report["warmup/error_after_to_results"] >= 0
    for name, tensor in warmed.state_dict().items():
        unchanged = torch.equal(tensor, start.state_dict()[name])
        assert unchanged == (not name.startswith("value_")), name


def test_the_value_script_writes_a_network_whose_policy_is_unchanged(tmp_path: Path) -> None:
    script = load_script("az_values")
    out = tmp_path / "values.pt"
    args = ["--games", "10", "--sims", "4", "--steps", "3", "--out", str(out), "--no-progress"]
    assert script.main(args) == 0
    trained, shipped = load_network(out), load_network(ROOT / "agents/models/az_2p.pt")
    for name, tensor in trained.state_dict().items():
        assert torch.equal(tensor, shipped.state_dict()[name]) == (not name.startswith("value_"))
    for bad in (["--sims", "1"], ["--games", "9"], ["--players", "3"]):
        with pytest.raises(SystemExit):
            script.main([*bad, "--out", str(out)])


def test_four_player_run(tmp_path: Path) -> None:
    config = _tiny(
        tmp_path, generations=1, num_players=4, arena={"deals": 1, "sims": 2, "gate": 0.3}
    )
    assert train(config).history[-1]["selfplay/games"] == 2
    assert load_network(config.run_dir() / "best.pt").num_players == 4


def test_resume_refuses_changed_keys_and_missing_runs(tmp_path: Path) -> None:
    config = _tiny(tmp_path, generations=1)
    with pytest.raises(ResumeError, match="nothing to resume"):
        train(config, resume=True)
    train(config)
    with pytest.raises(ResumeError, match="already holds a run"):
        train(config)
    changed = config.replace(seed=5)
    with pytest.raises(ResumeError, match=r"seed: 0 -> 5"):
        train(changed, resume=True)


def test_replay_buffer_is_a_ring(tmp_path: Path) -> None:
    buffer = ReplayBuffer(3, 4, 2)
    for index in range(5):
        buffer.add(np.full(4, index), np.ones(83, bool), np.full(83, 1 / 83), [index, -index])
    assert (buffer.size, buffer.cursor, buffer.added) == (3, 2, 5)
    assert sorted(buffer.observations[:, 0].tolist()) == [2.0, 3.0, 4.0]
    buffer.save(tmp_path / "b.npz")
    again = ReplayBuffer(3, 4, 2)
    again.load(tmp_path / "b.npz")
    assert (again.size, again.cursor, again.added) == (3, 2, 5)
    assert np.array_equal(again.values, buffer.values)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"search": {"sims": "many"}}, "search.sims: expected an integer, found 'many'"),
        ({"learn": {"rate": 1}}, "learn.rate: unknown key (known: learning_rate"),
        ({"num_players": 5}, "num_players: "),
        ({"network": {"init": "heuristic"}}, "network.init: "),
        ({"search": {"fpu": "zero"}}, "search.fpu: "),
        ({"search": {"worlds": "same"}}, "search.worlds: "),
        ({"search": {"luck": "remove"}}, "search.luck: "),
        ({"search": {"luck": "subtract", "engine": "python"}}, "search.luck: subtract is the core"),
        ({"learn": {"batch_size": 50, "buffer_size": 10}}, "learn.batch_size: expected at most"),
        ({"num_players": 4, "arena": {"gate": 0.25}}, "arena.gate: expected more than 1/num_"),
    ],
)
def test_bad_configs_name_file_and_key(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as error:
        config_from_dict({"backend": "az", **data}, "configs/bad.yaml")
    assert str(error.value).startswith("configs/bad.yaml: ")
    assert message in str(error.value)


def test_the_shipped_configs_are_valid(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # az_2p_more's network.init is a path from the checkout's root
    for name in ("az_2p.yaml", "az_2p_more.yaml", "az_4p.yaml", "az_tiny.yaml"):
        assert is_az_config(ROOT / "configs" / name)
        load_config(ROOT / "configs" / name)
    assert not is_az_config(ROOT / "configs" / "ppo_2p.yaml")


def test_airships_train_routes_backend_az(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "az.yaml"
    text = TINY.read_text(encoding="utf-8").replace("generations: 2", "generations: 1")
    config.write_text(text.replace("tensorboard: true", "tensorboard: false"), encoding="utf-8")
    run_dir = tmp_path / "run"
    assert train_main(["--config", str(config), "--run-dir", str(run_dir)]) == 0
    assert "1 generations" in capsys.readouterr().out
    assert (
        train_main(
            ["--config", str(config), "--run-dir", str(run_dir), "--resume", "--generations", "0"]
        )
        == 2
    )
    assert "--generations: expected a positive integer" in capsys.readouterr().err


def test_anchor_seats_are_played_by_the_heuristic():
    """A seat without a network is the anchor: the Python heuristic's game, decision for
    decision (both seats anchored, so no search and the deal alone decides the game)."""
    from agents.bots.heuristic import HeuristicAgent
    from agents.executors import play_game
    from agents.schedule import GameSpec

    config = load_config(TINY)
    seeds = [11, 12]
    played = play_games(
        [[None, None]] * len(seeds),
        config,
        np.random.default_rng(0),
        sims=2,
        noise=False,
        record=False,
        timer=Timer(),
        seeds=seeds,
    )
    for seed, shares in zip(seeds, played.shares, strict=True):
        spec = GameSpec(game=0, deal=0, deal_seed=seed, seats=("a", "b"))
        record = play_game(spec, {"a": HeuristicAgent(), "b": HeuristicAgent()}, seed=0)
        winners = record["winners"]
        assert [round(share, 6) for share in shares] == [
            round(1 / len(winners), 6) if seat in winners else 0.0 for seat in range(2)
        ]
    assert played.decisions == 0  # the anchor never searches


@pytest.mark.parametrize(("candidate", "best", "kept"), [(0.2, 0.6, False), (0.6, 0.6, True)])
def test_anchor_gate_keeps_only_a_network_no_worse_against_the_anchor(
    tmp_path, monkeypatch, candidate, best, kept
):
    """A candidate that passed the gate against the best network is kept only if it does no
    worse than the best network against the fixed anchor; the curve logs the best's share."""
    import agents.az.train as az_train

    calls: list[int] = []

    def fake_anchor(nets, config, rng, timer):
        calls.append(len(nets))
        return [candidate, best][: len(nets)]

    monkeypatch.setattr(az_train, "arena", lambda *args: 1.0)  # the gate always passes
    monkeypatch.setattr(az_train, "anchor_score", fake_anchor)
    config = _tiny(
        tmp_path,
        generations=1,
        arena={"deals": 1, "sims": 2, "gate": 0.55, "anchor_deals": 1, "anchor_gate": True},
    )
    result = train(config)
    (metrics,) = result.history
    assert calls == [2]  # one paired anchor match, reused for the curve
    assert metrics["arena/accepted"] == float(kept)
    assert metrics["anchor/candidate"] == candidate
    assert metrics["anchor/best"] == (candidate if kept else best)


def test_anchor_curve_every_k_generations(tmp_path):
    """Without the anchor gate, the best network meets the anchor every ``anchor_every``."""
    config = _tiny(
        tmp_path,
        generations=2,
        arena={"deals": 1, "sims": 2, "gate": 0.55, "anchor_deals": 1, "anchor_every": 2},
    )
    first, second = train(config).history
    assert "anchor/best" not in first
    assert 0.0 <= second["anchor/best"] <= 1.0
    # The curve in the rows PPO runs write, which the time-to-strength plot reads.
    from agents.training.plots import read_curve

    (row,) = read_curve(config.run_dir(), "heuristic")
    assert row["step"] == 2 and row["games"] == 2
    assert row["win_rate"] == second["anchor/best"]
    assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]
    assert row["wall_seconds"] == second["wall_seconds"]


def test_ismcts_curve_every_k_generations(tmp_path, monkeypatch):
    """The best network meets the native ismcts (every other seat, ``ismcts_sims`` simulations
    a decision on the public view) every ``ismcts_every`` generations: the second curve."""
    from agents.bots.ismcts import ISMCTSAgent
    from agents.training.plots import read_curve

    searched: list[int] = []
    search = ISMCTSAgent.search

    def counting(self, game, seed, *args, **kwargs):
        assert game.to_state().is_public_view  # ismcts reads only the public view
        searched.append(self.sims)
        return search(self, game, seed, *args, **kwargs)

    monkeypatch.setattr(ISMCTSAgent, "search", counting)
    config = _tiny(
        tmp_path,
        generations=2,
        arena={"deals": 1, "sims": 2, "gate": 0.55, "ismcts_deals": 1, "ismcts_sims": 3,
               "ismcts_every": 2},
    )  # fmt: skip
    first, second = train(config).history
    assert "ismcts/best" not in first and "anchor/best" not in second
    assert 0.0 <= second["ismcts/best"] <= 1.0
    assert searched and set(searched) == {3}
    (row,) = read_curve(config.run_dir(), "ismcts")
    assert row["step"] == 2 and row["games"] == 2
    assert row["win_rate"] == second["ismcts/best"]
    assert row["wall_seconds"] == second["wall_seconds"]
    assert read_curve(config.run_dir(), "heuristic") == []


def test_anchor_gate_needs_anchor_deals():
    data = load_config(TINY).to_dict()
    data["arena"]["anchor_gate"] = True
    with pytest.raises(ConfigError, match=r"arena\.anchor_deals: expected at least 1"):
        config_from_dict(data, "az.yaml")
