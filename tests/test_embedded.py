from pathlib import Path

from fbservice import embedded


def test_configured_urls_start_nothing(monkeypatch):
    def fail() -> str:
        raise AssertionError("must not start an embedded server")

    monkeypatch.setattr(embedded, "ensure_postgres", fail)
    monkeypatch.setattr(embedded, "ensure_redis", fail)
    env = {"DATABASE_URL": "postgres://db/x", "CELERY_BROKER_URL": "amqp://mq//"}
    assert embedded.ensure_environment(env) == {}


def test_only_the_missing_server_is_started(monkeypatch):
    monkeypatch.setattr(embedded, "ensure_postgres", lambda: "postgres://embedded/fb")
    env = {"CELERY_BROKER_URL": "amqp://mq//"}
    assert embedded.ensure_environment(env) == {"DATABASE_URL": "postgres://embedded/fb"}
    assert env["DATABASE_URL"] == "postgres://embedded/fb"


def test_long_socket_paths_fall_back_to_a_short_directory(tmp_path):
    deep = tmp_path.joinpath(*["d" * 20] * 6)
    assert embedded._socket_dir(Path("/short"), "redis.sock") == Path("/short")
    fallback = embedded._socket_dir(deep, "redis.sock")
    assert fallback != deep and len(str(fallback / "redis.sock")) < 100
