"""The date of birth the age gate reads is taken in one spelling, ``YYYY-MM-DD`` (what
the page's date box sends), on the page and the API alike; any other is a field error
and nothing is made or remembered (accounts.age.parse_plain_date). Django's and DRF's
own date fields read ``20130101``, ISO week dates, ``01/02/2013`` (month first) and
digits other than ASCII ones as dates."""

from __future__ import annotations

from datetime import date

import pytest
from rest_framework.test import APIClient

from accounts import age
from accounts.models import AgeScreenAnswer, User
from tests.factories import SignupFactory
from tests.support import years_ago

pytestmark = pytest.mark.django_db

API = "/api/v1/accounts/signup/"
PAGE = "/accounts/signup/"

#: Spellings of a date other than YYYY-MM-DD, and days the calendar lacks. Python's
#: date.fromisoformat (under DRF's field), Django's form field or both read many as dates.
NOT_PLAIN = [
    "20130101", "2000-W01-1", "2000W011", "2013-001", "2013-1-1", "2013-01-1", "01/02/2013", "1/2/13",
    "Jan 1 2013", "1 January 2013", "\uff12\uff10\uff11\uff13-01-01",  # fullwidth digits
    "2013-01-01T00:00", "2013-01-01 00:00", "+2013-01-01", "2013/01/01",
]
#: The right spelling of days the calendar lacks: told so, not "wrong format".
NOT_A_DAY = ["2013-02-30", "2013-02-29", "0000-01-01", "2013-13-01"]


def test_the_one_spelling():
    assert age.parse_plain_date("1990-05-17") == date(1990, 5, 17)
    assert age.parse_plain_date("2012-02-29") == date(2012, 2, 29)
    for text in [*NOT_PLAIN, *NOT_A_DAY, " 1990-05-17", "1990-05-17\n"]:
        assert age.parse_plain_date(text) is None, text


class TestApi:
    @pytest.mark.parametrize("born", [*NOT_PLAIN, " 1990-05-17", "1990-05-17\n", 19900517, 1990.5, True, ["1990-05-17"], None])
    def test_any_other_spelling_is_a_field_error(self, born):
        response = APIClient().post(API, SignupFactory(date_of_birth=born), format="json")
        assert response.status_code == 400, response.json()
        body = response.json()
        assert body["code"] == "invalid" and body["message"].startswith("date_of_birth: ")
        assert set(body["fields"]) == {"date_of_birth"}
        assert not User.objects.exists() and not AgeScreenAnswer.objects.exists()

    @pytest.mark.parametrize("born", NOT_A_DAY)
    def test_a_day_the_calendar_lacks_is_told_so(self, born):
        response = APIClient().post(API, SignupFactory(date_of_birth=born), format="json")
        assert response.status_code == 400
        assert response.json()["message"] == "date_of_birth: There is no such day in the calendar."
        assert not User.objects.exists() and not AgeScreenAnswer.objects.exists()

    def test_the_plain_date_signs_up(self):
        response = APIClient().post(API, SignupFactory(date_of_birth="1990-05-17"), format="json")
        assert response.status_code == 201, response.json()
        assert response.json()["date_of_birth"] == "1990-05-17"


class TestPage:
    @pytest.mark.parametrize("born", NOT_PLAIN)
    def test_any_other_spelling_is_a_field_error(self, client, born):
        response = client.post(PAGE, SignupFactory(date_of_birth=born))
        assert response.status_code == 200
        errors = response.context["form"].errors
        assert errors["date_of_birth"] == ["Enter the date as year-month-day, YYYY-MM-DD."]
        assert "YYYY-MM-DD" in response.content.decode()
        assert not User.objects.exists() and not AgeScreenAnswer.objects.exists()

    @pytest.mark.parametrize("born", NOT_A_DAY)
    def test_a_day_the_calendar_lacks_is_told_so(self, client, born):
        response = client.post(PAGE, SignupFactory(date_of_birth=born))
        assert response.context["form"].errors["date_of_birth"] == ["There is no such day in the calendar."]
        assert not User.objects.exists() and not AgeScreenAnswer.objects.exists()

    # Spaces around it are dropped, as every field of a Django form drops them.
    @pytest.mark.parametrize("born", ["1990-05-17", " 1990-05-17 ", "1990-05-17\n"])
    def test_the_date_boxs_own_spelling_signs_up(self, client, born):
        response = client.post(PAGE, SignupFactory(date_of_birth=born))
        assert response.status_code == 302
        assert User.objects.get(username="newplayer").profile.date_of_birth == date(1990, 5, 17)

    def test_a_child_giving_a_plain_date_is_still_asked_for_a_guardian(self, client):
        response = client.post(PAGE, SignupFactory(date_of_birth=years_ago(10).isoformat(), country="DE"))
        assert "guardian_email" in response.content.decode()
        assert not User.objects.filter(is_active=True).exists()
