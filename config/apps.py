from django.apps import AppConfig

from .celery import TASK_PACKAGES
from .celery import app as celery_app


class SiteConfig(AppConfig):
    """The site layer, above every other app: the home page, the health check, the
    notifications socket, the Celery app and the runplatform command. A package named
    ``site`` would shadow Python's own module, hence ``config``."""

    name = "config"
    label = "site"
    verbose_name = "Site"

    def ready(self) -> None:
        # Every app's tasks registered in every process that sets Django up (server,
        # worker, beat, commands, tests): the services send them by their registered
        # name (celery.current_app.tasks[name]) and never import the tasks modules above them.
        celery_app.autodiscover_tasks(TASK_PACKAGES, force=True)
