"""The log-in backend: Django's ModelBackend, with the user's profile loaded in the
same query. Every signed-in page names its user from the profile (``User.name``, the
menu in templates/base.html), so Django's own backend cost a second query on each of
them (bench/live_costs.py, "404 page, signed in": 5 statements, 4 with this)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend

from .models import User


class ProfileModelBackend(ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        try:
            user = User.objects.select_related("profile").get(pk=user_id)
        except User.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None
