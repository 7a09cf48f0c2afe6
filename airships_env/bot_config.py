"""Weights of the greedy and heuristic bots, shared by the Python bots (``agents/bots``) and their
native twins in the core (``airships_env/native``), which must make the same choices.

The heuristic's weights are a YAML file (``airships_env/heuristic.yaml``, shipped as package data;
``heuristic:config=path`` gives another); :meth:`HeuristicConfig.load` validates it with messages
that name the file and the key. The greedy bot's few weights are keyword options.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from airships_env.configfile import Number, Strict, read_mapping, validate_config

DEFAULT_CONFIG = Path(__file__).with_name("heuristic.yaml")  # package data: found when installed


class HeuristicConfig(Strict):
    """The heuristic bot's weights (see ``airships_env/heuristic.yaml`` for their meaning)."""

    turns_base_2p: Number
    turns_base_3p: Number
    turns_base_4p: Number
    turns_per_airship_2p: Number
    turns_per_airship_3p: Number
    turns_per_airship_4p: Number
    turns_per_phase: Number
    turns_min: Number
    dice_weight: Number
    value_era: Literal[1, 2]
    airship_choice: Number
    phase_choice: Number
    phase_complete_odds: Number
    chip_turn_fraction: Number
    chip_value_min: Number
    wooden_airship_value: Number
    extra_turn_min_value: Number
    win_value: Number
    race_weight: Number
    race_scale: Number

    @classmethod
    def load(cls, path: str | Path | None = None, **overrides: Any) -> HeuristicConfig:
        """The shipped defaults, overridden by the keys of ``path`` and then by ``overrides``
        (validated by :mod:`airships_env.configfile`: errors name the file and the key)."""
        values = read_mapping(DEFAULT_CONFIG)
        config = validate_config(values, cls, str(DEFAULT_CONFIG))
        if path is not None:
            values.update(read_mapping(path))
            config = validate_config(values, cls, str(path))
        if overrides:
            values.update(overrides)
            config = validate_config(values, cls, "heuristic options")
        return config

    def native(self) -> tuple[Any, ...]:
        """The weights in the order the native core reads them."""
        return (
            (self.turns_base_2p, self.turns_base_3p, self.turns_base_4p),
            (self.turns_per_airship_2p, self.turns_per_airship_3p, self.turns_per_airship_4p),
            self.turns_per_phase,
            self.turns_min,
            self.dice_weight,
            self.value_era,
            self.airship_choice,
            self.phase_choice,
            self.phase_complete_odds,
            self.chip_turn_fraction,
            self.chip_value_min,
            self.wooden_airship_value,
            self.extra_turn_min_value,
            self.win_value,
            self.race_weight,
            self.race_scale,
        )


@dataclass(frozen=True, slots=True)
class GreedyConfig:
    """The greedy bot's weights: an expansion's dice gain, a chip, the extra-turn threshold."""

    dice_weight: float = 6.0
    chip_value: float = 0.3
    extra_turn_threshold: float = 1.0

    def native(self) -> tuple[float, float, float]:
        """The weights in the order the native core reads them."""
        return (float(self.dice_weight), float(self.chip_value), float(self.extra_turn_threshold))
