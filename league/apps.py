from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Clubs and competitions"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here, as Django asks of signal wiring: models must be loaded first.
        from accounts.notices import Kind, register_audience
        from accounts.players import register_voucher
        from games.ownership import register_recorder
        from games.places import register_place
        from games.services import register_gate
        from games.signals import game_finished

        from . import signals
        from .competitions.places import tournament_place
        from .competitions.sections import follow_rule_set_revision

        game_finished.connect(signals.on_game_finished, dispatch_uid="league.rate_finished_game")
        game_finished.connect(signals.on_game_finished_for_competitions, dispatch_uid="league.score_pairing")
        register_gate("rematch", "league", signals.no_rematch_for_competition_games)
        register_gate("abort", "league", signals.no_abort_for_competition_games)
        register_voucher("club", signals.share_a_club)
        register_audience(Kind.ORGANISING.value, signals.organises_a_club)
        register_place("league", tournament_place)
        register_recorder("league", follow_rule_set_revision)
