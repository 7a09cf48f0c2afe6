"""Arena and tournament games spread over a Ray cluster.

The schedule, the seeds, the seat rotation and the paired deals are the arena's
(:mod:`agents.arena`): this module only changes *where* the pending games are played. They go
out in chunks, one Ray task each (one CPU), and each task plays its games exactly as a local
worker does (:class:`~agents.executors.LocalExecutor` with one worker: bot-only games whole in
the native core, others in Python). So the records are the local pool's, game for game (only the
timings differ), and they come back as tasks finish, for the caller to write and resume as
usual. Agent specs must name files every node can read (a shared disk, or the same path).
Pass a :class:`RayExecutor` to :func:`agents.arena.run_arena` or :func:`agents.arena.run_schedule`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agents.executors import LocalExecutor
from agents.schedule import GameSpec

#: Games per Ray task: enough to hide a task's overhead, few enough to spread a small run.
CHUNK = 16


def play_chunk(
    specs: Sequence[GameSpec],
    agent_specs: dict[str, str],
    seed: int,
    save_logs: bool,
    max_steps: int,
    game: str = "airships",
    rules: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Play ``specs`` as a local worker would (the body of one Ray task), dealt with the rules
    options ``rules`` names."""
    local = LocalExecutor(workers=1)
    return list(
        local(
            specs,
            agent_specs,
            seed=seed,
            save_logs=save_logs,
            max_steps=max_steps,
            game=game,
            rules=rules,
        )
    )


def play_on_ray(
    pending: Sequence[GameSpec],
    agent_specs: dict[str, str],
    *,
    seed: int,
    save_logs: bool,
    max_steps: int,
    address: str | None,
    chunk: int = CHUNK,
    game: str = "airships",
    rules: Mapping[str, Any] | None = None,
) -> Iterator[dict[str, Any]]:
    """Records of the pending games (dealt with the rules options ``rules`` names), played as
    Ray tasks, in the order the tasks finish.

    ``address``: see :func:`agents.rllib.cluster.connected` (``"default"``: ``RAY_ADDRESS``,
    else a local cluster).
    """
    from agents.rllib.cluster import connected

    with connected(address) as ray:
        task = ray.remote(num_cpus=1, max_retries=2)(play_chunk)
        agents_ref = ray.put(dict(agent_specs))
        waiting = [
            task.remote(
                list(pending[start : start + chunk]),
                agents_ref,
                seed,
                save_logs,
                max_steps,
                game,
                dict(rules or {}),
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


@dataclass(frozen=True)
class RayExecutor:
    """An arena executor that plays the pending games as tasks on a Ray cluster (``address``:
    see :func:`play_on_ray`)."""

    address: str | None = "default"
    chunk: int = CHUNK

    def __call__(
        self,
        pending: Sequence[GameSpec],
        agent_specs: dict[str, str],
        *,
        seed: int,
        save_logs: bool,
        max_steps: int,
        game: str = "airships",
        rules: Mapping[str, Any] | None = None,
    ) -> Iterator[dict[str, Any]]:
        """The records of ``pending``, games of ``game`` dealt with the rules options ``rules``
        names, as the tasks finish."""
        if not pending:
            return iter(())
        return play_on_ray(
            pending,
            agent_specs,
            seed=seed,
            save_logs=save_logs,
            max_steps=max_steps,
            address=self.address,
            chunk=self.chunk,
            game=game,
            rules=rules,
        )
