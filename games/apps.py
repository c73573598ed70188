from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import lesson_service, services

        services.register_lesson_coach(lesson_service.COACH)
        services.register_gate("rematch", "lessons", lesson_service.no_rematch_for_lessons)
