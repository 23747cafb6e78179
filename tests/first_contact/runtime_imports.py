"""Imports everything the service runs, in the virtualenv `make run` made (runtime set only).

    python -m fbservice.embedded exec -- python tests/first_contact/runtime_imports.py

Run by tests/first_contact/test_fresh_clone.py inside a fresh clone. Standard library and
the runtime requirements only: no pytest. Every module of the service's packages is
imported (lazy imports inside functions are not, so the broker transports and server
workers the documented processes load by name are imported too); a module that needs a
package only the test set brings fails here. Exits non-zero, naming each failure.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("fbservice", "games", "events", "api", "web", "webhooks", "ratings")
# Loaded by name at run time (settings, command lines, Celery), not imported by our code.
BY_NAME = (
    "kombu.transport.redis",  # CELERY_BROKER_URL=redis://... (and the embedded Redis)
    "kombu.transport.pyamqp",  # amqp://... (RabbitMQ, the recommended broker)
    "celery.bin.worker",
    "celery.bin.beat",
    "uvicorn.protocols.http.httptools_impl",
    "uvicorn.loops.uvloop",
    "uvicorn_worker",  # docker/gunicorn.conf.py's worker_class
    "gunicorn.app.wsgiapp",
    "whitenoise.middleware",
    "drf_spectacular_sidecar",
)
# In the test set only: if `make run` ever installs one, this check proves nothing.
DEV_ONLY = ("pytest", "hypothesis", "playwright", "schemathesis")


def modules() -> list[str]:
    names: list[str] = []
    for package in PACKAGES:
        names.append(package)
        path = [str(ROOT / package)]
        for info in pkgutil.walk_packages(path, prefix=f"{package}."):
            names.append(info.name)
    return names


def main() -> int:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fbservice.settings")
    present = [name for name in DEV_ONLY if importlib.util.find_spec(name) is not None]
    if present:
        print(f"not a runtime-only virtualenv: {', '.join(present)} installed")
        return 2
    import django

    django.setup()
    failed: list[str] = []
    names = modules() + list(BY_NAME)
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:
            failed.append(name)
            print(f"cannot import {name}:\n{traceback.format_exc()}")
    print(f"imported {len(names) - len(failed)} of {len(names)} modules")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
