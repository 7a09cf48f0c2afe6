"""Arena and tournament games spread over a Ray cluster.

The schedule, the seeds, the seat rotation and the paired deals are the arena's
(:mod:`agents.arena`): this module only changes *where* the pending games are played. They go
out in chunks, one Ray task each (one CPU), and each task plays its games exactly as a local
worker does: bot-only games whole in the native core, others through
:class:`~agents.arena.GameRunner`. So the records are the local pool's, game for game (only the
timings differ), and they come back as tasks finish, for the caller to write and resume as
usual. Agent specs must name files every node can read (a shared disk, or the same path).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from agents.executors import GameRunner, _play_native, native_seats
from agents.schedule import GameSpec

#: Games per Ray task: enough to hide a task's overhead, few enough to spread a small run.
CHUNK = 16


def play_chunk(
    specs: Sequence[GameSpec],
    agent_specs: dict[str, str],
    seed: int,
    save_logs: bool,
    max_steps: int,
) -> list[dict[str, Any]]:
    """Play ``specs`` as a local worker would (the body of one Ray task)."""
    seats = None if save_logs else native_seats(agent_specs)
    if seats is not None:
        return list(_play_native(list(specs), seats, seed, max_steps))
    runner = GameRunner(agent_specs, seed, save_logs, max_steps)
    return [runner(spec) for spec in specs]


def play_on_ray(
    pending: Sequence[GameSpec],
    agent_specs: dict[str, str],
    *,
    seed: int,
    save_logs: bool,
    max_steps: int,
    address: str | None,
    chunk: int = CHUNK,
) -> Iterator[dict[str, Any]]:
    """Records of the pending games, played as Ray tasks, in the order the tasks finish.

    ``address``: see :func:`agents.rllib.cluster.connected` (``"default"``: ``RAY_ADDRESS``,
    else a local cluster).
    """
    from agents.rllib.cluster import connected

    with connected(address) as ray:
        task = ray.remote(num_cpus=1, max_retries=2)(play_chunk)
        agents_ref = ray.put(dict(agent_specs))
        waiting = [
            task.remote(
                list(pending[start : start + chunk]), agents_ref, seed, save_logs, max_steps
            )
            for start in range(0, len(pending), max(1, chunk))
        ]
        try:
            while waiting:
                ready, waiting = ray.wait(waiting, num_returns=1)
                yield from ray.get(ready[0])
        finally:
            for left in waiting:
                ray.cancel(left, force=True)
