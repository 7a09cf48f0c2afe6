"""Australia (Ravensburger / Rio Grande, 2005): the game object the tools use (protocol ``Game``).

Rules: docs/australia/RULES.md; the engine: :mod:`.engine`."""
