"""YAML configuration files read into pydantic models: the one way the project reads configs.

Training runs (``agents/training/config.py``), tournaments (``agents/tournament.py``), the RLlib
backend and the heuristic bot's weights (``airships_env/bot_config.py``) each describe their file
as a pydantic model; :func:`load_config` reads the file and validates it, and every failure is one
:class:`ConfigError` that names the file, the key path, what was expected and what was found::

    configs/ppo_2p.yaml: ppo.n_steps: expected an integer >= 1, found 'abc'
    configs/ppo_2p.yaml: ppo.n_step: unknown key (known: learning_rate, n_steps, ...)
    configs/empty.yaml: the file is empty; expected a mapping of keys (see configs/ppo_2p.yaml)

Models derive from :class:`Strict` (unknown keys are errors, values are not coerced across
types: ``true`` is not a number, ``"3"`` is not an integer). Counts use :data:`Count`, which also
takes the spellings YAML leaves as text or floats: ``1e3``, ``1_000`` and ``2.5e5``.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, TypeVar

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
)

__all__ = [
    "ConfigError",
    "Count",
    "Number",
    "RunFile",
    "RunName",
    "Strict",
    "config_backend",
    "dump_run_file",
    "fingerprint",
    "load_config",
    "read_mapping",
    "validate_config",
    "validate_run_file",
]

Model = TypeVar("Model", bound=BaseModel)
RunModel = TypeVar("RunModel", bound="RunFile")


class ConfigError(ValueError):
    """A config that cannot be used: the message names the file, the key and the fix."""


class Strict(BaseModel):
    """Base of every config model: unknown keys are errors, no silent type coercion."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, validate_default=True)


def _run_name(value: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", value):
        raise ValueError("a name of letters, digits, '_', '-' or '.'")
    return value


#: A run's name: letters, digits, '_', '-' or '.' (it names the run's folder).
RunName = Annotated[str, AfterValidator(_run_name)]


class RunFile(Strict):
    """Base of a training run's config (PPO, RLlib, expert iteration): it remembers the file it
    was read from and gives its keys back as a dict."""

    _source: str = PrivateAttr(default="<dict>")

    @property
    def source(self) -> str:
        """The file this config was read from (``<dict>`` when built in code)."""
        return self._source

    def to_dict(self) -> dict[str, Any]:
        """The YAML-able dict of every key (defaults filled in)."""
        return self.model_dump(mode="python")


def validate_run_file(data: Any, model: type[RunModel], source: str) -> RunModel:
    """:func:`validate_config`, the config remembering ``source``."""
    config = validate_config(data, model, source)
    config._source = source
    return config


def fingerprint(data: Mapping[str, Any]) -> str:
    """A short stable hash of a config dict (SHA-256 of its sorted JSON, 16 hex digits)."""
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def config_backend(path: str | os.PathLike[str]) -> Any:
    """The ``backend`` key of a YAML config file (None when it has none or is unreadable)."""
    try:
        return read_mapping(path).get("backend")
    except ConfigError:
        return None


def dump_run_file(config: RunFile, path: str | os.PathLike[str]) -> None:
    """Write the full config (defaults filled in) as YAML, through a temporary file."""
    path = Path(path)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(yaml.safe_dump(config.to_dict(), sort_keys=False), encoding="utf-8")
    os.replace(temporary, path)


def _count(value: Any) -> Any:
    """``1e3``, ``"1_000"``, ``2.5e5`` as the integer they name (anything else passes through to
    the integer check, which then reports it)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = value.strip().replace("_", "")
        try:
            return int(text)
        except ValueError:
            try:
                number = float(text)
            except ValueError:
                return value
        return int(number) if math.isfinite(number) and number.is_integer() else value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return value


def _number(value: Any) -> Any:
    """A float key given as an integer or as text YAML did not read as a number (``3e-4``)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip().replace("_", ""))
        except ValueError:
            return value
    return value


#: An integer count (``Annotated[Count, Field(ge=1)]`` for a positive one); accepts ``1e3``.
Count = Annotated[int, BeforeValidator(_count)]
#: A finite float; accepts integers and ``3e-4`` written without a dot.
Number = Annotated[float, BeforeValidator(_number), Field(allow_inf_nan=False)]


def read_mapping(path: str | os.PathLike[str], example: str | None = None) -> dict[str, Any]:
    """The YAML mapping in ``path``; a missing, unreadable, empty or non-mapping file is a
    :class:`ConfigError` (``example`` names a good file to copy in that message)."""
    where = str(path)
    hint = f" (see {example})" if example else ""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{where}: no such config file") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{where}: not a text file; expected YAML{hint}") from None
    except OSError as exc:
        raise ConfigError(f"{where}: cannot be read ({exc.strerror or exc})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"{where}: not valid YAML{at}: {problem}") from None
    if data is None:
        raise ConfigError(f"{where}: the file is empty; expected a mapping of keys{hint}")
    if not isinstance(data, dict):
        raise ConfigError(
            f"{where}: expected a mapping of keys at the top, found {type(data).__name__} "
            f"{_shown(data)}{hint}"
        )
    return data


def load_config(
    path: str | os.PathLike[str], model: type[Model], example: str | None = None
) -> Model:
    """Read ``path`` and validate it as ``model`` (see the module docstring)."""
    return validate_config(read_mapping(path, example), model, str(path))


def validate_config(data: Any, model: type[Model], source: str) -> Model:
    """Validate already-parsed data as ``model``; errors name ``source``."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"{source}: expected a mapping of keys, found {_shown(data)}")
    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        raise ConfigError(_message(exc, model, source)) from None


def _message(exc: ValidationError, model: type[BaseModel], source: str) -> str:
    """One line per problem (the first few), each ``source: key.path: expected ..., found ...``."""
    lines = []
    errors = exc.errors(include_url=False)
    for error in errors[:5]:
        lines.append(f"{source}: {_describe(error, model)}")
    if len(errors) > 5:
        lines.append(f"... and {len(errors) - 5} more")
    return "\n".join(lines)


def _describe(error: Mapping[str, Any], model: type[BaseModel]) -> str:
    path = _path(error["loc"])
    kind = error["type"]
    found = error.get("input")
    if kind == "extra_forbidden":
        known = _known_keys(model, error["loc"][:-1])
        listed = f" (known: {', '.join(known)})" if known else ""
        return f"{path}: unknown key{listed}"
    if kind == "missing":
        return f"{path}: missing; this key is required"
    expected = _expected(error)
    return f"{path}: expected {expected}, found {_shown(found)}"


def _expected(error: Mapping[str, Any]) -> str:
    kind, context = error["type"], error.get("ctx") or {}
    bounds = {
        "greater_than": "a number > {gt}",
        "greater_than_equal": "a number >= {ge}",
        "less_than": "a number < {lt}",
        "less_than_equal": "a number <= {le}",
    }
    if kind in bounds:
        integral = all(isinstance(v, int) and not isinstance(v, bool) for v in context.values())
        what = "an integer" if integral else "a number"
        return bounds[kind].format(**context).replace("a number", what, 1)
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "an integer"
    if kind in ("float_type", "float_parsing", "finite_number"):
        return "a finite number"
    if kind in ("bool_type", "bool_parsing"):
        return "true or false"
    if kind in ("string_type",):
        return "a string"
    if kind in ("list_type", "tuple_type"):
        return "a list"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return "a mapping of keys"
    if kind == "literal_error":
        return f"one of {context.get('expected', '?')}"
    if kind == "too_short":
        least = context.get("min_length", 1)
        return f"at least {least} item{'s' if least != 1 else ''}"
    if kind == "too_long":
        most = context.get("max_length", 0)
        return f"at most {most} item{'s' if most != 1 else ''}"
    if kind == "value_error":
        return str(context.get("error", error["msg"]))
    return str(error["msg"]).lower()


def _path(loc: tuple[Any, ...]) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + str(part)
    return text or "(top level)"


def _known_keys(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """The keys the model allows at ``loc`` (a nested model's fields), for an unknown key."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        fields = getattr(current, "model_fields", None)
        if fields is None or part not in fields:
            return []
        annotation = fields[part].annotation
        current = _model_in(annotation)
        if current is None:
            return []
    fields = getattr(current, "model_fields", None)
    return list(fields) if fields else []


def _model_in(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for argument in getattr(annotation, "__args__", ()) or ():
        found = _model_in(argument)
        if found is not None:
            return found
    return None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
