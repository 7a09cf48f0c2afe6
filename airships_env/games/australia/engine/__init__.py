"""The Australia reference engine (standard library and numpy only).

Rules: docs/australia/RULES.md; data: docs/australia/DATA.md. The state is plain integers and
lists so that a native core is a translation; every choice is an action of the fixed table in
:mod:`.actions`.
"""

from __future__ import annotations

from airships_env.games.australia.engine.actions import (
    ACTION_NAMES,
    NUM_ACTIONS,
    action_from_name,
    action_name,
)
from airships_env.games.australia.engine.data import (
    BACKS,
    COLOURS,
    AustraliaData,
    default_data,
    load_data,
    parse_data,
)
from airships_env.games.australia.engine.errors import (
    AustraliaDataError,
    IllegalActionError,
    LogError,
    ViewError,
)
from airships_env.games.australia.engine.records import ActionRecord, Scoring
from airships_env.games.australia.engine.rules import (
    legal_actions,
    outcome,
    replay_action,
)
from airships_env.games.australia.engine.setup import new_game, replay
from airships_env.games.australia.engine.state import RulesOptions, State, state_from_dict

__all__ = [
    "ACTION_NAMES",
    "BACKS",
    "COLOURS",
    "NUM_ACTIONS",
    "ActionRecord",
    "AustraliaData",
    "AustraliaDataError",
    "IllegalActionError",
    "LogError",
    "RulesOptions",
    "Scoring",
    "State",
    "ViewError",
    "action_from_name",
    "action_name",
    "default_data",
    "legal_actions",
    "load_data",
    "new_game",
    "outcome",
    "parse_data",
    "replay",
    "replay_action",
    "state_from_dict",
]
