"""What a player may see (docs/RULES.md V1, V2), and hidden cards re-sampled for search.

There is no private information in Airships: what is hidden (V2) is hidden from everyone. So
one public view serves every seat. :func:`public_view` returns a :class:`GameState` whose hidden
parts are replaced by a *canonical* arrangement (each hidden group sorted by card index) and
which has no random generator: two games with the same public history give equal views, and a
bot that reads the view learns nothing hidden. Every engine function that uses public
information only (legal actions, odds, scores) works on the view.

:func:`determinize` turns a view (or a true state) into a full state whose hidden cards are
re-dealt at random, consistently with everything public: the deck keeps its Era 1 / Change of
Era / Era 2 structure (the card backs differ), every stack keeps its tiers, and the airships left
out are drawn from the unseen cards of each tier.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from airships_env.engine.dice import shuffle
from airships_env.engine.model import CHANGE_OF_ERA

if TYPE_CHECKING:  # the state's methods call into this module: no run-time import back
    from airships_env.engine.state import GameState

STACK_TIERS_FROM_BOTTOM = (3, 2, 1)  # S2


def _hidden_groups(state: GameState) -> tuple[list[int], list[int], dict[int, list[int]]]:
    """The hidden cards: Era 1 deck cards, Era 2 deck cards, unseen airships by tier."""
    expansions = state.cards.expansions
    deck = [c for c in state.deck if c != CHANGE_OF_ERA]
    deck_era_one = [c for c in deck if expansions[c].era == 1]
    deck_era_two = [c for c in deck if expansions[c].era != 1]
    airships = state.cards.airships
    unseen: dict[int, list[int]] = {1: [], 2: [], 3: []}
    for stack in state.stacks:
        for card in stack[:-1]:
            unseen[airships[card].tier].append(card)
    for card in state.left_out:
        unseen[airships[card].tier].append(card)
    return deck_era_one, deck_era_two, unseen


def _deal_hidden(
    state: GameState, era_one: list[int], era_two: list[int], unseen: dict[int, list[int]]
) -> None:
    """Put the given hidden cards back into the hidden places, in the given order."""
    has_change = CHANGE_OF_ERA in state.deck
    state.deck = era_two + ([CHANGE_OF_ERA] if has_change else []) + era_one
    pools = {tier: list(cards) for tier, cards in unseen.items()}
    for stack in state.stacks:
        for position in range(len(stack) - 1):
            stack[position] = pools[STACK_TIERS_FROM_BOTTOM[position]].pop()
    state.left_out = [card for tier in (3, 2, 1) for card in pools[tier]]


def public_view(state: GameState) -> GameState:
    """A copy holding only public information (V1): hidden cards canonical, no generator.

    A view answers every question about public information (legal actions, odds, scores) but
    refuses to advance the game: :func:`determinize` gives a playable copy.
    """
    view = state.clone(with_rng=False)
    era_one, era_two, unseen = _hidden_groups(state)
    _deal_hidden(
        view,
        sorted(era_one),
        sorted(era_two),
        {tier: sorted(cards, reverse=True) for tier, cards in unseen.items()},
    )
    view.is_public_view = True
    return view


def determinize(state: GameState, rng: np.random.Generator) -> GameState:
    """A full state with the hidden cards re-dealt at random and its own generator from ``rng``.

    Only public information of ``state`` is used: the result never depends on the true hidden
    order, whether ``state`` is a view or a true state. The draws, in order: the new game
    generator's seed (one raw 64-bit output, shifted right by one), then a Fisher-Yates shuffle
    (:func:`~airships_env.engine.dice.shuffle`) of the sorted Era 1 deck cards, of the sorted
    Era 2 deck cards, and of the sorted unseen airships of tiers 1, 2 and 3. The native core
    determinizes the same way.
    """
    # Sorted first, so that the sample never depends on the order the hidden cards are in.
    era_one, era_two, unseen = _hidden_groups(state)
    seed = int(rng.bit_generator.random_raw()) >> 1
    sample = state.clone(rng=np.random.default_rng(seed))
    _deal_hidden(
        sample,
        shuffle(rng, sorted(era_one)),
        shuffle(rng, sorted(era_two)),
        {tier: shuffle(rng, sorted(cards)) for tier, cards in sorted(unseen.items())},
    )
    sample.is_public_view = False
    return sample
