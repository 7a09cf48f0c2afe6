"""The Escape from Clockwork City reference engine (standard library and numpy only).

Rules: docs/clockwork/RULES.md. The state is plain integers and lists so that a native core
is a translation; every choice is an action of the fixed table in :mod:`.actions`.
"""

from __future__ import annotations

from airships_env.games.clockwork.engine.actions import (
    ACTION_NAMES,
    NUM_ACTIONS,
    action_from_name,
    action_name,
)
from airships_env.games.clockwork.engine.data import (
    TYPE_IDS,
    ClockworkData,
    default_data,
    load_data,
    parse_data,
)
from airships_env.games.clockwork.engine.errors import (
    ClockworkDataError,
    IllegalActionError,
    LogError,
)
from airships_env.games.clockwork.engine.records import ActionRecord
from airships_env.games.clockwork.engine.rules import (
    ViewError,
    legal_actions,
    outcome,
    replay_action,
)
from airships_env.games.clockwork.engine.setup import new_game, replay
from airships_env.games.clockwork.engine.state import RulesOptions, State, state_from_dict

__all__ = [
    "ACTION_NAMES",
    "NUM_ACTIONS",
    "TYPE_IDS",
    "ActionRecord",
    "ClockworkData",
    "ClockworkDataError",
    "IllegalActionError",
    "LogError",
    "RulesOptions",
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
