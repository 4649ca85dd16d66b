"""``coven play --lang fr`` / ``COVEN_LANG=fr``: the terminal's prompts and fixed lines in French, through
the dict catalogue of :mod:`coven.core.lang`; every text the terminal translates is in it, same fields."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from typer.testing import CliRunner

from coven.cli import app
from coven.core.explain import render
from coven.core.lang import EXPLANATIONS_FR, FRENCH, french_joins, pick_lang, translations

SRC = Path(__file__).resolve().parents[1] / "src" / "coven"
runner = CliRunner()


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def translated_texts() -> set[str]:
    """The literal texts passed to tr(...) in the terminal's code (HELP by name)."""
    found: set[str] = set()
    for path in (SRC / "core" / "driver.py", SRC / "cli.py"):
        source = path.read_text(encoding="utf-8")
        found |= set(re.findall(r"\btr\(\s*\"((?:[^\"\\]|\\.)*)\"", source))
        found |= set(re.findall(r"\btr\(\s*'((?:[^'\\]|\\.)*)'", source))
    found = {t.replace("\\'", "'") for t in found}
    return found


def test_every_terminal_text_is_in_the_french_catalogue() -> None:
    used = translated_texts()
    assert len(used) >= 12
    from coven.core.driver import HELP

    used.add(HELP)
    missing = sorted(t for t in used if t not in FRENCH)
    assert not missing, f"not in the French catalogue: {missing}"
    for english, french in FRENCH.items():
        assert fields(english) == fields(french), english


@pytest.mark.parametrize(
    ("choice", "lang"), [("fr", "fr"), ("fr_FR.UTF-8", "fr"), ("FR", "fr"), ("de", "en"), (None, "en")]
)
def test_the_language_is_picked(choice: str | None, lang: str) -> None:
    assert pick_lang(choice) == lang


def test_english_is_unchanged_and_french_translates() -> None:
    assert translations("en").gettext("your move") == "your move"
    assert translations("fr").gettext("your move") == "votre coup"
    assert translations("fr").gettext("a text nobody translated") == "a text nobody translated"


def _play(args: list[str], env: dict[str, str] | None = None) -> str:
    result = runner.invoke(
        app, ["play", "namaste", "--bots", "random", "--seed", "3", *args], input="?\nhelp\nquit\n", env=env
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_coven_play_in_french_with_the_flag_and_the_environment() -> None:
    for out in (_play(["--lang", "fr"]), _play([], {"COVEN_LANG": "fr"})):
        assert "vous êtes à la place 0, graine 3" in out
        assert "Tapez un coup en notation" in out
        assert "votre coup>" in out
        assert "permis :" in out
        assert "your move>" not in out
    english = _play([], {"COVEN_LANG": ""})
    assert "you are seat 0, seed 3" in english and "your move>" in english


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [("brujas", 3, {"conflict": True}), ("namaste", 2, {}), ("commandments", 3, {}), ("amulets", 3, {})],
)
def test_the_explained_result_in_french(game_id: str, players: int, options: dict[str, object]) -> None:
    """``coven play --lang fr``: every text of the explanation in French (names filled), none in English."""
    from coven.core import RandomBot
    from coven.core.driver import escape, play_terminal
    from coven.core.explain import fill, translate
    from coven.core.lang import EXPLANATIONS_FR
    from coven.games import REGISTRY

    game = REGISTRY.get(game_id)
    state = game.new_game(players, options, 7)
    bots = {s: RandomBot(game, s, s) for s in range(1, players)}
    me = RandomBot(game, 0, 9)
    printed: list[str] = []

    def read(_prompt: str) -> str:
        action = me.act(game.view(state, 0), game.legal_actions(state, 0), True)
        assert action is not None
        return game.format_action(action)

    play_terminal(game, state, 0, bots, read, printed.append, lang="fr")
    out = "\n".join(printed)
    assert "Pourquoi ces scores" in out and "Why these scores" not in out
    assert "{s" not in out and "⟦" not in out

    def who(s: int) -> str:
        return "vous" if s == 0 else f"place {s}"

    explained = game.explain(game.view(state, 0))
    assert explained is not None
    texts = [explained.summary, *explained.notes]
    for s in explained.seats:
        texts += [line.message for line in s.lines] + list(s.notes)
    assert len(texts) >= players + 1
    for text in texts:
        french = fill(escape(translate(text, EXPLANATIONS_FR, "fr")), who)
        english = fill(escape(str(text)), who)
        assert french[:1].upper() + french[1:] in out, french
        assert english[1:] not in out, english


# The same sentences the browser's contracted() is tested on (tests/e2e/test_i18n.py): the two agree.
JOINED = {
    "Feuille de Le Mage, à Les Arcs, De Les Sorcières, de La Rochelle, de Leo, place de Lesna": (
        "Feuille du Mage, aux Arcs, Des Sorcières, de La Rochelle, de Leo, place de Lesna"
    ),
    "Feuille de Ana, que Éric rejoigne, De Inès, de Hugo, de bot greedy, de 8, monde Ouvert, de Yves": (
        "Feuille d'Ana, qu'Éric rejoigne, D'Inès, de Hugo, de bot greedy, de 8, monde Ouvert, de Yves"
    ),
}


@pytest.mark.parametrize("said", list(JOINED))
def test_french_joins_de_a_and_que_to_a_name(said: str) -> None:
    assert french_joins(said) == JOINED[said]
    assert french_joins(JOINED[said]) == JOINED[said]  # once is enough: joined text stays as it is


def test_the_french_catalogues_need_no_joining_of_their_own() -> None:
    # so that joining changes only what a field brought in (a name, a title), never a translator's text
    web = json.loads((SRC / "web" / "i18n" / "fr.json").read_text(encoding="utf-8"))
    for catalogue in (FRENCH, EXPLANATIONS_FR, web):
        changed = {k: v for k, v in catalogue.items() if french_joins(v) != v}
        assert not changed, changed


def test_a_french_explanation_joins_the_names_it_is_given() -> None:
    catalogue = {"why.x": "l'esprit de {who} a dit non ; on attend que {names} jouent"}
    said = render("why.x", {"who": "Ana", "names": "Inès et Bob"}, catalogue, "fr")
    assert said == "l'esprit d'Ana a dit non ; on attend qu'Inès et Bob jouent"
    english = {"why.x": "the spirit of {who} said no"}
    assert render("why.x", {"who": "Ana"}, english, "en") == "the spirit of Ana said no"


def test_a_refused_move_and_a_refused_option_are_said_in_french() -> None:
    """Where the rules give a reason (its key and params), the terminal says it in the person's language,
    in the page's words; in English, the rules' own text."""
    args = ["play", "namaste", "--bots", "random", "--seed", "3", "--lang", "fr"]
    out = runner.invoke(app, args, input="14@c3\nquit\n").output  # before the dice are rolled
    assert "14@c3 : choisissez d'abord combien de dés blancs lancer (roll 1-3)" in out, out
    english = runner.invoke(app, [*args[:-1], "en"], input="14@c3\nquit\n").output
    assert "14@c3: first choose how many white dice to roll (roll 1-3)" in english, english
    bad = runner.invoke(app, [*args, "--option", "nope=1"])
    assert bad.exit_code == 2 and "Namaste n'a pas d'option" in bad.output, bad.output


def test_a_move_that_cannot_be_read_is_said_in_french() -> None:
    # what was typed is not a move at all (the notation's refusals, not the rules')
    args = ["play", "namaste", "--players", "2", "--bots", "random", "--seed", "3", "--lang", "fr"]
    out = runner.invoke(app, args, input="roll 9\nroll 2\n7@a1\n7@c3x\nx\nquit\n").output
    assert "lancez 1, 2 ou 3 dés blancs, pas '9'" in out
    assert "pas de cercle 'a1' : les cercles sont a4" in out and "pas de cercle 'c3x'" in out
    assert "ce n'est pas une action de Namaste : 'x'" in out
    assert "no circle" not in out and "white dice, not" not in out and "not a Namaste action" not in out


# game -> (lines typed that are no move, pieces of their refusals in French, the same in English)
UNREADABLE_MOVES: dict[str, tuple[str, list[str], list[str]]] = {
    "brujas": (
        "zzz\nxZ9\ntake Q1\n",
        [
            "une action est une carte à jouer (R3), une carte à prendre dans le pli (xR3) ou un "
            "déplacement de la sorcière (up, down), pas 'zzz'",
            "une carte s'écrit avec une couleur R, B, Y ou G et un nombre de 1 à 5 (par exemple R3), "
            "pas 'Z9'",
            "pas 'Q1'",
        ],
        [
            "an action is a card to play (R3), a pick (xR3) or a witch move (up, down), not 'zzz'",
            "a card is a colour R, B, Y or G and a number 1-5 (e.g. R3), not 'Z9'",
        ],
    ),
    "amulets": (
        "zzz\nask A1 B2\nask A1 B2 C3 D4 F5\ncast RA1 RB2 GC3 BD4 KE5\nask RA1 YB2 GC3 BD4 QE5\n",
        [
            "une action s'écrit « ask <placement> » (interroger les esprits) ou « cast <placement> » "
            "(lancer le sort), pas 'zzz'",
            "un placement donne le champ de chacune des cinq amulettes, pas 'A1 B2'",
            "un champ va d'A1 à E5, pas 'F5'",
            "l'amulette R est placée deux fois dans 'RA1 RB2 GC3 BD4 KE5'",
            "'QE5' n'est pas une amulette (R J V B N, ou en anglais R Y G B K) suivie d'un champ (A1-E5)",
        ],
        [
            "an action is 'ask <placement>' or 'cast <placement>', not 'zzz'",
            "a field is A1 to E5, not 'F5'",
            "amulet R is placed twice in 'RA1 RB2 GC3 BD4 KE5'",
        ],
    ),
    "commandments": (
        'zzz\nbk3>Q\nzz1>C\nbk3>C ~\njudge maybe\n"hi"\nplace wh=C,C,C,C bk=C,C,C,C,C br=C,C,C,C,C\n',
        [
            "un coup s'écrit ARTEFACT>ZONE (par exemple bk3>C), ou forfeit, ordain, place, judge ; pas 'zzz'",
            "'Q' n'est pas une zone (C, H1-H5, T1-T5, R ; X = hors du cercle)",
            "'zz1' n'est pas un artefact (wh1-wh5, bk1-bk5, br1-br5)",
            "'~' inattendu : utilisez +geste, @contact",
            "judge prend yes ou no pour chacune de vos cartes d'action",
            "des paroles libres seules n'en sont pas un",
            "wh= prend cinq zones, une par artefact, pas 4",
        ],
        [
            "a move is ARTEFACT>AREA (e.g. bk3>C), or forfeit, ordain, place, judge; not 'zzz'",
            "'Q' is not an area (C, H1-H5, T1-T5, R; X = out of the circle)",
            "'zz1' is not an artefact (wh1-wh5, bk1-bk5, br1-br5)",
        ],
    ),
}


@pytest.mark.parametrize("game", list(UNREADABLE_MOVES))
def test_a_move_of_another_game_that_cannot_be_read_is_said_in_french(game: str) -> None:
    # the notation's refusals of Brujas, Amulets and The 3 Commandments, as Namaste's above; in English,
    # the rules' own words as before
    typed, french, english = UNREADABLE_MOVES[game]
    args = ["play", game, "--players", "3", "--bots", "random", "--seed", "3", "--lang", "fr"]
    out = " ".join(runner.invoke(app, args, input=typed + "quit\n").output.split())  # lines wrap
    for piece in french:
        assert piece in out, (piece, out)
    for piece in english:
        assert piece not in out, (piece, out)
    said = " ".join(runner.invoke(app, [*args[:-1], "en"], input=typed + "quit\n").output.split())
    for piece in english:
        assert piece in said, (piece, said)


def test_the_terminal_names_a_seat_in_a_refusal() -> None:
    from coven.core.driver import TerminalSeat
    from coven.core.errors import NotYourTurnError
    from coven.core.refusals import CORE
    from coven.games import get_game

    written: list[str] = []
    french = {"refusal.core.not_your_turn": "{seat} ne peut pas jouer maintenant"}
    tr = translations("fr").gettext
    person = TerminalSeat(get_game("namaste"), 0, input, written.append, tr=tr, refusals=french, lang="fr")
    person.refused(NotYourTurnError(CORE("refusal.core.not_your_turn", seat=1)))
    person.refused(NotYourTurnError("plain English"))
    assert written == ["[red]place 1 ne peut pas jouer maintenant[/]", "[red]plain English[/]"]
