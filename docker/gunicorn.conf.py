"""gunicorn settings for the image, from the environment.

Threads, not only processes: a long-poll (GET /games/{id}/events?wait=, up to
FB_FEED_MAX_WAIT s) and a server-sent-events stream (FB_SSE_LIFETIME s) each hold a thread
for their whole life, so a worker serves up to GUNICORN_THREADS of them at once while its
other threads answer commands. Each thread keeps its own database connection
(CONN_MAX_AGE): size PostgreSQL's max_connections (or a pooler) for
web replicas x WEB_CONCURRENCY x GUNICORN_THREADS, plus the Celery workers.
"""

import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "16"))
# gthread workers heartbeat from their main loop, so a long request in a thread does not
# trip this; it only catches a wedged worker process.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
keepalive = 5
# Recycle workers now and then (memory), staggered so they never restart all at once.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "5000"))
max_requests_jitter = max_requests // 10
accesslog = "-"
errorlog = "-"
# The load balancer / reverse proxy in front sets X-Forwarded-For and -Proto.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "*")
# The control socket (gunicorn 27) would sit in $HOME; not needed in a container.
control_socket_disable = True
