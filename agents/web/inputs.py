"""What a request may carry: bodies read up to a limit, fields parsed and range-checked.

Every number a request gives is read here, checked against its range before anything uses it
(a 5,000-digit ``players`` is refused as text, never turned into a list or an int), and every
malformed body or field is a :class:`~agents.web.games.GameError` with status 400 that names the
field; a body over the limit is a 413 read no further than the limit.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.types import Message

from agents.web.games import GameError

#: The largest body of a form or JSON request (a move, a new game): a few fields.
MAX_BODY = 16 * 1024
#: The most characters a field of a request may have (an opponents list is the longest).
MAX_FIELD = 500
#: The most digits a whole number of a request may have (a seed: up to 2**63 - 1).
MAX_DIGITS = 19
_TRUE = ("1", "true", "on", "yes")
_FALSE = ("", "0", "false", "off", "no")


def _shown(text: str) -> str:
    """A field's value as a message quotes it (long values cut short)."""
    return repr(text if len(text) <= 24 else text[:20] + "...")


def whole_number(
    fields: Mapping[str, str], name: str, low: int, high: int, default: int | None = None
) -> int:
    """The field ``name`` as a whole number in ``low..high`` (``default`` when it is absent or
    empty); a GameError (400) naming the field otherwise."""
    text = fields.get(name, "").strip()
    if not text:
        if default is None:
            raise GameError(400, f"field {name!r} is missing: give a whole number {low} to {high}")
        return default
    digits = text[1:] if text[:1] in "+-" else text
    if not digits.isascii() or not digits.isdigit():
        raise GameError(
            400, f"field {name!r} must be a whole number ({low} to {high}), got {_shown(text)}"
        )
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise GameError(400, f"{name} must be {low} to {high}, got a {len(digits)}-digit number")
    value = int(text)
    if not low <= value <= high:
        raise GameError(400, f"{name} must be {low} to {high}, got {value}")
    return value


def flag(fields: Mapping[str, str], name: str) -> bool:
    """The field ``name`` as true or false (absent: false); a GameError (400) otherwise."""
    text = fields.get(name, "").strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise GameError(400, f"field {name!r} must be true or false (1 or 0), got {_shown(text)}")


def text_field(fields: Mapping[str, str], name: str, default: str = "") -> str:
    """The field ``name`` as text of at most :data:`MAX_FIELD` characters."""
    text = fields.get(name, default)
    if len(text) > MAX_FIELD:
        raise GameError(
            400, f"field {name!r} is {len(text)} characters long: at most {MAX_FIELD} are read"
        )
    return text


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, refused (413) as soon as it is over ``limit`` bytes."""
    too_big = GameError(413, f"the request body is over the limit of {limit} bytes")
    length = request.headers.get("content-length", "")
    if length.isdigit() and (len(length) > 15 or int(length) > limit):
        raise too_big
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_big
        chunks.append(chunk)
    return b"".join(chunks)


def json_fields(body: bytes) -> dict[str, str]:
    """A JSON object's fields as text (numbers as written, true/false as 1/0); a GameError
    (400) for a body that is not a JSON object of numbers, strings and true/false."""
    try:
        # Numbers stay text (a 5,000-digit number is refused by its field, never converted).
        data: Any = json.loads(
            body.decode("utf-8"), parse_int=str, parse_float=str, parse_constant=str
        )
    except UnicodeDecodeError as exc:
        raise GameError(400, f"the JSON body is not UTF-8 text: {exc.reason}") from exc
    except ValueError as exc:
        raise GameError(400, f"the body is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise GameError(400, 'the JSON body must be an object of fields, like {"step": 0}')
    fields: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, bool):
            fields[key] = "1" if value else "0"
        elif isinstance(value, str):
            fields[key] = value
        elif value is None:
            fields[key] = ""
        else:
            kind = type(value).__name__.replace("dict", "object").replace("list", "array")
            raise GameError(
                400, f"field {key!r} must be a whole number, text or true/false, not {kind}"
            )
    return fields


def replayed(request: Request, body: bytes) -> Request:
    """The request again, over a body already read (so that Starlette parses it as a form)."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return Request(request.scope, receive)


async def body_fields(request: Request, limit: int = MAX_BODY) -> dict[str, str]:
    """The fields of a JSON or form body of at most ``limit`` bytes."""
    body = await read_body(request, limit)
    if request.headers.get("content-type", "").startswith("application/json"):
        return json_fields(body)
    try:
        async with replayed(request, body).form(max_files=0, max_fields=20) as form:
            return {key: str(value) for key, value in form.items()}
    except Exception as exc:  # a malformed multipart body (Starlette raises its own kinds)
        detail = getattr(exc, "detail", None) or str(exc)
        raise GameError(400, f"the body is not a form: {detail}") from exc
