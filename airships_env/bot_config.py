"""Weights of the greedy and heuristic bots, shared by the Python bots (``agents/bots``) and their
native twins in the core (``airships_env/native``), which must make the same choices.

The heuristic's weights are a YAML file (``airships_env/heuristic.yaml``, shipped as package data;
``heuristic:config=path`` gives another); :meth:`HeuristicConfig.load` validates it with messages
that name the file and the key. The greedy bot's few weights are keyword options.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import yaml

DEFAULT_CONFIG = Path(__file__).with_name("heuristic.yaml")  # package data: found when installed


@dataclass(frozen=True, slots=True)
class HeuristicConfig:
    """The heuristic bot's weights (see ``airships_env/heuristic.yaml`` for their meaning)."""

    turns_base_2p: float
    turns_base_3p: float
    turns_base_4p: float
    turns_per_airship_2p: float
    turns_per_airship_3p: float
    turns_per_airship_4p: float
    turns_per_phase: float
    turns_min: float
    dice_weight: float
    value_era: int
    airship_choice: float
    phase_choice: float
    phase_complete_odds: float
    chip_turn_fraction: float
    chip_value_min: float
    wooden_airship_value: float
    extra_turn_min_value: float
    win_value: float
    race_weight: float
    race_scale: float

    @classmethod
    def load(cls, path: str | Path | None = None, **overrides: Any) -> HeuristicConfig:
        """The shipped defaults, overridden by the keys of ``path`` and then by ``overrides``."""
        values = _read_yaml(DEFAULT_CONFIG)
        _check(values, DEFAULT_CONFIG, require_all=True)
        if path is not None:
            user = _read_yaml(Path(path))
            _check(user, Path(path), require_all=False)
            values.update(user)
        if overrides:
            _check(overrides, "keyword options", require_all=False)
            values.update(overrides)
        return cls(**{f.name: _convert(f.name, values[f.name]) for f in fields(cls)})

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


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(
            f"{path}: cannot read the heuristic config: {exc.strerror or exc}"
        ) from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ValueError(f"{path}: not valid YAML: {exc}") from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ValueError(
            f"{path}: the heuristic config must be a mapping of key: number, "
            f"got {type(data).__name__}"
        )
    return data


def _check(values: dict[str, Any], source: Path | str, require_all: bool) -> None:
    known = {f.name: f for f in fields(HeuristicConfig)}
    for key, value in values.items():
        if key not in known:
            raise ValueError(
                f"{source}: unknown key {key!r} in the heuristic config; "
                f"known keys: {', '.join(sorted(known))}"
            )
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{source}: key {key!r} must be a number, got {value!r}")
        if key == "value_era" and value not in (1, 2):
            raise ValueError(f"{source}: key 'value_era' must be 1 or 2, got {value!r}")
    if require_all:
        missing = sorted(set(known) - set(values))
        if missing:
            raise ValueError(f"{source}: missing key(s) {', '.join(missing)}")


def _convert(name: str, value: Any) -> Any:
    return int(value) if name == "value_era" else float(value)


@dataclass(frozen=True, slots=True)
class GreedyConfig:
    """The greedy bot's weights: an expansion's dice gain, a chip, the extra-turn threshold."""

    dice_weight: float = 6.0
    chip_value: float = 0.3
    extra_turn_threshold: float = 1.0

    def native(self) -> tuple[float, float, float]:
        """The weights in the order the native core reads them."""
        return (float(self.dice_weight), float(self.chip_value), float(self.extra_turn_threshold))
