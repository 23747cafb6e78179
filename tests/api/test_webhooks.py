"""Webhook subscriptions over the API: register, list, change, rotate, delete, test,
the delivery log and redeliver, and every refusal with its code (never a 500). No worker
here (tests/webhooks/ sends for real): deliveries are read back from the log."""

from __future__ import annotations

import json
from typing import Any

import pytest

from webhooks.models import Delivery, Subscription
from webhooks.relay import relay_all

HOOK = "http://127.0.0.1:9/hooks"  # loopback: allowed in these tests only


@pytest.fixture(autouse=True)
def _loopback(settings: Any) -> None:
    settings.FB_WEBHOOK_ALLOW_LOOPBACK = True


def patch(player: Any, path: str, body: Any) -> Any:
    return player.client.patch(
        f"/api/v1{path}", data=json.dumps(body), content_type="application/json"
    )


def delete(player: Any, path: str) -> Any:
    return player.client.delete(f"/api/v1{path}")


def create(player: Any, **body: Any) -> Any:
    return player.post("/webhooks", {"url": HOOK, "kinds": ["turn.started"], **body})


def test_register_list_show_change_and_delete(alice, mallory) -> None:
    made = create(alice, kinds=["turn.started", "window.opened"], description="push")
    assert made.status_code == 201, made.content
    sub = made.json()
    assert sub["secret"].startswith("whsec_") and sub["active"] and sub["scope"] == "own"
    assert sub["kinds"] == ["turn.started", "window.opened"]
    listed = alice.get("/webhooks").json()["webhooks"]
    assert [s["id"] for s in listed] == [sub["id"]] and "secret" not in listed[0]
    shown = alice.get(f"/webhooks/{sub['id']}").json()
    assert shown["url"] == HOOK and "secret" not in shown
    assert mallory.get(f"/webhooks/{sub['id']}").json()["code"] == "webhook_not_found"
    assert mallory.get("/webhooks").json()["webhooks"] == []

    changed = patch(alice, f"/webhooks/{sub['id']}", {"kinds": ["all"], "active": False})
    assert changed.status_code == 200
    assert changed.json()["kinds"] == ["all"] and not changed.json()["active"]
    assert changed.json()["disabled_reason"]
    again = patch(alice, f"/webhooks/{sub['id']}", {"active": True}).json()
    assert again["active"] and again["disabled_reason"] is None

    assert delete(mallory, f"/webhooks/{sub['id']}").status_code == 404
    assert delete(alice, f"/webhooks/{sub['id']}").status_code == 204
    assert not Subscription.objects.exists()


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"url": "http://10.0.0.1/x"}, 422, "webhook_url_refused"),
        ({"url": "http://169.254.169.254/latest/meta-data/"}, 422, "webhook_url_refused"),
        ({"url": "http://[fd00::1]/x"}, 422, "webhook_url_refused"),
        ({"url": "http://no-such-host.invalid/x"}, 422, "webhook_url_refused"),
        ({"url": "ftp://93.184.216.34/x"}, 422, "webhook_url_refused"),
        ({"url": "not a url"}, 422, "webhook_url_refused"),
        ({"url": "https://" + "a" * 70 + ".example/x"}, 422, "webhook_url_refused"),
        ({"url": "http://[::1/x"}, 422, "webhook_url_refused"),
        ({"url": "http://example.com:99999/x"}, 422, "webhook_url_refused"),
        ({"url": "\u0085"}, 422, "webhook_url_refused"),  # blank-looking: not a URL
        ({"url": ""}, 422, "webhook_url_refused"),
        ({"url": "\u00ec\u0014\u0000"}, 422, "webhook_url_refused"),  # schemathesis's
        ({"url": "http://93.184.216.34/\u0000"}, 422, "webhook_url_refused"),  # NUL: unstorable
        ({"url": "x" * 2001}, 400, "invalid"),
        ({"url": 5}, 400, "invalid"),
        ({"kinds": []}, 400, "invalid"),
        ({"kinds": ["turn.ended"]}, 400, "invalid"),
        ({"kinds": "all"}, 400, "invalid"),
        ({"scope": "service"}, 403, "forbidden"),
        ({"scope": "everyone"}, 400, "invalid"),
        ({"secret": "mine"}, 400, "invalid"),
    ],
)
def test_refusals_have_codes(alice, body, status, code) -> None:
    response = create(alice, **body)
    assert (response.status_code, response.json()["code"]) == (status, code), response.content
    assert not Subscription.objects.exists()


def test_private_addresses_are_refused_even_with_loopback_allowed_and_loopback_without(
    alice, settings
) -> None:
    assert create(alice, url="http://192.168.0.10/x").json()["code"] == "webhook_url_refused"
    settings.FB_WEBHOOK_ALLOW_LOOPBACK = False
    refused = create(alice, url="http://localhost:8000/x")
    assert refused.status_code == 422 and "loopback" in refused.json()["extra"]["reason"]
    sub = Subscription.objects.create(owner=alice.user, url=HOOK, kinds=["all"], secret="x")
    moved = patch(alice, f"/webhooks/{sub.id}", {"url": "http://127.0.0.2/x"})
    assert moved.json()["code"] == "webhook_url_refused"


def test_staff_may_subscribe_service_wide_and_a_limit_holds(staff, settings) -> None:
    assert create(staff, scope="service").status_code == 201
    settings.FB_WEBHOOK_MAX_PER_USER = 2
    assert create(staff).status_code == 201
    over = create(staff)
    assert (over.status_code, over.json()["code"]) == (409, "too_many_webhooks")
    assert over.json()["extra"]["limit"] == 2


def test_rotate_keeps_the_old_secret_signing_for_the_overlap(alice) -> None:
    sub = create(alice).json()
    rotated = alice.post(f"/webhooks/{sub['id']}/rotate", {"overlap_seconds": 600})
    assert rotated.status_code == 200
    body = rotated.json()
    assert body["secret"] != sub["secret"] and body["previous_secret_expires_at"]
    stored = Subscription.objects.get(id=sub["id"])
    from webhooks.delivery import signing_secrets

    assert signing_secrets(stored) == [body["secret"], sub["secret"]]
    now = alice.post(f"/webhooks/{sub['id']}/rotate", {"overlap_seconds": 0}).json()
    assert now["previous_secret_expires_at"] is None
    assert signing_secrets(Subscription.objects.get(id=sub["id"])) == [now["secret"]]
    bad = alice.post(f"/webhooks/{sub['id']}/rotate", {"overlap_seconds": -1})
    assert bad.json()["code"] == "invalid"


def test_test_message_delivery_log_and_redeliver(alice, bob, mallory) -> None:
    sub = create(alice).json()
    sent = alice.post(f"/webhooks/{sub['id']}/test")
    assert sent.status_code == 202
    delivery = sent.json()
    assert delivery["type"] == "webhook.test" and delivery["status"] == "pending"
    assert (
        delivery["message_id"].startswith("msg_")
        and delivery["payload"]["id"] == delivery["message_id"]
    )
    log = alice.get(f"/webhooks/{sub['id']}/deliveries").json()
    assert [d["id"] for d in log["deliveries"]] == [delivery["id"]] and not log["has_more"]
    Delivery.objects.filter(id=delivery["id"]).update(status="failed", attempts=3)
    again = alice.post(f"/webhooks/{sub['id']}/deliveries/{delivery['id']}/redeliver")
    assert again.status_code == 202
    assert again.json()["status"] == "pending"
    assert again.json()["message_id"] == delivery["message_id"]
    missing = alice.post(f"/webhooks/{sub['id']}/deliveries/999999/redeliver")
    assert (missing.status_code, missing.json()["code"]) == (404, "delivery_not_found")
    junk = alice.post(f"/webhooks/{sub['id']}/deliveries/x/redeliver")
    assert junk.json()["code"] == "delivery_not_found"
    other = mallory.post(f"/webhooks/{sub['id']}/deliveries/{delivery['id']}/redeliver")
    assert other.json()["code"] == "webhook_not_found"
    assert alice.get(f"/webhooks/{sub['id']}/deliveries", status="nope").json()["code"] == (
        "invalid"
    )
    assert alice.get("/webhooks/not-a-uuid/deliveries").json()["code"] == "webhook_not_found"
    patch(alice, f"/webhooks/{sub['id']}", {"active": False})
    off = alice.post(f"/webhooks/{sub['id']}/test")
    assert (off.status_code, off.json()["code"]) == (409, "webhook_disabled")
    assert alice.post(f"/webhooks/{sub['id']}/test", {"x": 1}).json()["code"] == "invalid"


def test_a_game_fills_the_delivery_log(alice, bob, transactional_db) -> None:
    from tests.api.helpers import create_table, seat_all, start

    sub = create(alice, kinds=["table.filled", "turn.started"]).json()
    table = create_table(alice, seats=2)
    seat_all(table["id"], bob)
    start(alice, table["id"])
    relay_all()
    log = alice.get(f"/webhooks/{sub['id']}/deliveries", limit=1).json()
    assert log["has_more"]
    first = log["deliveries"][0]
    assert first["game_id"] == table["id"] and first["status"] == "pending"
    assert first["payload"]["data"]["game_id"] == table["id"]
    older = alice.get(f"/webhooks/{sub['id']}/deliveries", before=first["id"]).json()
    assert {d["type"] for d in older["deliveries"]} <= {"table.filled", "turn.started"}
    assert "table.filled" in {d["type"] for d in [first, *older["deliveries"]]}


def test_the_schema_documents_every_webhook_operation_and_code(alice) -> None:
    schema = alice.client.get("/api/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    doc = json.loads(schema.content)
    ops = {
        op["operationId"]: op
        for path, methods in doc["paths"].items()
        if path.startswith("/api/v1/webhooks")
        for op in methods.values()
        if isinstance(op, dict) and "operationId" in op
    }
    assert set(ops) == {
        "webhooks_list",
        "webhooks_create",
        "webhooks_retrieve",
        "webhooks_update",
        "webhooks_destroy",
        "webhooks_rotate_secret",
        "webhooks_test",
        "webhooks_deliveries_list",
        "webhooks_redeliver",
    }
    assert "webhook_url_refused" in ops["webhooks_create"]["responses"]["422"]["description"]
    assert "delivery_not_found" in ops["webhooks_redeliver"]["responses"]["404"]["description"]
