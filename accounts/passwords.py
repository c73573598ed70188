"""Forgotten-password links (docs/accounts.md, "Password and e-mail"): who a request
matches, where the link goes, and the mail, sent by a task so that the page answers in
the same time whether or not anything matched (the SMTP conversation took 50-90 ms for
an account and nothing for a stranger: an outsider could time which accounts exist)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import EmailMessage
from django.db.models import Q
from django.template import loader
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from .models import GuardianConsent, User
from .services import normalised_email

logger = logging.getLogger(__name__)

SEND_TASK = "accounts.send_password_reset"


def matching_users(identifier: str) -> list[User]:
    """The active accounts with a password that ``identifier`` names: by username, by the
    account's e-mail, or by the e-mail of a guardian who consented (a guardian types
    their own address)."""
    given = identifier.strip()
    if not given:
        return []
    guarded = GuardianConsent.objects.filter(
        guardian_email__iexact=given, granted_at__isnull=False, revoked_at__isnull=True).values("user_id")
    found = User.objects.filter(Q(username__iexact=given) | Q(email__iexact=given) | Q(pk__in=guarded),
                                is_active=True).order_by("pk")
    return [user for user in found if user.has_usable_password()]


def recipients(user: User) -> list[tuple[str, bool]]:
    """(address, is the guardian's): the account's own e-mail and, for a player whose
    guardian consented, the guardian's too; one mail per mailbox."""
    found = [(user.email, False)] if user.email else []
    consent = GuardianConsent.objects.filter(user=user).first()
    if consent is not None and consent.is_granted:
        found.append((consent.guardian_email, True))
    by_mailbox: dict[str, tuple[str, bool]] = {}
    for address, guardian in found:
        by_mailbox.setdefault(normalised_email(address), (address, guardian))
    return list(by_mailbox.values())


def send_reset_links(*, identifier: str, domain: str, use_https: bool) -> int:
    """Mail a one-time link to every account ``identifier`` names; the number sent. A mail
    that cannot be sent is logged: the player asks again."""
    sent = 0
    for user in matching_users(identifier):
        link = "{}://{}{}".format("https" if use_https else "http", domain, reverse(
            "accounts:password-reset-confirm",
            args=[urlsafe_base64_encode(force_bytes(user.pk)), default_token_generator.make_token(user)]))
        for address, guardian in recipients(user):
            context = {"user": user, "link": link, "to_guardian": guardian}
            subject = "".join(loader.render_to_string("accounts/password_reset_subject.txt", context).splitlines())
            body = loader.render_to_string("accounts/password_reset_email.txt", context)
            try:
                EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [address]).send()
            except Exception:  # SMTP and socket errors alike
                logger.exception("password-reset mail for user %s not sent", user.pk)
            else:
                sent += 1
    return sent
