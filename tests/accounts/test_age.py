"""Age rules at every edge: birthdays today, yesterday, tomorrow, and 29 February."""

from datetime import date

import pytest

from accounts import age

TODAY = date(2026, 11, 22)


def born_years_ago(years: int, shift_days: int = 0, today: date = TODAY) -> date:
    """Someone whose ``years``-th birthday is today shifted by ``shift_days``."""
    from datetime import timedelta

    return date(today.year - years, today.month, today.day) + timedelta(days=shift_days)


class TestAgeOn:
    def test_birthday_today_counts(self):
        assert age.age_on(born_years_ago(16), TODAY) == 16

    def test_birthday_tomorrow_not_yet(self):
        assert age.age_on(born_years_ago(16, +1), TODAY) == 15

    def test_birthday_yesterday_counts(self):
        assert age.age_on(born_years_ago(16, -1), TODAY) == 16

    def test_leap_day_birthday_in_a_common_year_is_first_of_march(self):
        leapling = date(2008, 2, 29)
        assert age.age_on(leapling, date(2025, 2, 28)) == 16
        assert age.age_on(leapling, date(2024, 2, 28)) == 15
        assert age.age_on(leapling, date(2024, 2, 29)) == 16
        assert age.age_on(leapling, date(2023, 2, 28)) == 14
        assert age.age_on(leapling, date(2023, 3, 1)) == 15

    def test_before_birth_is_an_error(self):
        with pytest.raises(ValueError):
            age.age_on(TODAY, date(2020, 1, 1))


class TestServiceAccess:
    def test_fifteen_year_old_from_germany_needs_a_guardian(self):
        decision = age.service_access(born_years_ago(15), "DE", TODAY)
        assert not decision.allowed and decision.needs_guardian_consent
        assert decision.consent_age == 16
        assert "16" in decision.reason and "guardian" in decision.reason

    def test_german_turning_sixteen_today_is_allowed(self):
        assert age.service_access(born_years_ago(16), "DE", TODAY).allowed

    def test_german_turning_sixteen_tomorrow_is_not(self):
        assert not age.service_access(born_years_ago(16, +1), "DE", TODAY).allowed

    def test_german_sixteen_since_yesterday_is_allowed(self):
        assert age.service_access(born_years_ago(16, -1), "DE", TODAY).allowed

    @pytest.mark.parametrize("country", sorted(age.EU_MEMBERS))
    def test_every_eu_member_uses_the_services_own_sixteen(self, country):
        assert not age.service_access(born_years_ago(16, +1), country, TODAY).allowed
        assert age.service_access(born_years_ago(16), country, TODAY).allowed

    @pytest.mark.parametrize("country", ["RE", "GP", "MQ", "GF", "YT", "MF", "AX"])
    def test_the_eus_regions_with_a_code_of_their_own_use_sixteen_too(self, country):
        """Réunion or Åland is the EU (a French or Finnish citizen's home): choosing it made
        a 15-year-old need no guardian, at the default 13 (rules probe)."""
        decision = age.service_access(born_years_ago(16, +1), country, TODAY)
        assert not decision.allowed and "European Union" in decision.reason
        assert age.service_access(born_years_ago(16), country, TODAY).allowed

    @pytest.mark.parametrize("country", sorted(age.EU_CITIZENS_TERRITORIES))
    def test_territories_whose_people_are_eu_citizens_use_sixteen(self, country):
        """French Polynesia or Aruba is outside the EU, but its people are French or Dutch
        citizens, and the rule is about citizens: a 15-year-old there needed no guardian."""
        decision = age.service_access(born_years_ago(16, +1), country, TODAY)
        assert not decision.allowed and "citizens of the European Union" in decision.reason
        assert age.service_access(born_years_ago(16), country, TODAY).allowed

    def test_the_faroes_keep_the_default_their_people_are_not_eu_citizens(self):
        assert age.service_access(born_years_ago(13), "FO", TODAY).allowed

    def test_fifteen_year_old_from_the_uk_is_accepted(self):
        assert age.service_access(born_years_ago(15), "GB", TODAY).allowed

    @pytest.mark.parametrize("country", ["GB", "US"])
    def test_thirteen_is_the_edge_in_the_uk_and_the_us(self, country):
        assert age.service_access(born_years_ago(13), country, TODAY).allowed
        assert not age.service_access(born_years_ago(13, +1), country, TODAY).allowed

    def test_unknown_country_uses_the_default(self):
        assert age.consent_age("ZZ") == age.DEFAULT_CONSENT_AGE
        assert age.consent_age(None) == age.DEFAULT_CONSENT_AGE

    def test_country_code_case_does_not_matter(self):
        assert age.consent_age("de") == 16

    def test_leap_day_german_turns_sixteen_on_first_of_march(self):
        leapling = date(2008, 2, 29)
        assert not age.service_access(leapling, "DE", date(2024, 2, 28)).allowed
        assert age.service_access(leapling, "DE", date(2024, 2, 29)).allowed
        assert not age.service_access(date(2004, 2, 29), "DE", date(2020, 2, 28)).allowed
        assert not age.service_access(date(2005, 2, 28), "DE", date(2021, 2, 27)).allowed
        assert age.service_access(date(2005, 2, 28), "DE", date(2021, 2, 28)).allowed

    def test_future_birth_date_is_refused(self):
        with pytest.raises(ValueError):
            age.service_access(date(2027, 1, 1), "GB", TODAY)


class TestPlay:
    def test_three_year_old_cannot_be_entered(self):
        decision = age.play_eligibility(born_years_ago(3), TODAY)
        assert not decision.allowed and "too young" in decision.reason

    def test_fourth_birthday_today_can_play(self):
        assert age.play_eligibility(born_years_ago(4), TODAY).allowed

    def test_fourth_birthday_tomorrow_cannot(self):
        assert not age.play_eligibility(born_years_ago(4, +1), TODAY).allowed

    def test_104_plays_without_a_note(self):
        decision = age.play_eligibility(born_years_ago(104), TODAY)
        assert decision.allowed and decision.note == ""

    def test_105_year_old_is_welcome(self):
        decision = age.play_eligibility(born_years_ago(105), TODAY)
        assert decision.allowed and "welcome" in decision.note

    def test_130_year_old_is_still_allowed(self):
        assert age.play_eligibility(born_years_ago(130), TODAY).allowed


class TestAgeGroups:
    def test_u12_in_2026_is_born_2014_or_later(self):
        assert age.youth_category_allows(2014, 2026, 12)
        assert not age.youth_category_allows(2013, 2026, 12)
        assert age.age_group_refusal(date(2013, 12, 31), season_year=2026, under=12) == (
            "Born 2013, and this U12 section is for players born 2014 or later."
        )
        assert age.age_group_refusal(date(2014, 1, 1), season_year=2026, under=12) == ""

    @pytest.mark.parametrize("under", age.YOUTH_CATEGORIES)
    def test_every_youth_category_edge(self, under):
        assert age.youth_category_allows(2026 - under, 2026, under)
        assert not age.youth_category_allows(2026 - under - 1, 2026, under)

    @pytest.mark.parametrize("over", age.SENIOR_CATEGORIES)
    def test_seniors_reach_the_age_by_31_december(self, over):
        # born 31 December: still reaches the age within the season's year
        assert age.age_group_refusal(date(2026 - over, 12, 31), season_year=2026, over=over) == ""
        refusal = age.age_group_refusal(date(2026 - over + 1, 1, 1), season_year=2026, over=over)
        assert refusal == f"Born {2026 - over + 1}, and this {over}+ section is for players born {2026 - over} or earlier."

    def test_age_on_a_cutoff_date(self):
        cutoff = date(2026, 9, 1)
        assert age.age_group_refusal(date(2016, 9, 1), cutoff=cutoff, max_age=10) == ""
        assert age.age_group_refusal(date(2016, 9, 2), cutoff=cutoff, min_age=10) == (
            "Aged 9 on Tue 1 Sep 2026, and this section is for ages 10 and over."
        )
        assert age.age_group_refusal(date(2015, 9, 1), cutoff=cutoff, max_age=10) == (
            "Aged 11 on Tue 1 Sep 2026, and this section is for ages up to 10."
        )

    def test_missing_reference_dates_are_programming_errors(self):
        with pytest.raises(ValueError):
            age.age_group_refusal(date(2010, 1, 1), under=12)
        with pytest.raises(ValueError):
            age.age_group_refusal(date(2010, 1, 1), min_age=12)
