"""Training and tournaments on a Ray cluster with RLlib (the ``rllib`` extra).

Nothing outside this package imports ray; modules here import it lazily where they can, and
:mod:`agents.rllib.env` needs it at import. See the README section "Scaling out with Ray".
"""
