"""The browser's message catalogues: every key the page's scripts use exists in English and French, both
catalogues have the same keys, and a text keeps the same {placeholders} in both languages."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[1] / "src" / "coven" / "web"
LANGS = ("en", "fr")
# t("key") or tr("key") (the lobby's alias): the literal keys. Keys built at run time fall back to a
# server text on purpose (an option's description) and are not listed here.
USE = re.compile(r"\btr?\(\s*\"([^\"]+)\"")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(lang: str) -> dict[str, str]:
    data = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    assert all(isinstance(k, str) and isinstance(v, str) and v for k, v in data.items())
    return data


def used_keys() -> dict[str, set[str]]:
    """Key -> the files using it, over every script of the page."""
    found: dict[str, set[str]] = {}
    for path in sorted(WEB.rglob("*.js")):
        for key in USE.findall(path.read_text(encoding="utf-8")):
            found.setdefault(key, set()).add(str(path.relative_to(WEB)))
    return found


def test_the_scripts_use_the_catalogue() -> None:
    used = used_keys()
    # Not a vacuous pass: the lobby, the table, the result and every game's board route their texts here.
    assert len(used) > 200
    files = set().union(*used.values())
    for name in ("lobby.js", "table.js", "result.js", "games/namaste.js", "games/brujas.js"):
        assert name in files, name


@pytest.mark.parametrize("lang", LANGS)
def test_every_used_key_is_in_the_catalogue(lang: str) -> None:
    texts = catalogue(lang)
    missing = {k: sorted(v) for k, v in used_keys().items() if k not in texts}
    assert not missing, f"missing from {lang}.json: {missing}"


def test_both_catalogues_have_the_same_keys_and_placeholders() -> None:
    en, fr = catalogue("en"), catalogue("fr")
    only_en, only_fr = sorted(set(en) - set(fr)), sorted(set(fr) - set(en))
    assert not only_en and not only_fr, f"only in en: {only_en}; only in fr: {only_fr}"
    differ = {
        k: (en[k], fr[k]) for k in en if set(PLACEHOLDER.findall(en[k])) != set(PLACEHOLDER.findall(fr[k]))
    }
    assert not differ, f"placeholders differ: {differ}"


def test_no_catalogue_key_is_unused() -> None:
    # A key nobody uses is a text nobody checks; the option descriptions (opt.*) are looked up by name,
    # the explanations' texts (why.*) and the refusals' (refusal.*) by the message keys the engine sends
    # (their checks: the engine's own templates, tests/core/test_explain.py, tests/core/test_refusals.py).
    used = used_keys()
    engine = ("opt.", "optname.", "optchoice.", "bot.name.", "why.", "refusal.")
    unused = sorted(k for k in catalogue("en") if k not in used and not k.startswith(engine))
    assert not unused, f"unused catalogue keys: {unused}"


def test_every_option_choice_and_bot_level_of_every_game_has_its_name() -> None:
    # the page names them by key (optname.<option>, optchoice.<option>.<value>, bot.name.<level>), falling
    # back on the key itself: a game's option or bot without one would show its key to people
    from coven.games import game_ids, get_game

    for lang in ("en", "fr"):
        texts = catalogue(lang)
        for game_id in game_ids():
            game = get_game(game_id)
            for option in game.spec.options:
                assert f"optname.{option.key}" in texts, (lang, game_id, option.key)
                for value in option.choices or ():
                    assert f"optchoice.{option.key}.{value}" in texts, (lang, game_id, option.key, value)
            for bot in game.bots():
                assert f"bot.name.{bot}" in texts, (lang, game_id, bot)


# A string literal with two words or more (spaces between letters) is a text a person may read; outside
# t("key") it would show in English whatever the language. The literals passed to t() (keys), class names,
# selectors and the like do not count; the few others are listed with the reason they stay.
LITERAL = re.compile(r"""(?P<q>["`])(?P<body>(?:\\.|(?!(?P=q)).)*)(?P=q)""")
WORDS = re.compile(r"[A-Za-z']{2,} [A-Za-z']{2,}")
NOT_TEXT = re.compile(
    r"\b(?:tr?|class|className|querySelector(?:All)?|closest|addEventListener|matchMedia|fetch)\s*[:(=]\s*$"
)
ALLOWED = {
    # api.js: shown through errorText(code "network"), which translates it by its code
    "The server cannot be reached (${err.message}).",
    "Si vous vous inclinez",  # the card maker's example of a card's French text
    "no board for ${gameId}, using the generic one",  # a console warning for developers
    "just arrived",  # class names
}


def hard_coded_texts() -> list[str]:
    found = []
    for path in sorted(WEB.rglob("*.js")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith(("//", "*", "/*")):
                continue
            for m in LITERAL.finditer(line):
                body = m["body"]
                if not WORDS.search(re.sub(r"\$\{[^}]*\}", " ", body)) or body in ALLOWED:
                    continue
                if NOT_TEXT.search(line[: m.start()]):
                    continue
                found.append(f"{path.relative_to(WEB)}:{number}: {body}")
    return found


def test_no_text_bypasses_the_catalogue() -> None:
    assert not hard_coded_texts(), "texts outside the catalogue:\n" + "\n".join(hard_coded_texts())


def test_the_check_for_hard_coded_texts_finds_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The same check over a board that writes a text of its own: it is found.
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "x.js").write_text(
        'el.append(h("p", { class: "board-note" }, t("x.ok")), h("h3", {}, "Spell book"));\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(sys.modules[__name__], "WEB", tmp_path)
    assert hard_coded_texts() == ["games/x.js:1: Spell book"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_count_the_page_says_agrees_with_its_number(lang: str) -> None:
    # "1 pairs possible", "1 custom card(s)": a text the page fills with a count has a ".one" and an
    # ".other" form (i18n.js isOne picks one by the language's rule), never a plural written "(s)"; the
    # engine's refusals (refusal.*) are another matter
    texts = catalogue(lang)
    hedged = sorted(
        k for k, v in texts.items() if re.search(r"\w\((?:s|es|x)\)", v) and not k.startswith("refusal.")
    )
    assert not hedged, hedged
    for key in ("amulets.pairs", "amulets.worlds", "cmd.variant.custom"):
        assert key not in texts and f"{key}.one" in texts and f"{key}.other" in texts, key
    assert texts["amulets.pairs.one"].startswith("{n} pair") and "pairs" not in texts["amulets.pairs.one"]
    assert "paires" not in catalogue("fr")["amulets.pairs.one"]
