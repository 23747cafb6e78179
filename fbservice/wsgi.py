"""WSGI entry point (gunicorn fbservice.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fbservice.settings")

application = get_wsgi_application()
