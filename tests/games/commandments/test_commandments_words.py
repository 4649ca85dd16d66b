"""Cards about words are judged on the words typed, in English or French (the bilingual lexicon)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coven.games.commandments.lexicon import normalise, said_in, tokens

from .helpers import karma_event, play, table


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        # English
        ("May I?", {"permission"}),
        ("Please, O great one", {"permission", "compliment"}),
        ("thank you", {"thanks"}),
        ("What a lovely WHITE one", {"compliment", "colour"}),
        ("you old goat", {"animal"}),
        ("Damn!", {"curse"}),
        ("Jenn is an idiot", {"offend"}),
        ("hello little one", {"artefact"}),
        # French, with or without accents, any case
        ("Puis-je ?", {"permission"}),
        ("S'il vous plaît", {"permission"}),
        ("s il vous plait", {"permission"}),
        ("Merci, ô grande prêtresse", {"thanks"}),
        ("Espèce de vieille CHÈVRE", {"animal"}),
        ("espece de vieille chevre", {"animal"}),
        ("Quel âne !", {"animal"}),
        ("Zut alors", {"curse"}),
        ("Bon sang !", {"curse"}),
        ("Tu es nulle, Jenn", {"offend"}),
        ("Vous êtes magnifique", {"compliment"}),
        ("Un artefact noir", {"artefact", "colour"}),
        ("mon petit trésor", {"artefact"}),
        # word boundaries: nothing hides inside a longer word
        ("concatenate the scattered catalogue", set()),
        ("bonjour", set()),
        ("le chaton", {"animal"}),
        ("chateau", set()),
        ("the bon vivant", set()),  # "bon" alone is not "bon sang"
        ("", set()),
    ],
)
def test_the_lexicon_finds_what_is_said_in_english_and_french(text: str, kinds: set[str]) -> None:
    assert said_in(text) == kinds


def test_words_are_counted_as_the_lexicon_cuts_them() -> None:
    assert tokens("S'il vous plaît") == ("s", "il", "vous", "plait")
    assert tokens("may-I,please") == ("may", "i", "please")
    assert tokens("  ...!  ") == ()


@pytest.mark.parametrize(
    ("words", "animal"),
    [
        ("you old goat", True),
        ("vieille chèvre", True),
        ("VIEILLE CHEVRE", True),
        ("you old goatherd", False),
        ("oh great one", False),
    ],
)
def test_the_animal_card_is_judged_on_the_words_typed(words: str, animal: bool) -> None:
    state = table(4, ["A21", "A13", "P10", "P05"])
    play(state, 0, "ordain discard=A13 taboo=P05")  # taboo: stand up; do: put back, an animal's name
    play(state, 0, "place wh=C,C,C,C,C bk=R,R,R,R,R br=T1,T2,T3,T4,T5")
    result = karma_event(play(state, 1, f'wh1>C "{words}"'))
    assert result["total"] == 4 + (4 if animal else 0)
    assert result["marks"] == [0, 1, 1 if animal else 0]


@pytest.mark.parametrize(
    ("words", "karma"),
    [
        ("May I?", 3),
        ("Puis-je jouer ?", 3),
        ("s'il te plaît", 3),
        ("Hello", 0),  # not silent: the silence card is not met either
        ("", 2),  # silent
    ],
)
def test_permission_and_silence_in_both_languages(words: str, karma: int) -> None:
    state = table(4, ["A21", "A13", "P01", "P19"])
    play(state, 0, "ordain discard=A21 taboo=A13")  # taboo: into the centre; do: permission, silence
    play(state, 0, "place wh=C,C,C,C,C bk=R,R,R,R,R br=T1,T2,T3,T4,T5")
    move = f'bk1>H1 "{words}"' if words else "bk1>H1"
    result = karma_event(play(state, 1, move))
    if karma:
        assert result["total"] == karma
    else:
        assert result["verdict"] == "no karma"


@given(st.text(max_size=40) | st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
def test_ascii_words_take_the_short_way_to_the_same_normal_form(text: str) -> None:
    """Most words typed are ASCII, which have nothing to decompose and whose case folding is lowering:
    they skip the decomposition (a performance's words are normalised at every move that has them),
    and come out as the long way would make them."""
    decomposed = unicodedata.normalize("NFKD", text)
    long_way = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    assert normalise(text) == long_way
