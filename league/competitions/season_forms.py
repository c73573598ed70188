"""The forms of a club's leagues and seasons (league/views/seasons.py); the services
(league/competitions/seasons.py) check what the forms cannot, and a refusal is shown
beside the field it is about (``FIELD_OF``)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms

from league.models import League, Season

from .seasons import MOST_NAME

DAY = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")

#: The field a service's refusal is about, by its code (none: above the form).
FIELD_OF = {
    "bad-name": "name", "name-taken": "name", "bad-description": "description", "bad-dates": "ends_on",
    "season-overlap": "starts_on", "bad-year": "year", "bad-scoring": "scoring", "bad-place-points": "place_points",
}


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=MOST_NAME, help_text='For instance "Junior league" or "Club championship".')
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)

    @staticmethod
    def initial_of(league: League) -> dict[str, Any]:
        return {"name": league.name, "description": league.description}


class PlacePointsField(forms.CharField):
    """Points for 1st, 2nd, 3rd... typed as numbers separated by commas: a list of numbers."""

    def to_python(self, value: Any) -> list[Decimal]:  # type: ignore[override]
        text = super().to_python(value) or ""
        points = []
        for part in (p.strip() for p in text.replace(";", ",").split(",")):
            if not part:
                continue
            try:
                number = Decimal(part)
            except InvalidOperation:
                raise forms.ValidationError(f'"{part}" is not a number: type numbers separated by commas, '
                                            "such as 25, 18, 15.") from None
            if not number.is_finite():
                raise forms.ValidationError(f'"{part}" is not a number.')
            points.append(number)
        return points


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=MOST_NAME, help_text='For instance "2026" or "Autumn 2026".')
    starts_on = forms.DateField(label="First day", widget=DAY)
    ends_on = forms.DateField(label="Last day", widget=DAY,
                              help_text="A league's seasons come one after another: they never share a day.")
    year = forms.IntegerField(required=False, min_value=1900, max_value=2999,
                              help_text="Birth-year age groups count from it. Empty: the year of the first day.")
    scoring = forms.ChoiceField(choices=[(Season.Scoring.GAME_POINTS, "Game points: the sum over its tournaments"),
                                         (Season.Scoring.PLACE_POINTS, "Place points: points for each final place")],
                                initial=Season.Scoring.GAME_POINTS, label="Season standings")
    place_points = PlacePointsField(
        required=False, label="Points for each place",
        help_text="Place points only: for 1st, 2nd, 3rd... separated by commas (25, 18, 15, 12, 10). "
                  "Places further down score none.")

    @staticmethod
    def initial_of(season: Season) -> dict[str, Any]:
        return {"name": season.name, "starts_on": season.starts_on, "ends_on": season.ends_on, "year": season.year,
                "scoring": season.scoring, "place_points": ", ".join(str(p) for p in season.place_points or [])}
