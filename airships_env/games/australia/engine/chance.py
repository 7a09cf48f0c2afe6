"""All chance of the game, from one numpy generator's raw 64-bit output (RULES.md N1-N3)."""

from __future__ import annotations

# N1's samplers (an exactly uniform integer by rejection on raw 64-bit draws; Fisher-Yates in
# place from the last position down) are the shared ones of airships_env.chance.
from airships_env.chance import shuffle as shuffle  # re-exported
from airships_env.chance import uniform_below as uniform_below  # re-exported
