import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_password_hashing")]


def test_ensure_staff_creates_a_superuser_who_can_use_the_admin(client):
    call_command("ensure_staff", "--username", "alice", "--password", "wonderland")

    alice = get_user_model().objects.get(username="alice")
    assert alice.is_staff and alice.is_superuser and alice.check_password("wonderland")
    assert client.login(username="alice", password="wonderland")
    assert client.get("/admin/").status_code == 200


def test_ensure_staff_is_idempotent_and_updates_the_password():
    call_command("ensure_staff", "--username", "bob", "--password", "first")
    call_command("ensure_staff", "--username", "bob", "--password", "second", "--no-superuser")

    bob = get_user_model().objects.get(username="bob")
    assert get_user_model().objects.filter(username="bob").count() == 1
    assert bob.check_password("second")
    assert bob.is_staff and not bob.is_superuser


def test_ensure_staff_takes_the_password_from_the_environment(monkeypatch):
    monkeypatch.setenv("FB_STAFF_PASSWORD", "from-env")
    call_command("ensure_staff", "--username", "charlie")
    assert get_user_model().objects.get(username="charlie").check_password("from-env")


def test_ensure_staff_requires_a_password(monkeypatch):
    monkeypatch.delenv("FB_STAFF_PASSWORD", raising=False)
    with pytest.raises(CommandError, match="password"):
        call_command("ensure_staff", "--username", "dave")


def test_admin_redirects_anonymous_users_to_login(client):
    response = client.get("/admin/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
