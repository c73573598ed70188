"""Names that pass one script's letters off as another's: "Olga" written with a Cyrillic
"O" (U+041E) reads as the Latin "Olga" on every page. The rule is Unicode's (UTS #39, "moderately
restrictive"): a name's letters come from one script, or from one of the combinations a
language writes together (Japanese kana with Han, Korean Hangul with Han, each with
Latin), or from Latin and one other script but Cyrillic or Greek (whose letters are
Latin's look-alikes); a name mixing others is refused when one of its letters looks like
a letter of another script (confusable_homoglyphs, the data django-registration checks
usernames with)."""

from __future__ import annotations

import unicodedata

from confusable_homoglyphs import categories, confusables

from .errors import ServiceError

#: Scripts that every script shares (digits, spaces, punctuation) or borrows (accents).
_SHARED = frozenset({"COMMON", "INHERITED"})

#: UTS #39's "highly restrictive" combinations: written together by one language.
_WRITTEN_TOGETHER = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)

#: The scripts with most of Latin's look-alikes: never mixed with Latin in one name.
_LATINS_LOOK_ALIKES = frozenset({"CYRILLIC", "GREEK"})

MIXED_SCRIPTS = (
    "mixes letters of different scripts that look alike (such as a Cyrillic \u201c\u043e\u201d among Latin "
    "letters), so it could pass for another name: please write it in one script."
)


#: Characters that draw nothing though Unicode files them as letters, marks or symbols:
#: the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the Braille blank (U+2800), the
#: combining grapheme joiner (U+034F) and Khmer's inherent vowels (U+17B4, U+17B5). A
#: username or display name of Hangul fillers passed every check and showed as blank
#: (an outside probe, 2026-12-01).
DRAWS_NOTHING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")


#: Unicode's control, format, private-use, surrogate and unassigned characters: nothing a
#: reader sees, but a right-to-left override (U+202E) turns the text after a name around
#: on the page and a zero-width space makes an empty-looking name (an outside probe).
_UNSEEN = frozenset({"Cc", "Cf", "Co", "Cs", "Cn"})
#: The zero-width non-joiner and joiner: part of how Persian, Indic scripts and emoji write.
_JOINERS = frozenset({"\u200c", "\u200d"})


def hidden_characters(text: str) -> list[str]:
    """The characters of ``text`` that a reader cannot see (above, and ``DRAWS_NOTHING``),
    in order: what a name others read may not hold."""
    return [char for char in text
            if (unicodedata.category(char) in _UNSEEN and char not in _JOINERS) or char in DRAWS_NOTHING]


def refuse_hidden(name: str, *, what: str) -> None:
    """ServiceError ``bad-name`` when a ``name`` others read (a tournament's, a section's,
    a league's, a season's, a house-rule set's) holds a character nobody sees: a right-to-left override in a
    tournament's name turned the rest of its line around on every page that listed it
    (an outside probe, 2026-12-01)."""
    hidden = hidden_characters(name)
    if hidden:
        raise ServiceError("bad-name", f"A {what}'s name cannot hold invisible or control characters "
                                       f"(here U+{ord(hidden[0]):04X}): letters, digits, spaces and punctuation only.")


def draws_nothing(text: str) -> list[str]:
    """The characters of ``text`` that show as nothing (``DRAWS_NOTHING``), in order."""
    return [char for char in text if char in DRAWS_NOTHING]


def _variation_selector(char: str) -> bool:
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or 0x180B <= code <= 0x180F


def as_seen(name: str) -> str:
    """``name`` without its variation selectors (U+FE00-FE0F and the like), which choose
    a glyph's style (an emoji's colour) and add nothing to read: "Sam" with a U+FE0F
    after it reads as "Sam". Only for comparing names."""
    return "".join(char for char in name if not _variation_selector(char))


def look_alike(name: str) -> bool:
    """Whether ``name`` mixes scripts in a way that makes it look like another name."""
    scripts = {categories.aliases_categories(char)[0] for char in name} - _SHARED
    if len(scripts) <= 1 or any(scripts <= together for together in _WRITTEN_TOGETHER):
        return False
    if len(scripts) == 2 and "LATIN" in scripts and not scripts & _LATINS_LOOK_ALIKES:
        return False
    return bool(confusables.is_dangerous(name))
