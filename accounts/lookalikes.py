"""Names that pass one script's letters off as another's: "Olga" written with a Cyrillic
"O" (U+041E) reads as the Latin "Olga" on every page. The rule is Unicode's (UTS #39, "moderately
restrictive"): a name's letters come from one script, or from one of the combinations a
language writes together (Japanese kana with Han, Korean Hangul with Han, each with
Latin), or from Latin and one other script but Cyrillic or Greek (whose letters are
Latin's look-alikes); a name mixing others is refused when one of its letters looks like
a letter of another script (confusable_homoglyphs, the data django-registration checks
usernames with)."""

from __future__ import annotations

from confusable_homoglyphs import categories, confusables

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


def look_alike(name: str) -> bool:
    """Whether ``name`` mixes scripts in a way that makes it look like another name."""
    scripts = {categories.aliases_categories(char)[0] for char in name} - _SHARED
    if len(scripts) <= 1 or any(scripts <= together for together in _WRITTEN_TOGETHER):
        return False
    if len(scripts) == 2 and "LATIN" in scripts and not scripts & _LATINS_LOOK_ALIKES:
        return False
    return bool(confusables.is_dangerous(name))
