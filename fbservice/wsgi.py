"""WSGI entry point (gunicorn fbservice.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

from fbservice.startup import freeze_loaded_objects

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fbservice.settings")

application = get_wsgi_application()
freeze_loaded_objects()
