import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from fbservice import settings as fb

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("raw", "expected"), [("1", True), ("true", True), ("Off", False)])
def test_envbool(monkeypatch, raw, expected):
    monkeypatch.setenv("FB_TEST_FLAG", raw)
    assert fb.envbool("FB_TEST_FLAG", not expected) is expected


def test_envbool_and_envint_refuse_bad_values(monkeypatch):
    monkeypatch.setenv("FB_TEST_FLAG", "maybe")
    monkeypatch.setenv("FB_TEST_INT", "ten")
    with pytest.raises(ImproperlyConfigured, match="FB_TEST_FLAG"):
        fb.envbool("FB_TEST_FLAG", True)
    with pytest.raises(ImproperlyConfigured, match="FB_TEST_INT"):
        fb.envint("FB_TEST_INT", 10)


def test_envint_default_and_value(monkeypatch):
    monkeypatch.delenv("FB_TEST_INT", raising=False)
    assert fb.envint("FB_TEST_INT", 10) == 10
    monkeypatch.setenv("FB_TEST_INT", "25")
    assert fb.envint("FB_TEST_INT", 10) == 25


def test_envsecret_reads_a_docker_secret_file(monkeypatch, tmp_path):
    secret = tmp_path / "secret"
    secret.write_text("from-file\n")
    monkeypatch.setenv("FB_TEST_SECRET", "from-env")
    assert fb.envsecret("FB_TEST_SECRET") == "from-env"
    monkeypatch.setenv("FB_TEST_SECRET_FILE", str(secret))
    assert fb.envsecret("FB_TEST_SECRET") == "from-file"
    monkeypatch.setenv("FB_TEST_SECRET_FILE", str(tmp_path / "missing"))
    with pytest.raises(ImproperlyConfigured):
        fb.envsecret("FB_TEST_SECRET")


def test_parse_database_url_tcp():
    db = fb.parse_database_url("postgres://fb:p%40ss@db.example:6543/fbservice?sslmode=require")
    assert db == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "fbservice",
        "USER": "fb",
        "PASSWORD": "p@ss",
        "HOST": "db.example",
        "PORT": "6543",
        "OPTIONS": {"sslmode": "require"},
    }


@pytest.mark.parametrize(
    "url",
    ["postgres://postgres@/fb?host=/run/pg", "postgresql://postgres@%2Frun%2Fpg/fb"],
)
def test_parse_database_url_unix_socket(url):
    db = fb.parse_database_url(url)
    assert (db["HOST"], db["PORT"], db["NAME"], db["OPTIONS"]) == ("/run/pg", "", "fb", {})


def test_parse_database_url_refuses_other_databases():
    with pytest.raises(ImproperlyConfigured):
        fb.parse_database_url("sqlite:///db.sqlite3")


def test_database_settings(settings):
    db = settings.DATABASES["default"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert db["CONN_HEALTH_CHECKS"] is True
    assert "ATOMIC_REQUESTS" not in db or db["ATOMIC_REQUESTS"] is False
    assert settings.FB_SNAPSHOT_EVERY > 0


def test_celery_reads_django_settings(settings):
    from fbservice.celery import app

    assert app.main == "fbservice"
    assert app.conf.broker_url == settings.CELERY_BROKER_URL


def _import_settings(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    return subprocess.run(
        [sys.executable, "-c", "import fbservice.settings"],
        cwd=REPO,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_refuses_to_start_without_secret_key():
    result = _import_settings(DEBUG="false")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
    assert _import_settings(DEBUG="false", SECRET_KEY="x" * 50).returncode == 0
