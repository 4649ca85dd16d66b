"""Explained results of The 3 Commandments, from a view alone: karma ritual by ritual.

For a novice in a ritual: the karma its own moves earned (totals are announced to everyone), 2 karma
for each other novice's forfeit, 20 when the High Priestess was disempowered. For the High Priestess:
the karma of the best novice of her ritual, or nothing when disempowered. The three cards of a ritual
are named where the view knows them (revealed at its end, unless the table keeps them secret; her own
always to the priestess herself).

Steps come from the moments: the ``karma``, ``forfeit``, ``disempowered`` and ``ritual_end`` events,
assigned to rituals by the ``ritual`` event that opens each (the first ritual opens before any step).
Every text is a message of :data:`TEXTS` (translated by the front ends, see :mod:`coven.core.explain`); a
card's own words come in the page's language (a parameter in each language).
"""

from __future__ import annotations

from collections.abc import Sequence

from coven.core.explain import (
    CORE,
    Explanation,
    ExplanationLine,
    Message,
    Moment,
    SeatExplanation,
    Texts,
    default_summary,
    seat_explanation,
    seat_list,
    seat_ref,
)
from coven.games.commandments.rules import DISEMPOWER_BONUS, FORFEIT_BONUS, novice_order
from coven.games.commandments.view import CommandmentsView, RitualView

_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII")

TEXTS = CORE | Texts(
    {
        "why.commandments.ritual": "Ritual {number}",
        "why.commandments.cards": "{ritual} ({priestess} High Priestess): {cards}",
        "why.commandments.secret": "{ritual} ({priestess} High Priestess): her cards are never revealed",
        "why.commandments.taboo": "taboo",
        "why.commandments.commandment": "commandment",
        "why.commandments.slot": "{role} {card}",
        "why.commandments.slot_words": "{role} {card} “{words}” ({value})",
        "why.commandments.then": "{first}; {next}",
        "why.commandments.moves.one": "{n} move",
        "why.commandments.moves.other": "{n} moves",
        "why.commandments.times.one": "{n} time",
        "why.commandments.times.other": "{n} times",
        "why.commandments.earned": "{ritual}: {k} of {moves} earned karma ({how})",
        "why.commandments.earned.short": "{ritual}",
        "why.commandments.none_earned": "{ritual}: none of {moves} earned karma",
        "why.commandments.forfeits": "{ritual}: {bonus} karma for each forfeit of another novice ({who})",
        "why.commandments.forfeits.short": "{ritual}",
        "why.commandments.forfeited": "{ritual}: forfeited {times} (no karma for it)",
        "why.commandments.disempowered": (
            "{ritual}: the High Priestess {priestess} was disempowered: {bonus} karma to every novice"
        ),
        "why.commandments.disempowered.short": "{ritual}",
        "why.commandments.priestess_disempowered": (
            "{ritual} as High Priestess: disempowered (four negative destiny cards), nothing"
        ),
        "why.commandments.priestess": (
            "{ritual} as High Priestess: the karma of the best novice of her ritual ({who})"
        ),
        "why.commandments.priestess.short": "{ritual} as High Priestess",
    }
)


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


def _cards_text(view: CommandmentsView, ritual: RitualView) -> Message | None:
    texts = {c.id: c for c in view.cards}
    known = [slot for slot in ritual.slots if slot.card]
    if not known:
        return None
    parts: list[Message] = []
    for slot in known:
        card = texts.get(slot.card)
        role = TEXTS(f"why.commandments.{slot.role}")
        if card:
            words = {"en": card.en, "fr": card.fr}
            parts.append(
                TEXTS("why.commandments.slot_words", role=role, card=slot.card, words=words, value=card.value)
            )
        else:
            parts.append(TEXTS("why.commandments.slot", role=role, card=slot.card))
    out = parts[0]
    for part in parts[1:]:
        out = TEXTS("why.commandments.then", first=out, next=part)
    return out


def explain(view: CommandmentsView, moments: Sequence[Moment] = ()) -> Explanation:
    n = view.players
    by_ritual = _ritual_steps(moments)
    seat_lines: list[list[ExplanationLine]] = [[] for _ in range(n)]
    seat_notes: list[list[str]] = [[] for _ in range(n)]
    notes: list[str] = []
    for r, ritual in enumerate(view.rituals):
        steps = by_ritual[r] if r < len(by_ritual) else {}
        p = ritual.priestess
        name = TEXTS("why.commandments.ritual", number=_ROMAN[r] if r < len(_ROMAN) else r + 1)
        cards = _cards_text(view, ritual)
        if ritual.ended:
            if cards:
                notes.append(TEXTS("why.commandments.cards", ritual=name, priestess=seat_ref(p), cards=cards))
            elif view.options.get("reveal") == "never":
                notes.append(TEXTS("why.commandments.secret", ritual=name, priestess=seat_ref(p)))
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
                moves = TEXTS("why.commandments.moves", n=len(own))
                if earned:
                    how = " + ".join(str(t) for t in earned)
                    label = TEXTS("why.commandments.earned", ritual=name, k=len(earned), moves=moves, how=how)
                else:
                    label = TEXTS("why.commandments.none_earned", ritual=name, moves=moves)
                seat_lines[s].append(ExplanationLine.of(label, float(sum(earned)), earned_steps))
            others = [m for m in forfeits if m.seat != s]
            if others:
                # each novice who forfeited named once, by her first forfeit (the points count them all)
                who = seat_list(list(dict.fromkeys(m.seat for m in others)))
                seat_lines[s].append(
                    ExplanationLine.of(
                        TEXTS("why.commandments.forfeits", ritual=name, bonus=FORFEIT_BONUS, who=who),
                        float(FORFEIT_BONUS * len(others)),
                        tuple(st for st, who_ in forfeit_steps if who_ != s),
                    )
                )
            mine = [m for m in forfeits if m.seat == s]
            if mine:
                times = TEXTS("why.commandments.times", n=len(mine))
                seat_notes[s].append(TEXTS("why.commandments.forfeited", ritual=name, times=times))
            if ritual.disempowered:
                seat_lines[s].append(
                    ExplanationLine.of(
                        TEXTS(
                            "why.commandments.disempowered",
                            ritual=name,
                            priestess=seat_ref(p),
                            bonus=DISEMPOWER_BONUS,
                        ),
                        float(DISEMPOWER_BONUS),
                        tuple(st for st, _ in steps.get("disempowered", [])),
                    )
                )
        if ritual.disempowered:
            seat_lines[p].append(
                ExplanationLine.of(
                    TEXTS("why.commandments.priestess_disempowered", ritual=name),
                    0.0,
                    tuple(st for st, _ in steps.get("disempowered", [])),
                )
            )
        elif ritual.ended:
            gains = ritual.gains
            novices = novice_order(n, p)
            best = max(gains[s] for s in novices)
            who = seat_list([s for s in novices if gains[s] == best])
            seat_lines[p].append(
                ExplanationLine.of(
                    TEXTS("why.commandments.priestess", ritual=name, who=who),
                    float(gains[p]),
                    tuple(st for st, _ in steps.get("ritual_end", [])),
                )
            )
    seats: list[SeatExplanation] = [seat_explanation(s, seat_lines[s], seat_notes[s]) for s in range(n)]
    best_score = max(x.score for x in seats)
    winners = tuple(x.seat for x in seats if x.score == best_score)
    return Explanation(
        "commandments",
        view.seat,
        tuple(seats),
        winners,
        default_summary(seats, winners, texts=TEXTS),
        tuple(notes),
    )
