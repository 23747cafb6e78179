"""A lost database connection is a 503 ``database_unavailable`` in the error envelope,
inside the API (DRF's exception handler) and outside it (the middleware), never a 500.
tests/faults/test_postgres_restart.py shows it against a real restart."""

from __future__ import annotations

import pytest
from django.db import InterfaceError, OperationalError
from django.test import RequestFactory
from rest_framework.test import APIClient

from api import auth
from api.errors import STATUS
from api.middleware import DatabaseUnavailableMiddleware


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_the_api_answers_503_when_the_database_is_gone(monkeypatch, error) -> None:
    def gone(key):
        raise error("connection to server was lost")

    # where the token's lookup reaches the database (one statement of text, api.auth)
    monkeypatch.setattr(auth, "_token_and_user", gone)
    key = "a" * 40  # well formed: it reaches the (lost) database
    response = APIClient().get("/api/v1/tables", HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code == 503
    assert response.json() == {
        "code": "database_unavailable",
        "message": response.json()["message"],
        "extra": {},
    }
    assert response["Retry-After"] == "1"
    assert STATUS["database_unavailable"] == 503


def test_pages_outside_the_api_answer_503_too() -> None:
    middleware = DatabaseUnavailableMiddleware(lambda request: None)
    factory = RequestFactory()
    api = middleware.process_exception(factory.get("/api/v1/x"), OperationalError("gone"))
    assert api is not None and api.status_code == 503
    assert api["Content-Type"] == "application/json"
    page = middleware.process_exception(factory.get("/"), InterfaceError("closed"))
    assert page is not None and page.status_code == 503 and page["Retry-After"] == "1"
    assert middleware.process_exception(factory.get("/"), ValueError("bug")) is None
