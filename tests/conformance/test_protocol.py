"""The game protocol's properties, for every registered game and backend (conftest's cases):
the game's facts, random games to the end at every table size, legal actions and illegal ones,
the outcome, the exact dict round trip and replay, clone, view and determinize, and the optional
members the generic environments take a shortcut with (``observes_true_state``,
``apply_legal_action``)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from airships_env.protocol import Game, IllegalActionError, Outcome
from airships_env.registry import games, get_game, gym_id, pettingzoo_name
from tests.conformance.conftest import Case, random_states


def json_round_trip(data: Any) -> Any:
    """``data`` through JSON text and back."""
    return json.loads(json.dumps(data))


def sampled(case: Case, num_players: int, seed: int, every: int) -> list[Any]:
    """Clones of every ``every``-th state of a random game, and of its last state."""
    kept = []
    state = None
    for k, state in enumerate(random_states(case, num_players, seed)):
        if k % every == 0:
            kept.append(state.clone())
    assert state is not None
    kept.append(state.clone())
    return kept


def test_the_game_states_its_facts(game_case: Case) -> None:
    game = game_case.game
    assert isinstance(game, Game)
    assert game.name.isidentifier() and game.name == game.name.lower()
    if game.name in games():
        assert get_game(game.name) is game
    assert isinstance(game.title, str) and game.title
    assert isinstance(game.version, int) and game.version >= 0
    assert gym_id(game.name, game.version) == f"{game.name.capitalize()}-v{game.version}"
    assert pettingzoo_name(game.name, game.version) == f"{game.name}_v{game.version}"
    counts = game.player_counts
    assert counts and list(counts) == sorted(set(counts)) and counts[0] >= 1
    assert "python" in game.backends and set(game.backends) <= {"native", "python"}
    assert len(set(game.backends)) == len(game.backends)
    names = [game.action_name(a) for a in range(game.num_actions)]
    assert all(isinstance(n, str) and n for n in names)
    assert len(set(names)) == len(names), "two actions share a name"
    for n in counts:
        layout = game.observation_layout(n)
        assert [name for name, _ in layout] == list(dict.fromkeys(name for name, _ in layout))
        assert all(size > 0 for _, size in layout)
        assert sum(size for _, size in layout) == game.observation_size(n)
    for spec, target in game.bots().items():
        module, sep, attribute = target.partition(":")
        assert spec.isidentifier() and sep and module and attribute, (spec, target)
    presenter = game.presenter()
    for method in ("record_text", "ansi", "rgb", "svg"):
        assert callable(getattr(presenter, method))


def check_outcome(outcome: Any, num_players: int) -> None:
    """An Outcome whose scores, winners and ranks fit a finished game of ``num_players``."""
    assert isinstance(outcome, Outcome)
    assert len(outcome.scores) == len(outcome.ranks) == num_players
    assert list(outcome.winners) == sorted(set(outcome.winners))
    assert all(0 <= seat < num_players for seat in outcome.winners)
    assert all(1 <= rank <= num_players for rank in outcome.ranks)
    for seat in range(num_players):
        assert (outcome.ranks[seat] == 1) == (seat in outcome.winners) or not outcome.winners
        # A place is 1 + the number of seats placed strictly before.
        assert outcome.ranks[seat] == 1 + sum(r < outcome.ranks[seat] for r in outcome.ranks)
    assert json_round_trip(outcome.to_dict()) == outcome.to_dict()


def test_random_games_end_with_an_outcome_at_every_table_size(table: tuple[Case, int]) -> None:
    case, num_players = table
    game = case.game
    size = game.observation_size(num_players)
    for seed in (0, 1):
        for step, state in enumerate(random_states(case, num_players, seed)):
            assert state.num_players == num_players
            if state.is_terminal():
                break
            assert state.outcome() is None
            assert 0 <= state.current_player < num_players
            legal = state.legal_actions()
            assert legal and legal == sorted(set(legal))
            assert all(0 <= a < game.num_actions for a in legal)
            if step % 10 == 0:
                seat = step % num_players
                observation = game.observe(state.view(seat), seat)
                assert observation.dtype == np.float32 and observation.shape == (size,)
                assert np.isfinite(observation).all()
        check_outcome(state.outcome(), num_players)


def test_illegal_actions_raise_the_protocol_error_and_change_nothing(case: Case) -> None:
    game = case.game
    for state in sampled(case, min(game.player_counts), seed=2, every=25):
        before = state.to_dict()
        legal = state.legal_actions() if not state.is_terminal() else []
        illegal = [a for a in range(game.num_actions) if a not in legal][:3]
        for action in [*illegal, -1, game.num_actions, True, "0", 1.0]:
            with pytest.raises(IllegalActionError):
                state.apply_action(action)
        assert state.to_dict() == before


def test_the_dict_round_trip_is_exact_and_the_game_replays(case: Case) -> None:
    game = case.game
    num_players = max(game.player_counts)
    state = game.new_state(num_players, seed=3, backend=case.backend)
    initial = json_round_trip(state.to_dict())
    rng = np.random.default_rng(3)
    records = []
    step = 0
    while not state.is_terminal():
        if step % 7 == 0:
            data = state.to_dict()
            assert json_round_trip(data) == data
            restored = game.state_from_dict(json_round_trip(data))
            assert restored.to_dict() == data
            legal = state.legal_actions()
            assert restored.legal_actions() == legal
            action = legal[int(rng.integers(len(legal)))]
            copy_record = restored.apply_action(action)
            record = state.apply_action(action)
            assert copy_record == record, "a restored state continues differently"
            assert restored.to_dict() == state.to_dict()
        else:
            legal = state.legal_actions()
            record = state.apply_action(legal[int(rng.integers(len(legal)))])
        assert game.record_from_dict(json_round_trip(record.to_dict())) == record
        records.append(record)
        step += 1
    replayed = game.state_from_dict(initial)
    for record in records:
        assert game.replay_action(replayed, game.record_from_dict(record.to_dict())) == record
    assert replayed.to_dict() == state.to_dict()


def test_clone_is_independent_of_its_source_and_continues_the_same_game(case: Case) -> None:
    game = case.game
    rng = np.random.default_rng(4)
    for state in sampled(case, max(game.player_counts), seed=4, every=20):
        if state.is_terminal():
            continue
        before = state.to_dict()
        twin = state.clone()
        assert twin.to_dict() == before
        legal = state.legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        record = twin.apply_action(action)
        assert state.to_dict() == before, "acting on a clone changed its source"
        assert state.apply_action(action) == record
        assert state.to_dict() == twin.to_dict()


def test_determinize_agrees_with_the_view_and_only_changes_what_it_hides(case: Case) -> None:
    game = case.game
    num_players = max(game.player_counts)
    for state in sampled(case, num_players, seed=5, every=15):
        for seat in range(num_players):
            view = state.view(seat)
            seen = view.to_dict()
            assert json_round_trip(seen) == seen
            for draw in (0, 1):
                world = view.determinize(np.random.default_rng(draw))
                assert world.view(seat).to_dict() == seen
                if seat == state.current_player:
                    # From the true state it is the acting seat's: only what it sees is used.
                    again = state.determinize(np.random.default_rng(draw))
                    assert again.to_dict() == world.to_dict()
                assert state.view(seat).to_dict() == seen, "determinize changed its source"
                if not world.is_terminal():
                    world.apply_action(world.legal_actions()[0])  # a world is playable
        if not state.is_terminal():
            view = state.view(state.current_player)
            with pytest.raises(ValueError):
                view.apply_action(view.legal_actions()[0])


def test_the_presenter_draws_every_kind_of_view(game_case: Case) -> None:
    game = game_case.game
    presenter = game.presenter()
    num_players = min(game.player_counts)
    state = game.new_state(num_players, seed=6)
    record = state.apply_action(state.legal_actions()[0])
    assert isinstance(presenter.record_text(record, state), str)
    for seat in (None, 0):
        shown = state if seat is None else state.view(seat)
        assert presenter.ansi(shown, seat, record)
        assert presenter.svg(shown, seat, record).lstrip().startswith("<svg")
    picture = presenter.rgb(state, None, record)
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3


def test_the_presenter_leaves_the_markup_contract_to_the_page(game_case: Case) -> None:
    """The web page owns the markup contract (one data-game element, data-action choices, the
    game-over marker): a presenter's SVG, drawn inside that page, carries none of it."""
    game = game_case.game
    presenter = game.presenter()
    state = game.new_state(min(game.player_counts), seed=5)
    try:
        svg = presenter.svg(state.view(0), 0, None)
    except NotImplementedError:
        pytest.skip(f"{game.name}: the presenter draws no SVG")
    assert svg.lstrip().startswith("<svg")
    for attribute in ("data-game=", "data-action=", "data-testid="):
        assert attribute not in svg, f"{game.name}: the SVG carries {attribute}"


#: States per table size on which a game that observes true states is held to its view's vector,
#: and every how many states one is taken (on the native backend, whose core writes the true
#: state's vector, every tenth: tests/native and tests/conformance/test_backends.py hold the
#: core's vectors to the encoder's bytes on many more states).
TRUE_STATE_SAMPLES = {"python": (2_000, 1), "native": (200, 10)}


def test_a_true_state_observes_as_its_view_where_the_game_says_so(
    table: tuple[Case, int],
) -> None:
    """``observes_true_state``: the generic envs encode the true state instead of the view, so
    both vectors must agree bit for bit, for every seat, on thousands of random states."""
    case, num_players = table
    game = case.game
    if not getattr(game, "observes_true_state", False):
        pytest.skip(f"{game.name} encodes views only")
    compared = 0
    seed = 0
    samples, every = TRUE_STATE_SAMPLES[case.backend]
    while compared < samples:
        for k, state in enumerate(random_states(case, num_players, seed)):
            if k % every:
                continue
            for seat in range(num_players):
                from_view = game.observe(state.view(seat), seat)
                from_state = game.observe(state, seat)
                assert from_state.dtype == from_view.dtype == np.float32
                assert from_state.tobytes() == from_view.tobytes(), (
                    f"{game.name} seed {seed} step {state.to_dict().get('step')} seat {seat}"
                )
            compared += 1
        seed += 1


def test_apply_legal_action_is_apply_action_without_the_check(case: Case) -> None:
    """The optional ``apply_legal_action`` gives the same record and the same state."""
    game = case.game
    num_players = max(game.player_counts)
    start = game.new_state(num_players, seed=7, backend=case.backend)
    if not hasattr(start, "apply_legal_action"):
        pytest.skip(f"{game.name} has no apply_legal_action")
    rng = np.random.default_rng(7)
    for state in sampled(case, num_players, seed=7, every=3):
        if state.is_terminal():
            continue
        twin = state.clone()
        action = state.legal_actions()[int(rng.integers(len(state.legal_actions())))]
        assert twin.apply_legal_action(action) == state.apply_action(action)
        assert twin.to_dict() == state.to_dict()
    view = start.view(start.current_player)
    with pytest.raises(ValueError):
        view.apply_legal_action(start.legal_actions()[0])
