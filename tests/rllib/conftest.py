"""A two-node Ray cluster on loopback for the RLlib tests (skipped without ray)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="package")
def two_node_cluster() -> Iterator[Any]:
    """A head node and a second node, one CPU each, this process connected; always shut down."""
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # nothing leaves the machine

    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "include_dashboard": False},
    )
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, log_to_driver=False)
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()
