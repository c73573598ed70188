"""The format registry: every Section.Format has one class implementing the whole
protocol, and the form and the API's serializers agree with the declared settings."""

from __future__ import annotations

import inspect
from datetime import timedelta

import pytest
from django import forms
from rest_framework import serializers

from league.api.competitions import SectionCreateSerializer, SectionSerializer
from league.competitions.formats import FORMAT_SETTINGS, FORMATS, SECTION_SETTINGS, SectionFormat
from league.competitions.formats.section_settings import COMMON_SETTINGS, Elsewhere, Setting
from league.competitions.forms import SectionForm
from league.formats.tiebreaks import TIEBREAKS
from league.models import Section

#: create_section's own arguments, which the form and the create serializer also have.
FORM_ARGUMENTS = {"name", "variant", "rule_set", "format", "rated", "capacity", "starts_at"}
API_ARGUMENTS = FORM_ARGUMENTS | {"tournament", "third_place"}  # third_place: placements' old name

#: The protocol's members: its properties and methods.
PROTOCOL = {name: member for name, member in vars(SectionFormat).items() if not name.startswith("_")}


def test_every_section_format_is_registered_and_nothing_else():
    assert set(FORMATS) == set(Section.Format.values)
    assert all(fmt.key == key for key, fmt in FORMATS.items())


@pytest.mark.parametrize("key", list(FORMATS))
def test_every_format_implements_the_whole_protocol(key):
    fmt = FORMATS[key]
    assert isinstance(fmt, SectionFormat)
    assert not getattr(type(fmt), "__abstractmethods__", None)
    for name, member in PROTOCOL.items():
        assert hasattr(type(fmt), name), name
        if inspect.isfunction(member):
            wanted = list(inspect.signature(member).parameters)[1:]
            assert list(inspect.signature(getattr(fmt, name)).parameters) == wanted, name
    assert fmt.label == Section.Format(key).label
    assert all(isinstance(setting, Setting) for setting in fmt.settings)
    assert set(fmt.default_tiebreaks) <= set(TIEBREAKS)
    flags = ("has_bracket", "has_losers_bracket", "has_crosstable", "timed", "withdrawal_eliminates")
    assert all(isinstance(getattr(fmt, flag), bool) for flag in flags)
    assert isinstance(fmt.tie_order, str) and isinstance(fmt.before_start, str)
    assert fmt.drawn_game_replays is None or fmt.drawn_game_replays >= 0
    for refusal in (fmt.correction_refusal, fmt.repair_refusal):
        assert refusal is None or (len(refusal) == 2 and all(refusal))


def test_section_settings_are_the_common_ones_and_the_formats_own():
    assert set(COMMON_SETTINGS) | {s.name for fmt in FORMATS.values() for s in fmt.settings} == SECTION_SETTINGS
    assert set(FORMAT_SETTINGS) == {s for fmt in FORMATS.values() for s in fmt.settings}
    assert not set(COMMON_SETTINGS) & {s.name for s in FORMAT_SETTINGS}


def test_the_form_and_the_serializers_have_a_field_for_each_setting_and_no_other():
    assert set(SectionForm.base_fields) - FORM_ARGUMENTS == SECTION_SETTINGS
    assert set(SectionCreateSerializer().fields) - API_ARGUMENTS == SECTION_SETTINGS
    assert set(SectionSerializer.Meta.fields) >= SECTION_SETTINGS


@pytest.mark.parametrize("setting", FORMAT_SETTINGS, ids=lambda s: s.name)
def test_a_format_setting_is_declared_consistently(setting):
    assert setting.required or setting.admits(setting.default)  # the column's default is allowed
    if setting.elsewhere is Elsewhere.REFUSED:
        assert setting.elsewhere_refusal
    for value, _ in setting.choices:
        assert setting.admits(value)


@pytest.mark.parametrize("setting", FORMAT_SETTINGS, ids=lambda s: s.name)
def test_the_form_field_of_a_format_setting_is_its_declaration(setting):
    field = SectionForm.base_fields[setting.name]
    assert field.label == setting.label
    assert field.help_text == setting.help_text
    if setting.required:  # only its formats need it: optional on a form for every format
        assert not field.required
    else:
        assert str(field.initial) == str(setting.default)  # the form offers text for a decimal
    if setting.choices:
        assert [(str(v), label) for v, label in field.choices] == [(str(v), label) for v, label in setting.choices]
    if isinstance(setting.max_value, timedelta):  # the form takes minutes
        assert field.max_value == setting.max_value // timedelta(minutes=1)
    elif isinstance(field, forms.IntegerField):
        assert (field.min_value, field.max_value) == (setting.min_value, setting.max_value)


@pytest.mark.parametrize("setting", FORMAT_SETTINGS, ids=lambda s: s.name)
def test_the_api_field_of_a_format_setting_is_its_declaration(setting):
    field = SectionCreateSerializer().fields[setting.name]
    assert not field.required  # absent: the column's default
    if not isinstance(field, serializers.BooleanField):
        assert field.allow_null == (setting.default is None)
    if setting.max_value is not None:
        assert field.max_value == setting.max_value


def test_inside_the_format_fieldset_a_label_does_not_repeat_the_format():
    """The fieldset's legend is "Swiss settings": its fields read "Rounds", not "Swiss: rounds";
    the declarations (the API's and the admin's labels) keep the prefix."""
    form = SectionForm(initial={"format": Section.Format.SWISS})
    labels = {bound.name: bound.label for bound in form.format_fields()}
    assert labels["rounds"] == "Rounds" and labels["swiss_system"] == "Pairing system"
    assert labels["late_entry_rounds"] == "Late entries until round (0: none)"
    assert SectionForm.base_fields["rounds"].label == "Swiss: rounds"
