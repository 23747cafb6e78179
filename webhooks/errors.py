"""The webhooks' refusal codes, each with its HTTP status (gathered in ``api.errors``)."""

from __future__ import annotations

from games.errors import Code

WEBHOOKS: dict[str, Code] = {
    "webhook_not_found": Code(404, "You have no webhook subscription with that id."),
    "delivery_not_found": Code(404, "That subscription has no delivery with that id."),
    "webhook_url_refused": Code(
        422,
        "The endpoint URL is refused (`extra.reason`): it resolves to a loopback, private, "
        "link-local or metadata address, does not resolve, or is not http(s).",
    ),
    "too_many_webhooks": Code(
        409, "You have as many webhook subscriptions as allowed (`extra.limit`)."
    ),
    "webhook_disabled": Code(
        409, "The subscription is disabled; enable it first (`PATCH active: true`)."
    ),
}
