"""The Airships rules engine: standard library and numpy only.

Typical use::

    from airships_env.engine import new_game

    state = new_game(num_players=4, seed=7)
    while not state.is_terminal():
        action = state.legal_actions()[0]
        record = state.apply_action(action)
    print(state.final_scores, state.winners)

Modules: ``cards`` (data and validation), ``dice`` (chance: exact odds, sampling), ``actions``
(the action table), ``model`` and ``state`` (the state: data, clone, dict round trip), ``game``
(setup), ``rules`` (every rule), ``derived`` (dice pools, exchange variants, odds: one owner,
bounded caches), ``records`` and ``log`` (the game log and replay), ``view`` (public view,
determinization for search). The rules are written down in docs/airships/RULES.md.
"""

from airships_env.engine.actions import (
    ACTION_NAMES,
    BUY_EXTRA_TURN,
    END_TURN,
    KEEP_CHIP,
    NUM_ACTIONS,
    NUM_ATTEMPT_ACTIONS,
    NUM_TARGETS,
    NUM_VARIANTS,
    PASS,
    SPEND_CHIP,
    action_name,
    as_action_index,
    attempt_action,
    attempt_target,
    attempt_variant,
    decode,
    is_attempt,
    not_an_action_reason,
    target_name,
)
from airships_env.engine.cards import CardSet, default_cards, load_cards
from airships_env.engine.dice import AttemptOdds
from airships_env.engine.errors import (
    ActionSpaceError,
    CardDataError,
    IllegalActionError,
    LogError,
)
from airships_env.engine.game import new_game
from airships_env.engine.log import GameLog, read_log, replay
from airships_env.engine.records import ActionRecord, ChipMove, ExchangeMade, Reveal
from airships_env.engine.rules import (
    attempt_odds,
    attempt_table,
    legal_actions,
    outcome_if_success,
    player_pool,
    score_parts,
    scores,
    target_card,
    winners,
)
from airships_env.engine.state import (
    CHIP_DECISION,
    CHOOSE_TARGET,
    EXTRA_TURN,
    GAME_OVER,
    PHASE_NAMES,
    GameState,
    PlayerState,
    RulesOptions,
)
from airships_env.engine.view import determinize, public_view

__all__ = [
    "ACTION_NAMES",
    "BUY_EXTRA_TURN",
    "CHIP_DECISION",
    "CHOOSE_TARGET",
    "END_TURN",
    "EXTRA_TURN",
    "GAME_OVER",
    "KEEP_CHIP",
    "NUM_ACTIONS",
    "NUM_ATTEMPT_ACTIONS",
    "NUM_TARGETS",
    "NUM_VARIANTS",
    "PASS",
    "PHASE_NAMES",
    "SPEND_CHIP",
    "ActionRecord",
    "ActionSpaceError",
    "AttemptOdds",
    "CardDataError",
    "CardSet",
    "ChipMove",
    "ExchangeMade",
    "GameLog",
    "GameState",
    "IllegalActionError",
    "LogError",
    "PlayerState",
    "Reveal",
    "RulesOptions",
    "action_name",
    "as_action_index",
    "attempt_action",
    "attempt_odds",
    "attempt_table",
    "attempt_target",
    "attempt_variant",
    "decode",
    "default_cards",
    "determinize",
    "is_attempt",
    "legal_actions",
    "load_cards",
    "new_game",
    "not_an_action_reason",
    "outcome_if_success",
    "player_pool",
    "public_view",
    "read_log",
    "replay",
    "score_parts",
    "scores",
    "target_card",
    "target_name",
    "winners",
]
