"""The web app: play against the bots in a browser, replay game logs, see tournament results.

``airships serve`` runs it (:mod:`agents.cli.serve`); :func:`create_app` builds the ASGI app.
Needs the ``web`` extra (starlette, uvicorn, jinja2, python-multipart).
"""

from __future__ import annotations

from agents.web.app import create_app

__all__ = ["create_app"]
