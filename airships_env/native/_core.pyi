"""Type stubs of the native core's extension module (airships_env/native/src/module.c, clockwork_module.c, australia_module.c, nippon_module.c, the batches over gbatch.c)."""

from collections.abc import Sequence
from typing import Any

from typing_extensions import Buffer

RngState = tuple[int, int, int, int]

EXPORT_WORDS: int
GS_MAX_WORLDS: int
CARD_TABLE_WORDS: int
BATCH_MAX_GAMES: int

class Core:
    def __init__(
        self, card_words: Buffer, options: tuple[bool, bool, bool, bool, bool]
    ) -> None: ...

class Game:
    current_player: int
    phase: int
    num_players: int
    turn: int
    core: Core
    def clone(self) -> Game: ...
    def legal_actions(self) -> list[int]: ...
    def apply(self, action: int, dice: Sequence[Sequence[int]] | None = ...) -> tuple[Any, ...]: ...
    def export(self) -> tuple[list[int], RngState | None]: ...
    def observe(self, seat: int, out: Buffer) -> None: ...
    def attempt_odds(self, action: int, player: int) -> tuple[int, int, int, int] | None: ...
    def public_view(self) -> Game: ...
    def determinize(self, rng: RngState) -> tuple[Game, RngState]: ...
    def bot_action(self, kind: int, config: tuple[Any, ...], legal: Sequence[int]) -> int: ...
    def search(
        self,
        sims: int,
        seconds: float,
        rollout: int,
        candidates: int,
        c: float,
        margin_weight: float,
        widening: float,
        max_nodes: int,
        seed: int,
        greedy: tuple[float, float, float],
        heuristic: tuple[Any, ...],
        z: float = ...,
        rank_net: Net | None = ...,
        rank_all: bool = ...,
    ) -> tuple[int, int, int, int, tuple[tuple[int, int, float, float], ...]]: ...
    def az_search(
        self,
        net: Net,
        sims: int,
        seconds: float,
        c: float,
        rollout_weight: float,
        margin_weight: float,
        seed: int,
        heuristic: tuple[Any, ...],
        noise: Buffer | None = ...,
        noise_fraction: float = ...,
        temperature: float = ...,
        fpu: str = ...,
        worlds: str = ...,
        luck: str = ...,
    ) -> tuple[
        int,
        int,
        int,
        int,
        tuple[tuple[int, int, float, float], ...],
        int,
        tuple[float, float, float, float],
    ]: ...
    def scores(self) -> tuple[int, ...]: ...
    def result(self) -> tuple[tuple[int, ...], int] | None: ...

class Batch:
    bytes_per_game: int
    def __init__(
        self,
        core: Core,
        num_games: int,
        num_players: int,
        seed_words: Sequence[int],
        buffers: tuple[Buffer, ...],
        settings: tuple[int, int, int, int, int],
        greedy: tuple[float, float, float],
        heuristic: tuple[Any, ...],
    ) -> None: ...
    def reset(self) -> None: ...
    def step(self, actions: Buffer) -> None: ...
    def observe(self, seats: Buffer, out: Buffer) -> None: ...
    def export_game(self, game: int) -> tuple[list[int], RngState | None]: ...
    def controllers(self, game: int) -> tuple[int, ...]: ...

def new_game(core: Core, num_players: int, rng: RngState) -> Game: ...
def import_state(core: Core, words: Sequence[int], rng: RngState | None) -> Game: ...
def seed_sequence_state(entropy: Sequence[int], spawn: Sequence[int]) -> RngState: ...
def rng_draws(rng: RngState, bound: int, count: int) -> tuple[list[int], RngState]: ...
def obs_size(num_players: int) -> int: ...

class Net:
    """A policy-value network copied into the core (a capsule made by :func:`make_net`)."""

def make_net(
    n_inputs: int,
    trunk_widths: list[int],
    value_hidden: int,
    n_actions: int,
    n_values: int,
    weights: Buffer,
) -> Net: ...
def net_forward(net: Net, observation: Buffer) -> tuple[list[float], list[float]]: ...
def obs_high(num_players: int) -> list[float]: ...
def random_games(core: Core, num_players: int, games: int, seed: int) -> int: ...
def play_bot_games(
    core: Core,
    num_players: int,
    games: Sequence[tuple[RngState, tuple[RngState | None, ...], tuple[int, ...]]],
    greedy: tuple[float, float, float],
    heuristic: tuple[Any, ...],
    max_steps: int,
) -> list[tuple[int, tuple[int, ...], int, tuple[int, ...], int, int, tuple[int, ...]]]: ...

# -- Escape from Clockwork City (clockwork.c, clockwork_module.c) ----------------------------------
CW_NUM_ACTIONS: int
CW_OBS_SIZE: int
ClockworkOptions = tuple[bool, bool, bool, bool, bool, int]
ClockworkTrack = tuple[int, int, Sequence[int]]

class ClockworkGame:
    current_player: int
    phase: int
    num_players: int
    winner: int
    def clone(self) -> ClockworkGame: ...
    def legal_actions(self) -> list[int]: ...
    def apply(self, action: int, dice: Sequence[int] | None = ...) -> tuple[Any, ...]: ...
    def export(self) -> dict[str, Any]: ...
    def observe(self, seat: int, out: Any) -> None: ...
    def bot_action(
        self, kind: int, rng: RngState | None, threshold: float
    ) -> tuple[int, RngState]: ...
    def view(self, seat: int) -> ClockworkGame: ...
    def determinize(self, seat: int, rng: RngState | None) -> tuple[ClockworkGame, RngState]: ...
    def evaluate(self) -> list[float]: ...
    def rollout_action(self, rng: RngState | None) -> tuple[int, RngState]: ...
    def search(
        self,
        seat: int,
        options: tuple[int, float, float, int, int, int, float, int],
        rng: RngState | None,
    ) -> tuple[int, int, int, RngState, tuple[tuple[int, int, float], ...]]: ...

def numpy_permutation(
    values: Sequence[int], rng: RngState | None
) -> tuple[list[int], RngState]: ...
def cw_new(
    num_players: int,
    rng: RngState,
    options: ClockworkOptions,
    counts: Sequence[int],
    track: ClockworkTrack,
) -> ClockworkGame: ...
def cw_import(
    options: ClockworkOptions, counts: Sequence[int], track: ClockworkTrack, state: dict[str, Any]
) -> ClockworkGame: ...
def cw_random_games(
    num_players: int,
    games: int,
    seed: int,
    options: ClockworkOptions,
    counts: Sequence[int],
    track: ClockworkTrack,
) -> int: ...

# -- Australia (australia.c, australia_module.c) --------------------------------------------------
AU_NUM_ACTIONS: int
AU_OBS_SIZE: int
AU_BATCH_MAX_GAMES: int
AustraliaOptions = tuple[bool, bool, int, int]
AustraliaMap = tuple[Sequence[int], Sequence[tuple[int, Sequence[int]]], Sequence[int]]
AustraliaComponents = tuple[
    Sequence[Sequence[int]], Sequence[int], Sequence[bool], int, int, int, int, int
]

class AustraliaGame:
    current_player: int
    phase: int
    num_players: int
    def clone(self) -> AustraliaGame: ...
    def legal_actions(self) -> list[int]: ...
    def apply(self, action: int) -> tuple[Any, ...]: ...
    def export(self) -> dict[str, Any]: ...
    def observe(self, seat: int, out: Any) -> None: ...
    def bot_action(self, kind: int, rng: RngState | None) -> tuple[int, RngState]: ...
    def view(self, seat: int) -> AustraliaGame: ...
    def determinize(self, seat: int, rng: RngState | None) -> tuple[AustraliaGame, RngState]: ...
    def evaluate(self) -> list[float]: ...
    def rollout_action(self, rng: RngState | None) -> tuple[int, RngState]: ...
    def search(
        self,
        seat: int,
        options: tuple[int, float, float, int, int, int, float, int],
        rng: RngState | None,
    ) -> tuple[int, int, int, RngState, tuple[tuple[int, int, float], ...]]: ...

class AustraliaBatch:
    bytes_per_game: int
    obs_size: int
    def __init__(
        self,
        num_games: int,
        num_players: int,
        seed_words: Sequence[int],
        options: AustraliaOptions,
        map: AustraliaMap,
        components: AustraliaComponents,
        buffers: tuple[Any, ...],
        settings: tuple[int, int, int, int, int],
    ) -> None: ...
    def reset(self) -> None: ...
    def step(self, actions: Any) -> None: ...
    def export_game(self, game: int) -> dict[str, Any]: ...
    def controllers(self, game: int) -> tuple[int, ...]: ...

def au_bot_decisions(
    kind: int,
    num_players: int,
    games: int,
    seed: int,
    options: AustraliaOptions,
    map: AustraliaMap,
    components: AustraliaComponents,
) -> int: ...
def au_new(
    num_players: int,
    rng: RngState,
    options: AustraliaOptions,
    map: AustraliaMap,
    components: AustraliaComponents,
) -> AustraliaGame: ...
def au_import(
    options: AustraliaOptions,
    map: AustraliaMap,
    components: AustraliaComponents,
    state: dict[str, Any],
) -> AustraliaGame: ...
def au_random_games(
    num_players: int,
    games: int,
    seed: int,
    options: AustraliaOptions,
    map: AustraliaMap,
    components: AustraliaComponents,
) -> int: ...

# -- Nippon (nippon.c, nippon_module.c, nippon_batch.c) ------------------------------------------
NI_NUM_ACTIONS: int
NI_BATCH_MAX_GAMES: int
NipponOptions = tuple[bool, bool, bool, bool]

class NipponGame:
    current_player: int
    phase: int
    num_players: int
    game_over: bool
    obs_size: int
    def clone(self) -> NipponGame: ...
    def legal_actions(self) -> list[int]: ...
    def apply(self, action: int) -> tuple[int, int, tuple[int, ...]]: ...
    def export(self) -> dict[str, Any]: ...
    def observe(self, seat: int, out: Any) -> None: ...
    def bot_action(
        self,
        kind: int,
        rng: RngState | None,
        weights: tuple[float, ...],
        memory: tuple[tuple[int, ...], int, int],
    ) -> tuple[int, tuple[int, int, int, int], tuple[list[int], int, int]]: ...
    def evaluate(self, seat: int, weights: tuple[float, ...]) -> float: ...
    def view(self, seat: int) -> NipponGame: ...
    def determinize(self, seat: int, rng: RngState | None) -> tuple[NipponGame, RngState]: ...
    def results(self) -> list[float]: ...
    def values(self) -> list[float]: ...
    def search(
        self,
        seat: int,
        options: tuple[int, float, float, int, int, int, float, int],
        rng: RngState | None,
        weights: tuple[tuple[float, ...], ...],
    ) -> tuple[int, int, int, RngState, tuple[tuple[int, int, float], ...]]: ...

class NipponBatch:
    bytes_per_game: int
    obs_size: int
    def __init__(
        self,
        num_games: int,
        num_players: int,
        seed_words: Sequence[int],
        options: NipponOptions,
        tables: tuple[Any, ...],
        weights: tuple[tuple[float, ...], tuple[float, ...]],
        buffers: tuple[Any, ...],
        settings: tuple[int, int, int, int, int],
    ) -> None: ...
    def reset(self) -> None: ...
    def step(self, actions: Any) -> None: ...
    def export_game(self, game: int) -> dict[str, Any]: ...
    def controllers(self, game: int) -> tuple[int, ...]: ...

def ni_new(
    num_players: int, rng: RngState, options: NipponOptions, tables: tuple[Any, ...]
) -> NipponGame: ...
def ni_import(
    options: NipponOptions, tables: tuple[Any, ...], state: dict[str, Any]
) -> NipponGame: ...
def ni_bot_decisions(
    kind: int,
    num_players: int,
    games: int,
    seed: int,
    options: NipponOptions,
    tables: tuple[Any, ...],
    weights: tuple[float, ...],
) -> int: ...
def ni_random_games(
    num_players: int, games: int, seed: int, options: NipponOptions, tables: tuple[Any, ...]
) -> int: ...
