"""Digests of what the Clockwork, Australia and Nippon environments show along their golden games.

At every state of a golden game (before each record and at the end), for every seat: the
observation of the seat's view (``GAME.observe(state.view(seat), seat)``, its float32 bytes), and
the legal actions of the seat to act, all fed to one sha256 per game. The golden-game tests
(``tests/australia/test_golden.py``, ``tests/nippon/test_golden.py``) require the recorded
digests, so a faster encoder or legal-action search that changes a single value shows there.
(Clockwork's, ``tests/clockwork/test_golden.py``, were recorded with the encoder before its
rewrite for speed.)

    python scripts/observation_digests.py            # rewrites the digest files
    python scripts/observation_digests.py --check    # only says whether they still match

Re-record only when an observation or the legal actions change on purpose (and say so).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))

from airships_env.game_log import read_game_log, replay_log  # noqa: E402
from airships_env.games.australia import GAME as AUSTRALIA  # noqa: E402
from airships_env.games.australia.engine import (  # noqa: E402
    ActionRecord,
    RulesOptions,
    new_game,
    replay_action,
)
from airships_env.games.clockwork import GAME as CLOCKWORK  # noqa: E402
from airships_env.games.clockwork.engine import new_game as new_clockwork_game  # noqa: E402
from airships_env.games.nippon import GAME as NIPPON  # noqa: E402

AUSTRALIA_GOLDEN = ROOT / "tests" / "australia" / "golden"
NIPPON_GOLDEN = ROOT / "tests" / "golden" / "nippon"
CLOCKWORK_GOLDEN = ROOT / "tests" / "clockwork" / "golden"
FILE_NAME = "observations.json"


def _feed(digest: Any, game: Any, state: Any) -> None:
    """Every seat's observation of its view, then the legal actions, into ``digest``."""
    for seat in range(state.num_players):
        vector = np.asarray(game.observe(state.view(seat), seat), dtype=np.float32)
        digest.update(vector.tobytes())
    digest.update(np.asarray(state.legal_actions(), dtype=np.int64).tobytes())


def australia_digest(stem: str) -> str:
    """The digest of the Australia golden game ``stem`` (``2p_simple``, ...)."""
    lines = (AUSTRALIA_GOLDEN / f"{stem}.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    options = RulesOptions.from_dict(header["options"])
    state = new_game(header["num_players"], header["seed"], options=options)
    digest = hashlib.sha256()
    for line in lines[1:]:
        _feed(digest, AUSTRALIA, state)
        replay_action(state, ActionRecord.from_dict(json.loads(line)))
    _feed(digest, AUSTRALIA, state)
    return digest.hexdigest()


def clockwork_digest(stem: str) -> str:
    """The digest of the Clockwork golden game ``stem`` (``2p_airship``, ...)."""
    lines = (CLOCKWORK_GOLDEN / f"{stem}.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    options = CLOCKWORK.options_from_dict(header["options"])
    state = new_clockwork_game(header["players"], header["seed"], options=options)
    digest = hashlib.sha256()
    for line in lines[1:]:
        _feed(digest, CLOCKWORK, state)
        CLOCKWORK.replay_action(state, CLOCKWORK.record_from_dict(json.loads(line)))
    _feed(digest, CLOCKWORK, state)
    return digest.hexdigest()


def nippon_digest(stem: str) -> str:
    """The digest of the Nippon golden game ``stem`` (``2p_heuristic-greedy``, ...)."""
    digest = hashlib.sha256()
    game: Any = NIPPON  # its state_from_dict names its argument ``d``, not the protocol's ``data``
    replayed = replay_log(
        read_game_log(NIPPON_GOLDEN / f"{stem}.jsonl"),
        game,
        before=lambda state, _record: _feed(digest, NIPPON, state),
    )
    _feed(digest, NIPPON, replayed.state)
    return digest.hexdigest()


def all_digests() -> dict[Path, dict[str, str]]:
    """Each digest file and the digests it should hold (stem -> sha256)."""
    return {
        CLOCKWORK_GOLDEN / FILE_NAME: {
            path.stem: clockwork_digest(path.stem)
            for path in sorted(CLOCKWORK_GOLDEN.glob("*.jsonl"))
        },
        AUSTRALIA_GOLDEN / FILE_NAME: {
            path.stem: australia_digest(path.stem)
            for path in sorted(AUSTRALIA_GOLDEN.glob("*.jsonl"))
        },
        NIPPON_GOLDEN / FILE_NAME: {
            path.stem: nippon_digest(path.stem) for path in sorted(NIPPON_GOLDEN.glob("*.jsonl"))
        },
    }


def main() -> int:
    """Write (or with --check compare) the digest files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args()
    differ = 0
    for path, digests in all_digests().items():
        if args.check:
            stored = json.loads(path.read_text(encoding="utf-8"))
            for stem, value in digests.items():
                same = stored.get(stem) == value
                differ += not same
                print(f"{path.parent.name}/{stem}: {'same' if same else 'DIFFERENT'}")
        else:
            path.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)} ({len(digests)} games)")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
