"""Refusals say why in words of no language (coven.core.refusals): every refusal any game can give is in
both of the page's catalogues (its English text the engine's own), every refusal met in random play is
one of its game's declared messages and reads in French, and real refused moves, options and cards carry
the right key and params."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import pytest

from coven.core import (
    Driver,
    GameError,
    GameOverError,
    IllegalActionError,
    InvalidOptionError,
    NotationError,
    NotYourTurnError,
)
from coven.core.refusals import CORE, PREFIX, keys
from coven.core.texts import Message, render, translate
from coven.games import REGISTRY
from coven.games.amulets import Ask, Cast
from coven.games.brujas import MoveWitch, Play, Take
from coven.games.commandments.cards import parse_custom_cards
from coven.games.commandments.lang import CardError, compile_card_expr
from coven.games.commandments.notation import Judge, Move, Place
from coven.games.namaste.notation import Karma, Pass, Roll, Write
from coven.server.tables import REFUSALS as TABLE_REFUSALS

WEB_I18N = Path(__file__).resolve().parents[2] / "src" / "coven" / "web" / "i18n"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
ENGINE_SCOPES = ("refusal.core.", "refusal.option.", "refusal.players.")
WORDED = {"refusal.commandments.cards.not_json", "refusal.commandments.cards.long_number"}
"""Refusals whose English text is the JSON reader's own (Texts.worded), not their template's."""


def catalogue(lang: str) -> dict[str, str]:
    data = json.loads((WEB_I18N / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


EN, FR = catalogue("en"), catalogue("fr")


def declared() -> dict[str, str]:
    """Every refusal the engine and the server can give: each registered game's, and the new table's."""
    templates: dict[str, str] = {}
    for game_id in REGISTRY.ids():
        templates.update(REGISTRY.get(game_id).refusals.templates)
    templates.update(TABLE_REFUSALS.templates)
    return templates


def french(message: str) -> str:
    """``message`` as the French page says it (the catalogue's texts, by the same rules)."""
    said = translate(message, FR, "fr")
    assert said != str(message), f"no French for {message!r}"
    return said


def reason_of(exc: BaseException) -> Message:
    reason = getattr(exc, "reason", None)
    assert isinstance(reason, Message), f"{exc!r} says why in English only"
    assert str(reason) == str(exc)
    return reason


def flat(message: Message) -> dict[str, Any]:
    """A message as the server sends it: ``{key, params}``, nested messages the same."""
    said: dict[str, Any] = json.loads(json.dumps(message.key_json()))
    return said


# ------------------------------------------------------------------------------------- catalogues
def test_every_refusal_is_in_both_catalogues_with_the_engine_s_english() -> None:
    templates = declared()
    assert len(templates) > 100
    for key, english in templates.items():
        assert key.startswith(PREFIX), key
        assert EN.get(key) == english, key
        assert key in FR and FR[key] != english, key
        assert set(PLACEHOLDER.findall(FR[key])) == set(PLACEHOLDER.findall(english)), key
    # no refusal in the catalogues that nothing sends any more
    assert (
        {k for k in EN if k.startswith(PREFIX)} == {k for k in FR if k.startswith(PREFIX)} == set(templates)
    )


def test_each_game_declares_the_engine_s_refusals_and_its_own_under_its_name() -> None:
    for game_id in REGISTRY.ids():
        refusals = REGISTRY.get(game_id).refusals.templates
        assert set(CORE.templates) <= set(refusals), game_id
        own = [k for k in refusals if not k.startswith(ENGINE_SCOPES)]
        assert own, game_id
        assert all(k.startswith(f"refusal.{game_id}.") for k in own), game_id


# ------------------------------------------------------------------------ refusals met in play
def check_refusal(game: Any, message: object) -> Message:
    """A refusal the rules gave: one of the game's declared messages (nested ones too), sendable as JSON,
    and said in French whole (no key the catalogue lacks, no placeholder left, not the English)."""
    assert isinstance(message, Message), f"{game.spec.id}: {message!r} has no key"
    assert keys(message) <= set(game.refusals.templates), message.key
    assert json.loads(json.dumps(message.key_json()))["key"] == message.key
    if message.key not in WORDED:
        assert render(message.key, message.params, EN, "en") == str(message)
    said = french(message)
    assert "{" not in said, said
    return message


# Actions of each game that no state takes (a card of no deck, two amulets on one field, ...).
ODD: dict[str, list[Hashable]] = {
    "brujas": [Play("Z9"), Take("R6"), MoveWitch("sideways")],
    "namaste": [Roll(4), Write(99, 3), Write(2, 40), Karma(), Pass()],
    "amulets": [Ask((0, 0, 1, 2, 3)), Ask((0, 1, 2)), Cast((0, 1, 2, 3, 25))],
    "commandments": [
        Move(5, 0, gestures=("moonwalk",)),
        Move(5, 0, path=(11, 11)),
        Move(5, 12),
        Move(2, 3, gestures=("stand", "dance", "sing", "bow", "clap")),
        Place((0,) * 14),
        Judge((2,)),
    ],
}


def probes(game: Any, state: Any, seen: list[Hashable], rng: random.Random) -> list[Hashable]:
    """Actions to try: some legal for somebody now, some that were legal earlier (mostly illegal now),
    and a few that are never legal."""
    found: list[Hashable] = []
    for seat in range(game.num_players(state)):
        legal = game.legal_actions(state, seat)
        found.extend(legal[rng.randrange(len(legal))] for _ in range(min(len(legal), 3)))
    found.extend(rng.sample(seen, min(len(seen), 12)))
    found.extend(ODD[game.spec.id])
    return found


@pytest.mark.parametrize("game_id", ["brujas", "namaste", "amulets", "commandments"])
def test_every_refusal_met_in_random_play_is_declared_and_reads_in_french(game_id: str) -> None:
    game: Any = REGISTRY.get(game_id)
    rng = random.Random(7)
    met: set[str] = set()
    for players in game.spec.player_counts:
        state = game.new_game(players, None, seed=players)
        seen: list[Hashable] = []
        for _step in range(120):
            if game.is_over(state):
                break
            actors = sorted(game.to_act(state) | game.may_act(state))
            for seat in range(players):
                for action in probes(game, state, seen, rng):
                    if seat not in actors:
                        with pytest.raises(NotYourTurnError) as caught:
                            game.apply(game.clone(state), seat, action)
                        assert flat(reason_of(caught.value)) == {
                            "key": "refusal.core.not_your_turn",
                            "params": {"seat": seat},
                        }
                        continue
                    why = game.illegal_reason(state, seat, action)
                    if why is None:
                        continue
                    met.add(check_refusal(game, why).key)
                    with pytest.raises(IllegalActionError) as caught:
                        game.apply(game.clone(state), seat, action)
                    assert flat(reason_of(caught.value)) == flat(why)
            seat = game.first_to_act(state)
            legal = game.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))]
            seen.append(action)
            game.apply(state, seat, action)
    assert len(met) >= 3, met  # not a vacuous pass: the probes meet several kinds of refusal


# ------------------------------------------------------------------------------- moves, by game
def refused(game: Any, state: Any, seat: int, text: str) -> Message:
    """The reason ``seat``'s move ``text`` is refused with (the state unchanged)."""
    before = game.write_position(state)
    with pytest.raises(GameError) as caught:
        game.apply(state, seat, game.parse_action(text))
    assert game.write_position(state) == before
    return check_refusal(game, reason_of(caught.value))


def test_brujas_refusals_name_the_cards() -> None:
    game: Any = REGISTRY.get("brujas")
    state = game.read_position("RBYG B1B5/R2Y3G4/R4B2Y5/B3Y1G1 -/-/-/- 0 G3 play")
    why = refused(game, state, 1, "R2")
    assert flat(why) == {"key": "refusal.brujas.match_first", "params": {"first": "G3"}}
    assert french(why) == "vous devez fournir la couleur ou le nombre de la première carte, G3"
    why = refused(game, state, 1, "B3")
    assert flat(why) == {"key": "refusal.brujas.not_in_hand", "params": {"card": "B3"}}
    assert french(why) == "vous n'avez pas de B3 en main"
    why = refused(game, state, 1, "xG3")
    assert flat(why) == {
        "key": "refusal.brujas.no_take_now",
        "params": {"task": {"key": "refusal.brujas.task.play", "params": {}}},
    }
    assert str(why) == "no card is picked now: it is time to play a card"
    assert french(why) == "aucune carte ne se prend maintenant : c'est le moment de jouer une carte"
    lead = game.read_position("RBYG R3B2/R1R5/B1Y4G5/B3B4Y2 -/-/-/- 0 G3G4 play")
    why = refused(game, lead, 2, "Y4")
    assert flat(why) == {"key": "refusal.brujas.follow_colour", "params": {"first": "G3"}}
    assert french(why) == "vous devez suivre le meneur (la couleur de G3)"
    # the core's own: not this seat's turn
    with pytest.raises(NotYourTurnError) as caught:
        game.apply(lead, 0, game.parse_action("B2"))
    assert flat(reason_of(caught.value)) == {"key": "refusal.core.not_your_turn", "params": {"seat": 0}}


MAGDALENA = ". / . . . / . 8 . . . / . . . . 12 . . / . . 14 . . / . . . / ."
EMPTY = ". / . . . / . . . . . / . . . . . . . / . . . . . / . . . / ."


def test_namaste_refusals_name_the_circles_and_the_totals() -> None:
    game: Any = REGISTRY.get("namaste")
    state = game.position([MAGDALENA, EMPTY], dice="4 4 + 6")  # 14 for her, 8 for the other
    why = refused(game, state, 0, "14@e5")
    assert flat(why) == {
        "key": "refusal.namaste.left",
        "params": {"value": 14, "cell": "e5", "held": 14, "other": "e4", "row": "e"},
    }
    assert french(why) == (
        "14 en e5 doit être plus grand que le 14 en e4, à sa gauche (la ligne e croît de gauche à droite)"
    )
    why = refused(game, state, 1, "9@c6")
    assert flat(why) == {"key": "refusal.namaste.dice_white", "params": {"allowed": "8", "value": 9}}
    assert french(why) == "les dés donnent 8 pour vous (les dés blancs seulement), pas 9"
    # several totals (a 1/7 die): "7 or 13", nested
    wild = game.position([EMPTY, EMPTY], dice="1/7 2 + 4")
    why = refused(game, wild, 0, "5@c6")
    assert str(why) == "the dice give 7 or 13 for you (all rolled dice), not 5"
    assert flat(why)["params"]["allowed"] == {
        "key": "refusal.namaste.or",
        "params": {"first": 7, "then": "13"},
    }
    assert french(why) == "les dés donnent 7 ou 13 pour vous (tous les dés lancés), pas 5"


def test_amulets_refusals_name_the_fields_and_the_asker() -> None:
    game: Any = REGISTRY.get("amulets")
    state = game.read_position("Y@A1 R@C3 G@E5 | question_cap=2 | - | 0:0")
    why = refused(game, state, 1, "ask RA1 YA2 GB2 BD4 KE2")
    assert flat(why) == {"key": "refusal.amulets.not_asker", "params": {"seat": 0}}
    assert french(why) == (
        "seul le sorcier qui interroge (0) peut poser une question maintenant ; vous pouvez lancer le sort"
    )  # the page says the seat by its name (tests/e2e/test_french_details.py)
    why = refused(game, state, 0, "ask RA1 YA1 GB2 BD4 KE2")
    assert flat(why) == {"key": "refusal.amulets.two_on_field", "params": {"field": "A1"}}
    assert french(why) == "deux amulettes sur A1 : une amulette au plus par champ"
    game.apply(state, 0, game.parse_action("ask RA2 YB3 GC4 BD4 KE5"))
    game.apply(state, 1, game.parse_action("ask RA2 YB3 GC4 BD4 KE5"))
    why = refused(game, state, 2, "ask RA2 YB3 GC4 BD4 KE5")
    assert flat(why) == {"key": "refusal.amulets.cap_reached", "params": {"cap": 2}}
    assert french(why) == "la limite de questions (2) est atteinte : lancez le sort"


def test_commandments_refusals_name_the_cards_the_phase_and_the_cost() -> None:
    from tests.games.commandments.helpers import table

    game: Any = REGISTRY.get("commandments")
    state = table(4, ["A01", "A02", "P02", "P03"])
    why = refused(game, state, 0, "ordain discard=A05 taboo=A01")
    assert flat(why) == {
        "key": "refusal.commandments.discard_not_held",
        "params": {"card": "'A05'", "hand": "A01, A02, P02, P03"},
    }
    assert french(why) == "vous n'avez pas 'A05' en main pour la défausser (votre main : A01, A02, P02, P03)"
    why = refused(game, state, 0, "wh1>C")
    assert flat(why)["params"] == {"task": {"key": "refusal.commandments.task.ordain", "params": {}}}
    assert french(why) == (
        "ce n'est pas le moment d'un coup de novice (la Grande Prêtresse doit ordonner ses cartes)"
    )
    game.apply(state, 0, game.parse_action("ordain discard=P02 taboo=A01"))
    game.apply(state, 0, game.parse_action("place wh=R,R,R,R,R bk=T1,T1,H2,H2,H2 br=T1,T1,H3,H3,H3"))
    why = refused(game, state, 1, 'bk1>C +stand +dance +sing @hp "may I please"')
    assert flat(why) == {
        "key": "refusal.commandments.budget",
        "params": {
            "cost": 11,
            "budget": 10,
            "gestures": 3,
            "gesture_beats": 2,
            "touches": 1,
            "touch_beats": 2,
            "words": 3,
            "word_beats": 1,
            "areas": 0,
            "path_beats": 1,
        },
    }
    assert french(why).startswith(
        "cette performance coûte 11 temps, plus que les 10 permis par coup (3 geste(s)"
    )


def test_the_core_refuses_a_finished_game_and_a_passed_decision() -> None:
    game: Any = REGISTRY.get("brujas")
    state = game.new_game(3, None, seed=1)
    driver = Driver(game, state, {s: game.bots()["random"](game, s, s) for s in range(3)})
    driver.run()
    with pytest.raises(GameOverError) as caught:
        game.apply(state, 0, game.parse_action("R1"))
    assert flat(reason_of(caught.value)) == {"key": "refusal.core.game_over", "params": {}}

    class Hesitant:
        """Passes once on a required decision, then plays its first legal action."""

        def __init__(self) -> None:
            self.heard: list[BaseException] = []

        def act(self, view: object, legal: Any, required: bool) -> Hashable | None:
            return None if not self.heard else legal[0]

        def refused(self, exc: BaseException) -> None:
            self.heard.append(exc)

    hesitant = Hesitant()
    fresh = game.new_game(3, None, seed=2)
    first = game.first_to_act(fresh)
    Driver(game, fresh, {first: hesitant}).step()
    assert [flat(reason_of(e)) for e in hesitant.heard] == [{"key": "refusal.core.must_act", "params": {}}]
    assert french(reason_of(hesitant.heard[0])) == "vous devez jouer maintenant"


# --------------------------------------------------------------------------- moves that cannot be read
# A typed move that is no action, by game: its key and its English, word for word as it was before it had
# a key (and as the tests of each game's notation expect). Every notation refusal of Brujas, Amulets and
# The 3 Commandments is met here.
UNREADABLE: list[tuple[str, str, str, str]] = [
    (
        "brujas",
        "zzz",
        "refusal.brujas.notation.unknown",
        "an action is a card to play (R3), a pick (xR3) or a witch move (up, down), not 'zzz'",
    ),
    (
        "brujas",
        "R6",
        "refusal.brujas.notation.unknown",
        "an action is a card to play (R3), a pick (xR3) or a witch move (up, down), not 'R6'",
    ),
    (
        "brujas",
        "xZ9",
        "refusal.brujas.notation.card",
        "a card is a colour R, B, Y or G and a number 1-5 (e.g. R3), not 'Z9'",
    ),
    (
        "brujas",
        "xyzzy",
        "refusal.brujas.notation.unknown",
        "an action is a card to play (R3), a pick (xR3) or a witch move (up, down), not 'xyzzy'",
    ),
    (
        "brujas",
        "take Q1",
        "refusal.brujas.notation.card",
        "a card is a colour R, B, Y or G and a number 1-5 (e.g. R3), not 'Q1'",
    ),
    (
        "amulets",
        "zzz",
        "refusal.amulets.notation.unknown",
        "an action is 'ask <placement>' or 'cast <placement>', not 'zzz'",
    ),
    (
        "amulets",
        "ask A1 B2",
        "refusal.amulets.notation.placement",
        "a placement names the five amulets' fields, not 'A1 B2'",
    ),
    ("amulets", "ask A1 B2 C3 D4 F5", "refusal.amulets.notation.field", "a field is A1 to E5, not 'F5'"),
    (
        "amulets",
        "cast RA1 YB2 GC3 BD4 KZ5",
        "refusal.amulets.notation.field",
        "a field is A1 to E5, not 'Z5'",
    ),
    (
        "amulets",
        "cast RA1 YB2 GC3 BD4 QE5",
        "refusal.amulets.notation.amulet",
        "'QE5' is not an amulet (R Y G B K) and a field (A1-E5)",
    ),
    (
        "amulets",
        "cast RA1 RB2 GC3 BD4 KE5",
        "refusal.amulets.notation.twice",
        "amulet R is placed twice in 'RA1 RB2 GC3 BD4 KE5'",
    ),
    ("commandments", "   ", "refusal.commandments.notation.empty", "empty action"),
    (
        "commandments",
        "zzz",
        "refusal.commandments.notation.unknown",
        "a move is ARTEFACT>AREA (e.g. bk3>C), or forfeit, ordain, place, judge; not 'zzz'",
    ),
    (
        "commandments",
        '"hello"',
        "refusal.commandments.notation.words_alone",
        "a move is ARTEFACT>AREA (e.g. bk3>C), or forfeit, ordain, place, judge; not free words alone",
    ),
    (
        "commandments",
        "zz1>C",
        "refusal.commandments.notation.artefact",
        "'zz1' is not an artefact (wh1-wh5, bk1-bk5, br1-br5)",
    ),
    (
        "commandments",
        "bk3>Q",
        "refusal.commandments.notation.area",
        "'Q' is not an area (C, H1-H5, T1-T5, R; X = out of the circle)",
    ),
    (
        "commandments",
        "bk3>" + ">".join(["C", "R"] * 7),
        "refusal.commandments.path_length",
        "a path passes over at most 12 areas",
    ),
    (
        "commandments",
        "bk3>C ~",
        "refusal.commandments.notation.unexpected",
        """unexpected '~': use +gesture, @touch, "free words" or a time like 12s""",
    ),
    (
        "commandments",
        "bk3>C !permission",
        "refusal.commandments.notation.saying",
        """'!permission': what you say is free text now, in double quotes (e.g. "may I?" asks for """
        "permission)",
    ),
    (
        "commandments",
        'bk3>C "a" "b"',
        "refusal.commandments.notation.words_once",
        "give the free words once, in one pair of double quotes",
    ),
    (
        "commandments",
        'bk3>C "a',
        "refusal.commandments.notation.unclosed",
        "unclosed double quote in the free words",
    ),
    (
        "commandments",
        "ordain discard=P05",
        "refusal.commandments.notation.ordain",
        "ordain takes discard=CARD taboo=CARD (e.g. ordain discard=P05 taboo=A01)",
    ),
    (
        "commandments",
        "ordain x=1 taboo=A01",
        "refusal.commandments.notation.ordain_field",
        "ordain takes discard=CARD taboo=CARD, not 'x=1'",
    ),
    (
        "commandments",
        "ordain discard=%% taboo=A01",
        "refusal.commandments.notation.card_id",
        "a card id is a letter and up to 15 letters, digits, - or _, not '%%'",
    ),
    (
        "commandments",
        "place wh=C,C,C,C,C",
        "refusal.commandments.notation.place",
        "place takes wh=.. bk=.. br=.. (five areas each, e.g. wh=C,C,H1,T2,R)",
    ),
    (
        "commandments",
        "place zz=1",
        "refusal.commandments.notation.place_group",
        "place takes wh=.. bk=.. br=.. with five areas each, not 'zz=1'",
    ),
    (
        "commandments",
        "place wh=C,C,Q,C,C bk=C,C,C,C,C br=C,C,C,C,C",
        "refusal.commandments.notation.place_area",
        "'Q' is not an area (C, H1-H5, T1-T5, R)",
    ),
    (
        "commandments",
        "place wh=C,C,C,C bk=C,C,C,C,C br=C,C,C,C,C",
        "refusal.commandments.notation.place_count",
        "wh= takes five areas, one per artefact, not 4",
    ),
    (
        "commandments",
        "judge maybe",
        "refusal.commandments.notation.judge",
        "judge takes yes or no for each of your action cards, in slot order, e.g. judge yes,no (not 'maybe')",
    ),
]


@pytest.mark.parametrize(("game_id", "text", "key", "english"), UNREADABLE, ids=lambda v: str(v)[:30])
def test_a_move_that_cannot_be_read_says_why_in_words_of_no_language(
    game_id: str, text: str, key: str, english: str
) -> None:
    game: Any = REGISTRY.get(game_id)
    with pytest.raises(NotationError) as caught:
        game.parse_action(text)
    why = check_refusal(game, reason_of(caught.value))
    assert why.key == key
    assert str(caught.value) == english
    assert "text" not in why.params or str(why.params["text"]) in french(why)  # what was typed, quoted


@pytest.mark.parametrize("game_id", ["brujas", "amulets", "commandments"])
def test_every_notation_refusal_is_met_by_a_typed_move(game_id: str) -> None:
    declared_here = {k for k in REGISTRY.get(game_id).refusals.templates if ".notation." in k}
    met = {key for game, _, key, _ in UNREADABLE if game == game_id}
    assert declared_here and declared_here <= met, declared_here - met


def test_a_move_that_cannot_be_read_is_said_in_french() -> None:
    cases = {
        ("brujas", "xZ9"): (
            "une carte s'écrit avec une couleur R, B, Y ou G et un nombre de 1 à 5 (par exemple R3), pas 'Z9'"
        ),
        ("amulets", "ask A1 B2 C3 D4 F5"): "un champ va d'A1 à E5, pas 'F5'",
        (
            "amulets",
            "cast RA1 RB2 GC3 BD4 KE5",
        ): "l'amulette R est placée deux fois dans 'RA1 RB2 GC3 BD4 KE5'",
        ("commandments", "bk3>Q"): "'Q' n'est pas une zone (C, H1-H5, T1-T5, R ; X = hors du cercle)",
        ("commandments", "place wh=C,C,C,C bk=C,C,C,C,C br=C,C,C,C,C"): (
            "wh= prend cinq zones, une par artefact, pas 4"
        ),
    }
    for (game_id, text), expected in cases.items():
        with pytest.raises(NotationError) as caught:
            REGISTRY.get(game_id).parse_action(text)
        assert french(reason_of(caught.value)) == expected


# ----------------------------------------------------------------------------- options and cards
def test_option_and_player_count_refusals_name_the_option_and_its_bounds() -> None:
    game: Any = REGISTRY.get("amulets")
    with pytest.raises(InvalidOptionError) as caught:
        game.new_game(3, {"question_cap": 999})
    why = check_refusal(game, reason_of(caught.value))
    assert flat(why) == {
        "key": "refusal.option.maximum",
        "params": {"option": "question_cap", "max": 60, "value": "999"},
    }
    assert french(why) == "l'option question_cap vaut au plus 60, pas 999"
    with pytest.raises(InvalidOptionError) as caught:
        game.new_game(9)
    why = check_refusal(game, reason_of(caught.value))
    assert flat(why)["key"] == "refusal.players.range" and flat(why)["params"]["value"] == "9"
    with pytest.raises(InvalidOptionError) as caught:
        game.new_game(3, {"colour": "red"})
    assert reason_of(caught.value).key == "refusal.option.unknown"


CARD = {"id": "X1", "type": "action", "value": 2, "en": "If you moonwalk", "expr": "did('moonwalk')"}


def test_a_custom_card_s_refusal_nests_the_card_the_expression_and_the_place() -> None:
    game: Any = REGISTRY.get("commandments")
    with pytest.raises(InvalidOptionError) as caught:
        parse_custom_cards(json.dumps([CARD]))
    why = check_refusal(game, reason_of(caught.value))
    assert str(why) == (
        "custom card 1 (X1): expr \"did('moonwalk')\": 'moonwalk' is not a gesture "
        "(stand, dance, sing, bow, kneel, clap, macho, pray, laugh, whistle, close_eyes, wave, jump, hum, "
        "stretch, stamp, smile) (at 4)"
    )
    assert flat(why)["key"] == "refusal.commandments.cards.bad_card"
    assert flat(why)["params"]["card"] == {
        "key": "refusal.commandments.cards.card_id",
        "params": {"n": 1, "id": "X1"},
    }
    assert french(why).startswith(
        "la carte personnalisée 1 (X1) : l'expression \"did('moonwalk')\" : "
        "'moonwalk' n'est pas un geste (stand, "
    )
    assert french(why).endswith(", smile) (position 4)")
    # the one card a person makes on the deck page is "the card"
    with pytest.raises(InvalidOptionError) as caught:
        parse_custom_cards(json.dumps([{**CARD, "expr": "sum(area"}]), one=True)
    why = check_refusal(game, reason_of(caught.value))
    assert str(why) == "the card (X1): expr 'sum(area': expected ')' at 8, found 'the end'"
    assert french(why) == (
        "la carte (X1) : l'expression 'sum(area' : il faut ')' en position 8, mais l'expression s'arrête là"
    )
    # a JSON that is none: the reader's English detail stays in English, the French says where
    with pytest.raises(InvalidOptionError) as caught:
        parse_custom_cards('[{"id": "X1",]')
    why = check_refusal(game, reason_of(caught.value))
    assert str(why).startswith("custom_cards must be a JSON list of cards: Expecting property name")
    assert flat(why) == {"key": "refusal.commandments.cards.not_json", "params": {"line": 1, "column": 14}}


@pytest.mark.parametrize(
    ("expr", "domain", "counting", "key"),
    [
        ("", "performance", False, "refusal.commandments.card.empty"),
        ("did('bow') and", "performance", False, "refusal.commandments.card.no_value_end"),
        ("count(C) > 1", "performance", False, "refusal.commandments.card.at"),
        ("did('bow') ＃", "performance", False, "refusal.commandments.card.character"),
        ("did('bow')", "performance", True, "refusal.commandments.card.must_count"),
        ("frobnicate(1)", "board", False, "refusal.commandments.card.at"),
    ],
)
def test_the_card_language_says_why_in_messages(expr: str, domain: str, counting: bool, key: str) -> None:
    game: Any = REGISTRY.get("commandments")
    with pytest.raises(CardError) as caught:
        compile_card_expr(expr, domain, counting)
    why = check_refusal(game, reason_of(caught.value))
    assert why.key == key
