"""The webhooks' refusal codes and their HTTP statuses (registered in ``api.errors``)."""

from __future__ import annotations

CODES: dict[str, str] = {
    "webhook_not_found": "You have no webhook subscription with that id.",
    "delivery_not_found": "That subscription has no delivery with that id.",
    "webhook_url_refused": "The endpoint URL is refused (`extra.reason`: a private, loopback, "
    "link-local or metadata address, no such host, or not http(s)).",
    "too_many_webhooks": "You have as many webhook subscriptions as allowed (`extra.limit`).",
    "webhook_disabled": "The subscription is disabled; enable it first (PATCH active: true).",
}

STATUS: dict[str, int] = {
    "webhook_not_found": 404,
    "delivery_not_found": 404,
    "webhook_url_refused": 422,
    "too_many_webhooks": 409,
    "webhook_disabled": 409,
}
