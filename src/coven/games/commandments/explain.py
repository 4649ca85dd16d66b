"""Explained results of The 3 Commandments, from a view alone: karma ritual by ritual.

For a novice in a ritual: the karma its own moves earned (totals are announced to everyone), 2 karma
for each other novice's forfeit, 20 when the High Priestess was disempowered. For the High Priestess:
the karma of the best novice of her ritual, or nothing when disempowered. The three cards of a ritual
are named where the view knows them (revealed at its end, unless the table keeps them secret; her own
always to the priestess herself).

Steps come from the moments: the ``karma``, ``forfeit``, ``disempowered`` and ``ritual_end`` events,
assigned to rituals by the ``ritual`` event that opens each (the first ritual opens before any step).
"""

from __future__ import annotations

from collections.abc import Sequence

from coven.core.explain import (
    Explanation,
    ExplanationLine,
    Moment,
    SeatExplanation,
    default_summary,
    plural,
    seat_explanation,
    seat_ref,
)
from coven.games.commandments.rules import DISEMPOWER_BONUS, FORFEIT_BONUS, novice_order
from coven.games.commandments.view import CommandmentsView, RitualView

_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII")


def _ritual_steps(moments: Sequence[Moment]) -> list[dict[str, list[tuple[int, int]]]]:
    """Per ritual (index), per event kind, (step, seat) pairs."""
    out: list[dict[str, list[tuple[int, int]]]] = [{}]
    for step, event in moments:
        d = event.data
        if event.kind == "ritual":
            number = d.get("number")
            if isinstance(number, int) and number >= 1:
                while len(out) < number:
                    out.append({})
            continue
        seat = d.get("seat", d.get("priestess"))
        if isinstance(seat, int):
            out[-1].setdefault(event.kind, []).append((step, seat))
    return out


def _cards_text(view: CommandmentsView, ritual: RitualView) -> str:
    texts = {c.id: c for c in view.cards}
    known = [slot for slot in ritual.slots if slot.card]
    if not known:
        return ""
    parts = []
    for slot in known:
        card = texts.get(slot.card)
        words = f"{slot.card} “{card.en}” ({card.value})" if card else slot.card
        parts.append(f"{slot.role} {words}")
    return "; ".join(parts)


def explain(view: CommandmentsView, moments: Sequence[Moment] = ()) -> Explanation:
    n = view.players
    by_ritual = _ritual_steps(moments)
    seat_lines: list[list[ExplanationLine]] = [[] for _ in range(n)]
    seat_notes: list[list[str]] = [[] for _ in range(n)]
    notes: list[str] = []
    for r, ritual in enumerate(view.rituals):
        steps = by_ritual[r] if r < len(by_ritual) else {}
        p = ritual.priestess
        name = f"Ritual {_ROMAN[r] if r < len(_ROMAN) else r + 1}"
        cards = _cards_text(view, ritual)
        if ritual.ended:
            if cards:
                notes.append(f"{name} ({seat_ref(p)} High Priestess): {cards}")
            elif view.options.get("reveal") == "never":
                notes.append(f"{name} ({seat_ref(p)} High Priestess): her cards are never revealed")
        karma_steps = [st for st, s in steps.get("karma", [])]
        forfeits = [m for m in ritual.moves if m.move is None]
        forfeit_steps = steps.get("forfeit", [])
        for s in novice_order(n, p):
            own = [m for m in ritual.moves if m.seat == s and m.move is not None]
            earned = [m.total for m in own if m.total > 0]
            # The karma events of this ritual in order match its non-forfeit moves in order.
            judged = [m for m in ritual.moves if m.move is not None]
            earned_steps = tuple(
                karma_steps[i]
                for i, m in enumerate(judged)
                if i < len(karma_steps) and m.seat == s and m.total > 0
            )
            if own:
                if earned:
                    how = " + ".join(str(t) for t in earned)
                    label = f"{name}: {len(earned)} of {plural(len(own), 'move')} earned karma ({how})"
                else:
                    label = f"{name}: none of {plural(len(own), 'move')} earned karma"
                seat_lines[s].append(ExplanationLine(label, float(sum(earned)), earned_steps))
            others = [m for m in forfeits if m.seat != s]
            if others:
                who = ", ".join(seat_ref(m.seat) for m in others)
                seat_lines[s].append(
                    ExplanationLine(
                        f"{name}: {FORFEIT_BONUS} karma for each forfeit of another novice ({who})",
                        float(FORFEIT_BONUS * len(others)),
                        tuple(st for st, who_ in forfeit_steps if who_ != s),
                    )
                )
            mine = [m for m in forfeits if m.seat == s]
            if mine:
                seat_notes[s].append(f"{name}: forfeited {plural(len(mine), 'time')} (no karma for it)")
            if ritual.disempowered:
                seat_lines[s].append(
                    ExplanationLine(
                        f"{name}: the High Priestess {seat_ref(p)} was disempowered: {DISEMPOWER_BONUS} "
                        "karma to every novice",
                        float(DISEMPOWER_BONUS),
                        tuple(st for st, _ in steps.get("disempowered", [])),
                    )
                )
        if ritual.disempowered:
            seat_lines[p].append(
                ExplanationLine(
                    f"{name} as High Priestess: disempowered (four negative destiny cards), nothing",
                    0.0,
                    tuple(st for st, _ in steps.get("disempowered", [])),
                )
            )
        elif ritual.ended:
            gains = ritual.gains
            novices = novice_order(n, p)
            best = max(gains[s] for s in novices)
            who = ", ".join(seat_ref(s) for s in novices if gains[s] == best)
            seat_lines[p].append(
                ExplanationLine(
                    f"{name} as High Priestess: the karma of the best novice of her ritual ({who})",
                    float(gains[p]),
                    tuple(st for st, _ in steps.get("ritual_end", [])),
                )
            )
    seats: list[SeatExplanation] = [seat_explanation(s, seat_lines[s], seat_notes[s]) for s in range(n)]
    best_score = max(x.score for x in seats)
    winners = tuple(x.seat for x in seats if x.score == best_score)
    return Explanation(
        "commandments", view.seat, tuple(seats), winners, default_summary(seats, winners), tuple(notes)
    )
