"""Tests of the environment layer: observation, AEC environment, single-agent wrapper."""
