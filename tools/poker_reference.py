#!/usr/bin/env python3
"""Generate Tests/SwingVisionTests/Fixtures/poker_reference.json: random 5-, 6- and 7-card hands
ranked by the established `treys` evaluator (Cactus Kev numbering: 1 = royal flush ... 7462 = worst).

The Swift test checks that PokerHandInterpreter's `evaluatorRank` equals treys' rank for every hand,
which also checks that the ordering of hands (kickers included) agrees.

Venv (one-off; not needed by `make test`):
    python3 -m venv /tmp/treys-venv && /tmp/treys-venv/bin/pip install treys==0.1.8
    /tmp/treys-venv/bin/python tools/poker_reference.py > Tests/SwingVisionTests/Fixtures/poker_reference.json
"""
import json
import random

from treys import Card, Evaluator

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def label(card: str) -> str:
    # treys spells ten "T"; mix spellings so the Swift parser is exercised ("10H", "Th", "th").
    r, s = card[0], card[1]
    return (random.choice(["10", "T", "t"]) if r == "T" else r) + random.choice([s.upper(), s])


def main() -> None:
    random.seed(20261122)
    deck = [r + s for r in RANKS for s in SUITS]
    ev = Evaluator()
    hands = []
    for n in [5] * 400 + [6] * 300 + [7] * 800:
        cards = random.sample(deck, n)
        board, hand = cards[:n - 2], cards[n - 2:]
        rank = ev.evaluate([Card.new(c) for c in board], [Card.new(c) for c in hand])
        hands.append({"labels": [label(c) for c in cards], "treysRank": rank,
                      "treysClass": ev.class_to_string(ev.get_rank_class(rank))})
    # One hand per line keeps the fixture small and diffable.
    lines = ",\n".join(json.dumps(h) for h in hands)
    print('{"generator": "treys==0.1.8 Evaluator.evaluate", "hands": [\n' + lines + "\n]}")


if __name__ == "__main__":
    main()
