"""A terminal picture of a view of The 3 Commandments: the Holy Circle with the artefacts in each
area, the High Priestess's three slots (type, taboo or commandment, markers), the destiny cards, the
karma pad and the last moves, plus a reminder of the move notation. Plain text (no Rich markup, so
square brackets never need escaping)."""

from __future__ import annotations

from coven.core import Event
from coven.games.commandments.board import AREA_NAMES, ARTEFACT_NAMES, NUM_AREAS, PATH_NAMES
from coven.games.commandments.cards import deck_for
from coven.games.commandments.lang import GESTURES, TOUCHES
from coven.games.commandments.notation import BUDGET, MoveLog, format_action
from coven.games.commandments.rules import DESTINY_CARDS
from coven.games.commandments.view import CommandmentsView

_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII")


def _pieces(board: tuple[int, ...], area: int) -> str:
    names = [ARTEFACT_NAMES[a] for a, where in enumerate(board) if where == area]
    return " ".join(names) if names else "."


def _verdict(log: MoveLog) -> str:
    if log.move is None:
        return "forfeit (+2 to every other novice; a destiny card flips)"
    if log.total > 0:
        return f"{log.total} karma"
    return "no karma" if log.total == 0 else "bad karma"


def render(view: CommandmentsView) -> str:
    deck = deck_for(str(view.options["custom_cards"]))
    lines: list[str] = []
    players = view.players
    if not view.rituals:
        return "The 3 Commandments: no ritual yet"
    rv = view.rituals[-1]
    who = "you" if view.seat == rv.priestess else f"seat {rv.priestess}"
    title = f"The 3 Commandments - ritual {len(view.rituals)} of {players}, High Priestess: {who}"
    lines.append(title)
    destiny = "".join("X" if i < view.flips else "o" for i in range(DESTINY_CARDS))
    lines.append(f"Destiny cards: {destiny}  ({view.flips} of {DESTINY_CARDS} negative; the 4th disempowers)")
    lines.append("")

    # the Holy Circle
    board = view.board
    if board:
        lines.append("The Holy Circle")
        lines.append(f"  centre     C  : {_pieces(board, 0)}")
        for i in range(5):
            hexa = f"H{i + 1}"
            tri = f"T{i + 1}"
            h = _pieces(board, 1 + i)
            t = _pieces(board, 6 + i)
            lines.append(f"  hexagon    {hexa:<3}: {h:<24} triangle {tri:<3}: {t}")
        lines.append(f"  outer ring R  : {_pieces(board, NUM_AREAS - 1)}")
        lines.append("  (H_i touches C, H_i-1, H_i+1, T_i-1, T_i, R; T_i touches H_i, H_i+1, R)")
    else:
        lines.append("The Holy Circle: the High Priestess has not placed the artefacts yet")
    lines.append("")

    # cards of the rituals already over, as far as this seat knows them
    for number, past in enumerate(view.rituals[:-1]):
        known = [s.card for s in past.slots if s.card]
        if known:
            lines.append(
                f"Ritual {_ROMAN[number]} (seat {past.priestess}): taboo {known[0]}, "
                f"commandments {', '.join(known[1:])}"
            )
    # the slots
    if rv.hand:
        hand = ", ".join(
            f"{c} ({deck.cards[deck.index[c]].value_text}) {deck.cards[deck.index[c]].en}" for c in rv.hand
        )
        lines.append(f"Your hand: {hand}")
        if rv.discard:
            lines.append(f"Discarded unseen: {rv.discard}")
    if rv.slots:
        last = next((m for m in reversed(rv.moves) if m.move is not None), None)
        lines.append("The High Priestess's cards (left of the Holy Border the taboo):")
        for i, slot in enumerate(rv.slots):
            back = "red / artefact" if slot.type == "artefact" else "green / action"
            text = "?"
            if slot.card:
                card = deck.cards[deck.index[slot.card]]
                text = f"{card.id} ({card.value_text}) {card.en}"
            mark = ""
            if last is not None and last.marks:
                mark = "  <- marked on the last move" if last.marks[i] else ""
            lines.append(f"  {slot.role:<11} {back:<15} {text}{mark}")
    elif view.phase == "ordain":
        lines.append("The High Priestess is choosing her taboo and commandments.")
    lines.append("")

    # the karma pad
    lines.append("Karma pad")
    lines.append(
        "        "
        + "".join(f"{'seat ' + str(s) + ('*' if s == view.seat else ''):>9}" for s in range(players))
    )
    for number, ritual in enumerate(view.rituals):
        cells = []
        for s in range(players):
            if s == ritual.priestess:
                cells.append(f"{'HP ' + str(ritual.gains[s]) if ritual.ended else 'HP':>9}")
            else:
                cells.append(f"{ritual.gains[s]:>9}")
        note = " disempowered" if ritual.disempowered else ""
        lines.append(f"  {_ROMAN[number]:<5} " + "".join(cells) + note)
    lines.append("  total " + "".join(f"{k:>9}" for k in view.karma))
    lines.append("")

    # the last moves
    if rv.moves:
        lines.append("Moves of this ritual")
        for log in rv.moves[-8:]:
            if log.move is None:
                lines.append(f"  seat {log.seat}: forfeit")
                continue
            marks = "" if not log.marks else "  marks " + "".join("*" if m else "." for m in log.marks)
            lines.append(
                f"  seat {log.seat}: from {AREA_NAMES[log.start]} {format_action(log.move)}"
                f" -> {_verdict(log)}{marks}"
            )
        lines.append("")
    if view.pending is not None:
        lines.append(
            f"Waiting for the High Priestess to judge: from {PATH_NAMES[view.pending_start]} "
            f"{format_action(view.pending)}"
        )
    if view.phase == "over":
        best = max(view.karma)
        winners = [str(s) for s, k in enumerate(view.karma) if k == best]
        lines.append(f"Game over. Winner(s): seat {', '.join(winners)} with {best} karma.")
    elif view.seat is not None and view.seat == view.to_move:
        lines.append(_help(view.phase))
    elif view.to_move >= 0:
        lines.append(f"Waiting for seat {view.to_move} ({view.phase}).")
    return "\n".join(lines)


def _help(phase: str) -> str:
    if phase == "ordain":
        return "Your turn: ordain discard=CARD taboo=CARD   (the other two become your commandments)"
    if phase == "place":
        return "Your turn: place wh=A,A,A,A,A bk=A,A,A,A,A br=A,A,A,A,A   (areas C H1-H5 T1-T5 R)"
    if phase == "judge":
        return (
            "Your turn: judge yes,no   (for each of your action cards, in slot order: did the move match it?)"
        )
    return (
        'Your move: ARTEFACT>AREA, e.g.  bk3>C  or  wh1>R>X>H2 +dance @hp "may I?"\n'
        "  path: areas carried over between, X = out of the circle;  'forfeit' gives up the move\n"
        f"  +gesture: {' '.join(GESTURES)}\n"
        f"  @touch:   {' '.join(TOUCHES)}\n"
        '  "words": anything you say (English or French)\n'
        f"  cost: 2 beats a gesture or touch, 1 a word or an area carried over; at most {BUDGET}"
    )


# ------------------------------------------------------------------------------------------- events
def _who(seat: object, viewer: int | None) -> str:
    return "you" if seat == viewer else f"seat {seat}"


def _does(seat: object, viewer: int | None, you: str, other: str) -> str:
    """``you forfeit`` / ``seat 2 forfeits``."""
    return f"you {you}" if seat == viewer else f"seat {seat} {other}"


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def describe_event(event: Event, viewer: int | None) -> str:
    """One event in words for ``viewer`` (plain text). Events carry only what their audience may know:
    the novices learn that the cards were ordained, never which ones."""
    d = event.data
    kind = event.kind
    if kind == "ritual":
        return (
            f"ritual {d.get('number')}: {_does(d.get('priestess'), viewer, 'are', 'is')} the High Priestess"
        )
    if kind == "hand":
        return "your cards: " + ", ".join(str(c) for c in _list(d.get("cards")))
    if kind == "ordained":
        slots = [str(s) for s in _list(d.get("slots"))]
        cards = f"taboo ({slots[0]}), commandments ({', '.join(slots[1:])})" if slots else "the cards"
        return f"{_who(d.get('priestess'), viewer)} ordained {cards}"
    if kind == "discarded":
        return f"you discarded {d.get('card')} unseen"
    if kind == "placed":
        return f"the artefacts are placed: {d.get('action')}"
    if kind == "move":
        return f"{_who(d.get('seat'), viewer)}: from {d.get('start')} {d.get('action')}"
    if kind == "karma":
        total = d.get("total")
        verdict = f"{total} karma" if isinstance(total, int) and total > 0 else str(d.get("verdict"))
        marks = _list(d.get("marks"))
        shown = "  marks " + "".join("*" if m else "." for m in marks) if marks else ""
        return (
            f"{_who(d.get('seat'), viewer)} -> {verdict}{shown}  (destiny {d.get('flips')}/{DESTINY_CARDS})"
        )
    if kind == "forfeit":
        return (
            f"{_does(d.get('seat'), viewer, 'forfeit', 'forfeits')} the move: "
            f"+{d.get('bonus')} karma to every other novice (destiny {d.get('flips')}/{DESTINY_CARDS})"
        )
    if kind == "disempowered":
        who = _does(d.get("priestess"), viewer, "are", "is")
        return f"{who} disempowered: +{d.get('bonus')} karma to every novice"
    if kind == "ritual_end":
        return f"the ritual ends: {_does(d.get('priestess'), viewer, 'gain', 'gains')} {d.get('gain')} karma"
    if kind == "revealed":
        ids = [str(c) for c in _list(d.get("cards"))]
        if not ids:
            return "the cards are revealed"
        return f"the cards were: taboo {ids[0]}, commandments {', '.join(ids[1:])}"
    if kind == "game_over":
        return "game over; karma " + ", ".join(str(k) for k in _list(d.get("karma")))
    details = " ".join(f"{key}={value}" for key, value in d.items())
    return f"{kind} {details}".strip()
