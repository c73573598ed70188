"""Permissions that no group or grant gives: those of the apps that run code for the
whole platform are superusers' own (docs/moderation.md, "Who reaches the console")."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied

#: A periodic task runs code for the whole platform, so no club role reaches the schedules.
SUPERUSERS_ONLY_APPS = frozenset({"django_celery_beat"})


class SuperusersOnlyAppsBackend:
    """Refuses these apps' permissions to everyone who asks a backend, whatever their
    groups hold: Django stops at the first backend that raises PermissionDenied, and an
    active superuser has every permission without asking one. Listed before ModelBackend.

    It authenticates nobody and has no ``get_user``, so no session (nor the test
    client's ``force_login``) ever names it."""

    def authenticate(self, request: Any, **credentials: Any) -> None:
        return None

    def has_perm(self, user_obj: Any, perm: str, obj: Any = None) -> bool:
        if perm.split(".", 1)[0] in SUPERUSERS_ONLY_APPS:
            raise PermissionDenied
        return False

    def has_module_perms(self, user_obj: Any, app_label: str) -> bool:
        if app_label in SUPERUSERS_ONLY_APPS:
            raise PermissionDenied
        return False
