"""A terminal picture of a view (Rich markup): witch column with score cards, trick, piles, hand."""

from __future__ import annotations

from coven.core import Event
from coven.games.brujas.cards import COLOUR, COLOUR_NAMES, COLOURS, KIND, NUMBER, add
from coven.games.brujas.state import devil_scores, witch_colours, witch_scores
from coven.games.brujas.view import BrujasView

STYLE = {"R": "bold red", "B": "bold blue", "Y": "bold yellow", "G": "bold green"}


def card(name: str) -> str:
    """One card in colour; ``?`` (a face-down card you cannot see) in grey."""
    if name == "?":
        return "[dim]??[/dim]"
    style = STYLE.get(name[:1])
    return f"[{style}]{name}[/{style}]" if style else name


def cards(names: tuple[str, ...] | list[str]) -> str:
    return " ".join(card(n) for n in names) if names else "[dim]-[/dim]"


def seat_name(view: BrujasView, seat: int) -> str:
    return "you" if seat == view.seat else f"seat {seat}"


def standings(view: BrujasView) -> list[int]:
    """Scores if the game ended now (final once it is over)."""
    piles = [0] * view.players
    for s, pile in enumerate(view.piles):
        for name in pile:
            piles[s] = add(piles[s], KIND[name])
    if not any(piles):
        return [0] * view.players
    rank = [view.witches.index(c) for c in COLOURS]
    conflict = bool(view.options.get("conflict", False))
    w = witch_scores(piles, rank, view.score_values, conflict)
    d = devil_scores(piles)
    return [a + b for a, b in zip(w, d, strict=True)]


def render(view: BrujasView) -> str:
    lines: list[str] = []
    variants = [
        name
        for key, name in (("conflict", "Devils in Conflict"), ("silent", "Witches refrain from speaking"))
        if view.options.get(key)
    ]
    title = f"[bold]Brujas del Sábado[/bold] - {view.players} players"
    if variants:
        title += " - " + ", ".join(variants)
    lines.append(title)
    lines.append("")

    # Witch column beside the score cards.
    lines.append("[bold]Witch column[/bold]")
    for value, colour in zip(view.score_values, view.witches, strict=True):
        style = STYLE[colour]
        lines.append(f"  {value:>2}  [{style}]{COLOUR_NAMES[COLOURS.index(colour)]} witch[/{style}]")
    lines.append("")

    # The trick.
    if view.phase == "over":
        lines.append("[bold]The game is over.[/bold]")
    else:
        lead = {"colour": "Lead: colour", "number": "Lead: number"}.get(view.lead, "Lead: not set yet")
        if view.trick:
            first = view.trick[0]
            if view.lead == "colour":
                lead += f" ({COLOUR_NAMES[COLOUR[KIND[first]]]})"
            elif view.lead == "number":
                lead += f" ({NUMBER[KIND[first]]})"
        lines.append(f"[bold]Trick[/bold] (led by {seat_name(view, view.leader)}) - {lead}")
        if not view.trick:
            lines.append("  [dim]no card yet[/dim]")
        for i, name in enumerate(view.trick):
            seat = (view.leader + i) % view.players
            note = " [dim](face down)[/dim]" if view.face_down[i] else ""
            mark = " [bold]<- wins[/bold]" if view.winner is not None and seat == view.winner else ""
            lines.append(f"  {seat_name(view, seat):>7}: {card(name)}{note}{mark}")
        if view.phase == "take" and view.to_act == view.seat:
            left = list(view.trick)
            for name in view.taken:
                left.remove(name)
            lines.append(f"  witch moved {view.moved}; cards left to pick: {cards(left)}")
    lines.append("")

    # Piles.
    scores = standings(view)
    colours = witch_colours([_pile_bits(p) for p in view.piles], [view.witches.index(c) for c in COLOURS])
    lines.append("[bold]Score piles[/bold] (score if the game ended now)")
    for seat, pile in enumerate(view.piles):
        ordered = sorted(pile, key=lambda n: (NUMBER[KIND[n]], COLOUR[KIND[n]]))
        size = view.hand_sizes[seat]
        witch = COLOURS[colours[seat]] if pile else "-"
        lines.append(
            f"  {seat_name(view, seat):>7}: {cards(ordered)}  [dim]| hand {size}, witch {witch},[/dim] "
            f"[bold]{scores[seat]}[/bold]"
        )
    lines.append("")

    # Your hand and whose turn it is.
    if view.seat is not None:
        lines.append(f"[bold]Your hand[/bold]: {cards(list(view.hand))}")
    if view.to_act is not None:
        task = {"play": "play a card", "witch": "move the witch (up / down)", "take": "pick a card"}
        if view.phase == "take" and view.to_act == view.seat:
            left = list(view.trick)
            for name in view.taken:
                left.remove(name)
            # the example names a card really left in the trick (it once said xR3 whatever the trick held)
            if left:
                task["take"] = f"pick a card of the trick (x + the card, e.g. x{left[0]})"
        who = "You" if view.to_act == view.seat else f"Seat {view.to_act}"
        verb = "must" if view.to_act == view.seat else "is to"
        lines.append(f"{who} {verb} {task[view.phase]}.")
    else:
        best = max(scores)
        winners = ", ".join(seat_name(view, s) for s, v in enumerate(scores) if v == best)
        lines.append(f"Winner: {winners} with {best} points.")
    return "\n".join(lines)


def _pile_bits(pile: tuple[str, ...]) -> int:
    bits = 0
    for name in pile:
        bits = add(bits, KIND[name])
    return bits


# ------------------------------------------------------------------------------------------- events
def _does(seat: object, viewer: int | None, you: str, other: str) -> str:
    """``you play`` / ``seat 2 plays``."""
    return f"you {you}" if seat == viewer else f"seat {seat} {other}"


def _names(value: object) -> str:
    return " ".join(str(v) for v in value) if isinstance(value, list) else str(value)


def describe_event(event: Event, viewer: int | None) -> str:
    """One event in words for ``viewer`` (plain text): a card laid face down is "a card face down" to
    everyone but its player, as the event says."""
    d = event.data
    kind = event.kind
    seat = d.get("seat")
    if kind == "play":
        if d.get("face_down"):
            return f"{_does(seat, viewer, 'lay', 'lays')} a card face down"
        return f"{_does(seat, viewer, 'play', 'plays')} {d.get('card')}"
    if kind == "face_down":
        return f"you laid {d.get('card')} face down"
    if kind == "trick":
        lead = d.get("lead")
        how = f"Lead: {lead}" if lead else "no Lead"
        return f"{_does(d.get('winner'), viewer, 'win', 'wins')} the trick with {d.get('card')} ({how})"
    if kind == "witch":
        colour = d.get("colour")
        name = (
            COLOUR_NAMES[COLOURS.index(colour)] if isinstance(colour, str) and colour in COLOURS else colour
        )
        return f"{_does(seat, viewer, 'move', 'moves')} the {name} witch {d.get('direction')}"
    if kind == "reveal":
        return f"the face-down cards are turned up: the trick was {_names(d.get('cards'))}"
    if kind == "take":
        return f"{_does(seat, viewer, 'take', 'takes')} {d.get('card')}"
    if kind == "game_over":
        return f"game over; scores {_names(d.get('scores'))}"
    details = " ".join(f"{key}={value}" for key, value in d.items())
    return f"{kind} {details}".strip()
