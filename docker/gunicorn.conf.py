"""gunicorn settings for the image, from the environment.

gunicorn manages the processes; each runs ``fbservice.asgi`` in a uvicorn worker (an event
loop). The feed's waiting routes (long-poll, event stream) are async views on that loop: a
waiting client costs no thread and no database connection, so one process holds thousands
(FB_FEED_MAX_CONNECTIONS). Everything else (commands, reads, pages) runs in a pool of
FB_WEB_THREADS threads in the same process, each with its own database connection
(CONN_MAX_AGE): size PostgreSQL's max_connections (or a pooler) for web replicas x
WEB_CONCURRENCY x (FB_WEB_THREADS + FB_FEED_DB_THREADS + 1 listener), plus the Celery workers.
"""

import os
import tempfile

# One folder the workers write the feed's figures to, so GET /metrics adds them all up
# (api/feed/metrics.py); made here, in the master, before the workers start.
if not os.environ.get("FB_METRICS_DIR"):
    os.environ["FB_METRICS_DIR"] = tempfile.mkdtemp(prefix="fbservice-metrics-")

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# uvicorn's worker with this project's options (fbservice/server.py): no proxy headers, and
# limits on the request line and headers (gunicorn's limit_request_* do not reach uvicorn).
worker_class = "fbservice.server.UvicornWorker"
# The worker heartbeats from its event loop: a loop blocked this long is restarted.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
keepalive = 5
# Recycle workers now and then (memory), staggered so they never restart all at once.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "20000"))
max_requests_jitter = max_requests // 10
# Enough for the open feed connections (each is a socket).
worker_connections = int(os.environ.get("FB_FEED_MAX_CONNECTIONS", "10000")) + 1000
backlog = 4096
accesslog = "-"
errorlog = "-"
# Who the client is behind a reverse proxy is decided by the application alone, from the
# peer address and TRUSTED_PROXIES (api/proxies.py); the worker passes the peer through
# as it is. A FORWARDED_ALLOW_IPS left from an older setup would now be ignored quietly,
# every client counted as the proxy: refuse to start instead.
if os.environ.get("FORWARDED_ALLOW_IPS"):
    raise RuntimeError(
        "FORWARDED_ALLOW_IPS is not read any more: name the reverse proxies in TRUSTED_PROXIES "
        "(docker/README.md, 'Behind a reverse proxy')"
    )
forwarded_allow_ips = ""  # gunicorn's own use of it (its sync workers): nobody
# The control socket (gunicorn 27) would sit in $HOME; not needed in a container.
control_socket_disable = True
