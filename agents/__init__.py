"""Agents and how they are measured: bots (``agents.bots``), a trained-policy agent, the
registry that builds agents by name, the arena, statistics and rated tournaments.

Every agent follows :class:`airships_env.policy.Policy`; build one with
``agents.registry.make_agent("greedy")``.
"""
