import os

from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Clubs and competitions"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import game_finished

        from . import signals

        game_finished.connect(signals.on_game_finished, dispatch_uid="league.rate_finished_game")
        game_finished.connect(signals.on_game_finished_for_competitions, dispatch_uid="league.score_pairing")
        # Redis redelivers an unacknowledged task after the broker's visibility timeout;
        # the killed-worker test (and an operator who wants it) lowers it with this.
        timeout = os.environ.get("LEAGUE_BROKER_VISIBILITY_TIMEOUT")
        if timeout:
            from config.celery import app

            app.conf.broker_transport_options = {
                **(app.conf.broker_transport_options or {}), "visibility_timeout": float(timeout)}
