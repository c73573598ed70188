from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here, as Django asks of hooks and signal wiring: models must be loaded first.
        from django.db.models.signals import post_delete, post_migrate, post_save, pre_delete

        from games.observing import register_watch_gate
        from games.ownership import register_claim, register_recorder
        from league.competitions import audit as league_audit
        from league.models import ClubMembership, Tournament

        from . import permissions, selectors, services, signals, watching

        # Every permission of the platform, asked with user.has_perm (moderation/permissions.py).
        permissions.register()
        register_watch_gate("moderation", watching.watch_gate)
        # Which club keeps a house-rule set (its organisers revise it); every revision is audited.
        register_claim("moderation", selectors.claim_rule_set)
        register_recorder("moderation", services.record_rule_set_revision)
        # The organisers' own actions (pages, API) are audited by league's services through this.
        league_audit.register_recorder("moderation", services.record)
        # A club role of organiser, arbiter or owner opens the console; losing it closes it.
        post_save.connect(signals.on_membership_changed, sender=ClubMembership,
                          dispatch_uid="moderation.membership_saved")
        post_delete.connect(signals.on_membership_changed, sender=ClubMembership,
                            dispatch_uid="moderation.membership_deleted")
        pre_delete.connect(signals.on_tournament_deleted, sender=Tournament,
                           dispatch_uid="moderation.tournament_deleted")
        # Roles given before this app existed (or by a bulk load, which sends no signals).
        post_migrate.connect(signals.sync_all_console_access, sender=self,
                             dispatch_uid="moderation.console_access_after_migrate")
