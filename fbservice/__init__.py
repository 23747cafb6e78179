"""The fbservice Django project."""

from fbservice.celery import app as celery_app

__all__ = ("celery_app",)
