"""The Nippon reference engine (standard library and numpy only).

Rules: docs/nippon/RULES.md; components: docs/nippon/DATA.md. The state is plain integers and
lists so that a native core is a translation; every choice is an action of the fixed table in
:mod:`.actions`; chance is only the worker bag and the setup draws.
"""

from __future__ import annotations

from airships_env.games.nippon.engine.actions import (
    ACTION_NAMES,
    NUM_ACTIONS,
    action_from_name,
    action_name,
)
from airships_env.games.nippon.engine.data import (
    NipponData,
    default_data,
    load_data,
    parse_data,
)
from airships_env.games.nippon.engine.errors import (
    IllegalActionError,
    LogError,
    NipponDataError,
    ViewError,
)
from airships_env.games.nippon.engine.records import ActionRecord
from airships_env.games.nippon.engine.rules import (
    legal_actions,
    outcome,
    replay,
    replay_action,
)
from airships_env.games.nippon.engine.setup import new_game
from airships_env.games.nippon.engine.state import Phase, RulesOptions, State, state_from_dict

__all__ = [
    "ACTION_NAMES",
    "NUM_ACTIONS",
    "ActionRecord",
    "IllegalActionError",
    "LogError",
    "NipponData",
    "NipponDataError",
    "Phase",
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
