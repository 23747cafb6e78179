"""The deploy files, checked without a container engine (none on the development
machines): the compose file's structure, the settings it passes, the gunicorn config and
the Dockerfile's steps. `docker compose config` is the real check where Docker runs."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import yaml

from fbservice.devserver import WORKER_WITHOUT, commands

DOCKER = Path(__file__).resolve().parents[2] / "docker"
APP_SERVICES = ("migrate", "web", "worker", "beat", "clock")


def compose() -> dict:
    return yaml.safe_load((DOCKER / "docker-compose.yml").read_text())


def test_every_service_is_there_with_a_health_check() -> None:
    services = compose()["services"]
    assert {"postgres", "rabbitmq", "redis", *APP_SERVICES} <= set(services)
    for name in ("postgres", "rabbitmq", "web", "worker", "beat", "clock"):
        assert services[name]["healthcheck"]["test"], name
    assert services["redis"]["profiles"] == ["redis"]  # optional broker
    for name in APP_SERVICES:
        service = services[name]
        assert service["build"]["dockerfile"] == "docker/Dockerfile", name
        assert service["environment"]["FB_EMBEDDED"] == "false", name
        assert service["environment"]["DEBUG"] == "false", name
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy", name
    for name in ("web", "worker", "beat", "clock"):
        assert services[name]["depends_on"]["migrate"] == {
            "condition": "service_completed_successfully"
        }
    assert services["web"]["command"][:4] == [
        "gunicorn", "fbservice.asgi:application", "--config", "docker/gunicorn.conf.py"
    ]  # fmt: skip
    assert services["beat"]["command"][3] == "beat"
    # the clock loop needs PostgreSQL only: it must not wait for the broker it stands in for
    assert services["clock"]["command"][1:3] == ["manage.py", "clock_loop"]
    assert "rabbitmq" not in services["clock"]["depends_on"]
    # two loops share the work; each replica is a container of its own, so each health
    # check reads its own loop's heartbeat file
    assert services["clock"]["deploy"]["replicas"] == 2
    assert "--heartbeat" in services["clock"]["command"]
    assert "container_name" not in services["clock"]  # replicas need generated names
    # beat is healthy while it hands tasks to the broker (fbservice/beat.py)
    assert services["beat"]["healthcheck"]["test"][1:5] == [
        "python", "-m", "fbservice.beat", "check"
    ]  # fmt: skip


def test_the_worker_runs_as_make_runs_it_without_mingle_and_gossip() -> None:
    """tests/faults/test_broker_restart.py runs the dev runner's worker through Redis
    restarts; the compose file's must be the same worker."""
    compose_worker = compose()["services"]["worker"]["command"]
    dev_worker = commands("127.0.0.1", 0)["worker"]
    assert compose_worker[:5] == dev_worker[2:7] == ["celery", "-A", "fbservice", "worker", "-l"]
    for flag in WORKER_WITHOUT:
        assert flag in compose_worker and flag in dev_worker


def test_a_worker_or_beat_that_exits_is_restarted() -> None:
    services = compose()["services"]
    for name in ("postgres", "rabbitmq", "web", "worker", "beat", "clock"):
        assert services[name]["restart"] == "unless-stopped", name


def test_the_environment_names_settings_that_exist() -> None:
    known = (DOCKER.parent / "fbservice" / "settings.py").read_text()
    known += (DOCKER / "gunicorn.conf.py").read_text()
    for name in APP_SERVICES:
        for variable in compose()["services"][name]["environment"]:
            assert f'"{variable}"' in known, f"{name}: {variable} is read by nothing"


def gunicorn_conf(monkeypatch, **env: str) -> dict:
    monkeypatch.setenv("FB_METRICS_DIR", "")  # the file sets it: undone after the test
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    namespace: dict = {}
    exec((DOCKER / "gunicorn.conf.py").read_text(), namespace)  # noqa: S102 - our own file
    return namespace


def test_gunicorn_runs_uvicorn_workers_that_hold_many_connections(monkeypatch) -> None:
    from uvicorn_worker import UvicornWorker

    from fbservice.server import UvicornWorker as Ours

    conf = gunicorn_conf(monkeypatch)
    assert conf["worker_class"] == "fbservice.server.UvicornWorker"
    assert issubclass(Ours, UvicornWorker)
    assert Ours.CONFIG_KWARGS["proxy_headers"] is False  # the application decides alone
    assert conf["worker_connections"] > 10000
    # the workers share one folder for their figures (GET /metrics adds them up)
    assert Path(os.environ["FB_METRICS_DIR"]).is_dir()


def test_gunicorn_refuses_the_old_proxy_setting(monkeypatch) -> None:
    """FORWARDED_ALLOW_IPS would now be ignored (every client counted as the proxy): a
    deployment that still sets it is told to use TRUSTED_PROXIES."""
    with pytest.raises(RuntimeError, match="TRUSTED_PROXIES"):
        gunicorn_conf(monkeypatch, FORWARDED_ALLOW_IPS="10.0.0.0/8")


def test_the_dockerfile_collects_static_files_and_runs_gunicorn_as_a_user() -> None:
    text = (DOCKER / "Dockerfile").read_text()
    assert re.search(r"manage\.py collectstatic --noinput", text)
    assert "USER fbservice" in text and "HEALTHCHECK" in text
    assert (
        'CMD ["gunicorn", "fbservice.asgi:application", "--config", "docker/gunicorn.conf.py"]'
        in text
    )
    ignored = (DOCKER / "Dockerfile.dockerignore").read_text().split()
    assert {".venv", ".local", ".git"} <= set(ignored)


def test_the_feed_tier_serves_exactly_the_feeds_waiting_routes() -> None:
    """The compose file's optional feed tier (profile ``feed-tier``): nginx sends the
    paths of the feed's async routes (every one of them, and nothing else) to ``feed``."""
    from django.urls import URLPattern, URLResolver, get_resolver

    from fbservice.asgi import is_async_route

    services = compose()["services"]
    assert services["feed"]["profiles"] == services["proxy"]["profiles"] == ["feed-tier"]
    assert services["feed"]["command"] == services["web"]["command"]
    assert services["feed"]["environment"]["FB_FEED_MAX_CONNECTIONS"]
    conf = (DOCKER / "nginx-feed-tier.conf").read_text()
    assert (
        "./nginx-feed-tier.conf:/etc/nginx/conf.d/default.conf:ro" in services["proxy"]["volumes"]
    )
    feed_route = re.compile(re.search(r"location ~ (\S+) \{\s*proxy_pass http://feed;", conf)[1])

    def paths(patterns: list, prefix: str = "") -> list[str]:
        found = []
        for pattern in patterns:
            text = prefix + str(pattern.pattern).lstrip("^").rstrip("$")
            if isinstance(pattern, URLResolver):
                found += paths(pattern.url_patterns, text)
            elif isinstance(pattern, URLPattern):
                found.append("/" + re.sub(r"<[^>]+>", "0f4c2d1e-aaaa-4bbb-8ccc-123456789abc", text))
        return found

    every = [p for p in paths(get_resolver().url_patterns) if "(" not in p and "*" not in p]
    feed_paths = [p for p in every if is_async_route(p)]
    assert len(feed_paths) == 2, feed_paths  # the long-poll and the stream
    for path in every:
        assert bool(feed_route.match(path)) == (path in feed_paths), path
