from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import clock, sweeper, tasks

        # the service fires timers after commit through this, never importing the tasks
        clock.set_scheduler(tasks.schedule)
        sweeper.connect_worker_signals()
