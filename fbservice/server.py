"""The HTTP server in front of ``fbservice.asgi``, as every shape of this project runs it:
gunicorn's worker class (``docker/gunicorn.conf.py``) has these options, and ``make run``'s
uvicorn command line (``fbservice/devserver.py``, ``SERVER_ARGS``) says the same.

- **No proxy headers.** uvicorn would otherwise rewrite the client address and scheme from
  ``X-Forwarded-For`` / ``-Proto`` for the peers in ``forwarded_allow_ips`` (gunicorn
  passes its own setting, ``*`` in the old config: anyone). The application decides alone,
  from the raw peer address and ``TRUSTED_PROXIES`` (``api.proxies``).

Imported by the gunicorn master before Django is set up: no Django here.
"""

from __future__ import annotations

from typing import Any

from uvicorn_worker import UvicornWorker as _UvicornWorker


class UvicornWorker(_UvicornWorker):
    """gunicorn's uvicorn worker with this project's server options."""

    CONFIG_KWARGS: dict[str, Any] = {  # noqa: RUF012 - the base class's hook
        **_UvicornWorker.CONFIG_KWARGS,
        "proxy_headers": False,
    }
