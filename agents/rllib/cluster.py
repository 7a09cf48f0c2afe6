"""Joining a Ray cluster, or starting a local one, for as long as a run needs it.

``address``: an explicit address (``ray://host:10001``, ``host:6379``, ``auto``) joins that
cluster; None joins the cluster named by ``RAY_ADDRESS`` if it is set, else starts a local
single-node cluster inside this process (stopped again at the end). A process already connected
(a test's cluster) is used as it is and left connected.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

LOCAL = "local"
#: ``--ray`` without an address: the cluster ``RAY_ADDRESS`` names, else a local one.
DEFAULT = "default"


def _ray() -> Any:
    try:
        import ray
    except ImportError as error:
        raise RuntimeError(
            "Ray is not installed: pip install -e '.[rllib]' (or make venv)"
        ) from error
    return ray


@contextlib.contextmanager
def connected(address: str | None = None, *, num_cpus: int | None = None) -> Iterator[Any]:
    """Connect to (or start) a cluster for the ``with`` block; yields the ``ray`` module.

    ``address`` ``"local"`` always starts a local cluster (``num_cpus`` CPUs; None: all).
    """
    ray = _ray()
    if ray.is_initialized():
        yield ray
        return
    if address == DEFAULT:
        address = None
    target = address if address is not None else os.environ.get("RAY_ADDRESS") or None
    # The driver's working tree travels to the workers only if they lack the project: a real
    # cluster's nodes install it (README "Scaling out with Ray"); here we only quiet the logs.
    options: dict[str, Any] = {"log_to_driver": False, "include_dashboard": False}
    if target is None or target == LOCAL:
        # a cluster started here reports no usage statistics unless the user asked for them
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        with _without_ray_address():
            ray.init(num_cpus=num_cpus, **options)
    else:
        options.pop("include_dashboard")
        ray.init(address=target, **options)
    try:
        yield ray
    finally:
        ray.shutdown()


@contextlib.contextmanager
def _without_ray_address() -> Iterator[None]:
    saved = os.environ.pop("RAY_ADDRESS", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["RAY_ADDRESS"] = saved


def node_id() -> str:
    """The id of the node this code runs on (driver or actor)."""
    return str(_ray().get_runtime_context().get_node_id())
