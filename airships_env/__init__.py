"""airships-env: the Airships rules engine and its PettingZoo / Gymnasium environments.

Layers, imports going one way: ``airships_env.engine`` (rules; numpy only) <- this package's
environment modules (PettingZoo AEC env, observation encoding, rendering, the single-agent
Gymnasium wrapper) <- ``agents`` and ``scripts``.

The environment classes are imported lazily, so ``import airships_env.engine`` works without
gymnasium or pettingzoo installed.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.1.0"

_LAZY = {
    "env": "airships_env.aec",
    "raw_env": "airships_env.aec",
    "AirshipsSingleAgentEnv": "airships_env.single_agent",
    "observation_layout": "airships_env.observation",
    "encode_observation": "airships_env.observation",
    "Decision": "airships_env.policy",
    "Policy": "airships_env.policy",
    "RandomPolicy": "airships_env.policy",
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'airships_env' has no attribute {name!r}")
    return getattr(import_module(module), name)
