"""Webhook subscriptions over HTTP (docs/webhooks.md): register, list, show, change,
delete, rotate the secret, send a test message, the delivery log, redeliver.

Thin views: each validates its input and calls one service of ``webhooks.services``;
another user's subscription is a 404 like a missing one.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import ApiView
from api.serializers import (
    NoNulValidator,
    QuerySerializer,
    Serializer,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
)
from webhooks import services
from webhooks.models import KINDS, Attempt, Delivery, Subscription

MAX_OVERLAP_SECONDS = 7 * 24 * 3600


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


WEBHOOK_ID = OpenApiParameter(
    "webhook_id",
    type={"type": "string", "format": "uuid"},
    location=OpenApiParameter.PATH,
    description="The subscription's id.",
)
DELIVERY_ID = OpenApiParameter(
    "delivery_id",
    type={"type": "integer", "minimum": 1},
    location=OpenApiParameter.PATH,
    description="The delivery's id (from the delivery log).",
)


# --- request bodies ------------------------------------------------------------------------


class KindsField(serializers.ListField):
    child = serializers.ChoiceField(choices=list(KINDS))

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_length=1, max_length=len(KINDS), **kwargs)


class WebhookUrlField(StrictCharField):
    """A subscription's URL: any string up to 2,000 characters reaches the SSRF guard,
    which refuses what is not a public http(s) URL with 422 webhook_url_refused, blank
    ones and NUL included (schemathesis: a URL the schema allows is never a 400)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=2000, allow_blank=True, **kwargs)
        self.validators = [v for v in self.validators if not isinstance(v, NoNulValidator)]


class SubscriptionCreateSerializer(StrictSerializer):
    # Checked by the SSRF guard (422 webhook_url_refused), not by a URL pattern: any URL
    # the schema calls valid gets a coded answer.
    url = WebhookUrlField(help_text="An http(s) URL whose host resolves to public addresses.")
    kinds = KindsField(help_text="What to be told of (docs/webhooks.md#kinds).")
    scope = serializers.ChoiceField(
        choices=["own", "service"],
        default="own",
        help_text="`own`: your games as your seat sees them; `service` (staff only): "
        "every game as a spectator sees it.",
    )
    description = StrictCharField(max_length=200, required=False, allow_blank=True)


class SubscriptionUpdateSerializer(StrictSerializer):
    url = WebhookUrlField(required=False)
    kinds = KindsField(required=False)
    description = StrictCharField(max_length=200, required=False, allow_blank=True)
    active = StrictBooleanField(
        required=False,
        help_text="false disables it; true enables it again (held "
        "deliveries then go out in order).",
    )


class RotateSerializer(StrictSerializer):
    overlap_seconds = StrictIntegerField(
        min_value=0,
        max_value=MAX_OVERLAP_SECONDS,
        required=False,
        help_text="How long the old secret keeps signing too (default 24 h; 0: at once).",
    )


class DeliveryQuerySerializer(QuerySerializer):
    status = serializers.ChoiceField(choices=["pending", "delivered", "failed"], required=False)
    before = serializers.IntegerField(
        min_value=1,
        max_value=2**62,
        required=False,
        help_text="Deliveries with a smaller id (paging).",
    )
    limit = serializers.IntegerField(min_value=1, max_value=200, default=50)


# --- response shapes -----------------------------------------------------------------------


class SubscriptionSerializer(Serializer):
    id = serializers.UUIDField()
    url = serializers.URLField()
    kinds = serializers.ListField(child=serializers.ChoiceField(choices=list(KINDS)))
    scope = serializers.ChoiceField(choices=["own", "service"])
    description = serializers.CharField()
    active = serializers.BooleanField()
    disabled_reason = serializers.CharField(
        allow_null=True, help_text="Why it was disabled (failing deliveries, or its owner)."
    )
    disabled_at = serializers.DateTimeField(allow_null=True)
    previous_secret_expires_at = serializers.DateTimeField(
        allow_null=True, help_text="After a rotation: until then the old secret signs too."
    )
    created_at = serializers.DateTimeField()
    secret = serializers.CharField(
        required=False,
        help_text="`whsec_...`: only in the answers to create and rotate. Keep it secret.",
    )

    class Meta:
        ref_name = "WebhookSubscription"


class SubscriptionListSerializer(Serializer):
    webhooks = SubscriptionSerializer(many=True)


class AttemptSerializer(Serializer):
    number = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    duration_ms = serializers.IntegerField()
    status_code = serializers.IntegerField(allow_null=True)
    error = serializers.CharField(allow_null=True)
    response = serializers.CharField(help_text="The start of the receiver's answer.")


class DeliverySerializer(Serializer):
    id = serializers.IntegerField()
    message_id = serializers.CharField(
        help_text="The `webhook-id` header: the same on every attempt."
    )
    type = serializers.CharField(help_text="turn.started, ..., game.event or webhook.test.")
    game_id = serializers.UUIDField(allow_null=True)
    seq = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=["pending", "delivered", "failed"])
    attempts = serializers.IntegerField()
    next_attempt_at = serializers.DateTimeField(allow_null=True, help_text="While pending.")
    retry_until = serializers.DateTimeField()
    created_at = serializers.DateTimeField()
    delivered_at = serializers.DateTimeField(allow_null=True)
    last_status_code = serializers.IntegerField(allow_null=True)
    last_error = serializers.CharField(allow_null=True)
    payload = serializers.DictField(help_text="The JSON body sent.")
    attempt_log = AttemptSerializer(many=True)

    class Meta:
        ref_name = "WebhookDelivery"


class DeliveryListSerializer(Serializer):
    deliveries = DeliverySerializer(many=True)
    has_more = serializers.BooleanField(help_text="Ask again with before = the last id.")


# --- documents -----------------------------------------------------------------------------


def _when(value: Any) -> str | None:
    return iso(value) if value is not None else None


def subscription_document(sub: Subscription, *, secret: bool = False) -> dict[str, Any]:
    out = {
        "id": str(sub.id),
        "url": sub.url,
        "kinds": list(sub.kinds),
        "scope": sub.scope,
        "description": sub.description,
        "active": sub.active,
        "disabled_reason": sub.disabled_reason or None,
        "disabled_at": _when(sub.disabled_at),
        "previous_secret_expires_at": _when(
            sub.previous_expires_at if sub.previous_secret else None
        ),
        "created_at": iso(sub.created_at),
    }
    if secret:
        out["secret"] = sub.secret
    return out


def _attempt(attempt: Attempt) -> dict[str, Any]:
    return {
        "number": attempt.number,
        "started_at": iso(attempt.started_at),
        "duration_ms": attempt.duration_ms,
        "status_code": attempt.status_code,
        "error": attempt.error or None,
        "response": attempt.response,
    }


def delivery_document(delivery: Delivery) -> dict[str, Any]:
    return {
        "id": delivery.id,
        "message_id": delivery.message_id,
        "type": delivery.kind,
        "game_id": str(delivery.stream_id) if delivery.stream_id else None,
        "seq": delivery.seq if delivery.stream_id else None,
        "status": delivery.status,
        "attempts": delivery.attempts,
        "next_attempt_at": _when(delivery.next_attempt_at)
        if delivery.status == Delivery.PENDING
        else None,
        "retry_until": iso(delivery.retry_until),
        "created_at": iso(delivery.created_at),
        "delivered_at": _when(delivery.delivered_at),
        "last_status_code": delivery.last_status_code,
        "last_error": delivery.last_error or None,
        "payload": json.loads(delivery.body),
        "attempt_log": [_attempt(a) for a in delivery.attempt_set.all()],
    }


def _mine(request: Request, webhook_id: str) -> Subscription:
    return services.subscription_get(owner=request.user, subscription_id=webhook_id)


# --- views ---------------------------------------------------------------------------------

CREATE_EXAMPLE = OpenApiExample(
    "your turns and windows",
    value={"url": "https://push.example.com/fb", "kinds": ["turn.started", "window.opened"]},
    request_only=True,
)


class WebhookListView(ApiView):
    @extend_schema(
        tags=["webhooks"],
        summary="Your webhook subscriptions",
        responses={200: SubscriptionListSerializer},
    )
    def get(self, request: Request) -> Response:
        subs = services.subscriptions_of(owner=request.user)
        return Response({"webhooks": [subscription_document(s) for s in subs]})

    @extend_schema(
        tags=["webhooks"],
        summary="Register an endpoint (answers its signing secret, once)",
        description="The URL must resolve to public addresses only (checked now and at "
        "each delivery). The answer carries the `secret` that signs every delivery.",
        request=SubscriptionCreateSerializer,
        examples=[CREATE_EXAMPLE],
        responses={201: SubscriptionSerializer},
    )
    def post(self, request: Request) -> Response:
        body = SubscriptionCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        sub = services.subscription_create(owner=request.user, **body.validated_data)
        return Response(subscription_document(sub, secret=True), status=status.HTTP_201_CREATED)


class WebhookDetailView(ApiView):
    @extend_schema(
        tags=["webhooks"],
        summary="One subscription (is it active? why was it disabled?)",
        parameters=[WEBHOOK_ID],
        responses={200: SubscriptionSerializer},
    )
    def get(self, request: Request, webhook_id: str) -> Response:
        return Response(subscription_document(_mine(request, webhook_id)))

    @extend_schema(
        tags=["webhooks"],
        summary="Change the URL, kinds or description; disable or enable",
        parameters=[WEBHOOK_ID],
        request=SubscriptionUpdateSerializer,
        examples=[OpenApiExample("enable again", value={"active": True}, request_only=True)],
        responses={200: SubscriptionSerializer},
    )
    def patch(self, request: Request, webhook_id: str) -> Response:
        sub = _mine(request, webhook_id)
        body = SubscriptionUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        sub = services.subscription_update(subscription=sub, **body.validated_data)
        return Response(subscription_document(sub))

    @extend_schema(
        tags=["webhooks"],
        summary="Delete a subscription and its delivery log",
        parameters=[WEBHOOK_ID],
        request=None,
        responses={204: None},
    )
    def delete(self, request: Request, webhook_id: str) -> Response:
        services.subscription_delete(subscription=_mine(request, webhook_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookRotateView(ApiView):
    @extend_schema(
        tags=["webhooks"],
        summary="Rotate the signing secret (the old one overlaps)",
        description="A new secret; for `overlap_seconds` (default 24 h) every delivery "
        "carries a signature by each, so receivers can switch without a gap.",
        parameters=[WEBHOOK_ID],
        request=RotateSerializer,
        examples=[
            OpenApiExample("an hour's overlap", value={"overlap_seconds": 3600}, request_only=True)
        ],
        responses={200: SubscriptionSerializer},
    )
    def post(self, request: Request, webhook_id: str) -> Response:
        sub = _mine(request, webhook_id)
        body = RotateSerializer(data=request.data or {})
        body.is_valid(raise_exception=True)
        sub = services.secret_rotate(
            subscription=sub, overlap_seconds=body.validated_data.get("overlap_seconds")
        )
        return Response(subscription_document(sub, secret=True))


class WebhookTestView(ApiView):
    takes_body = False

    @extend_schema(
        tags=["webhooks"],
        summary="Send a test message (`webhook.test`)",
        description="No body. Delivered, signed, logged and retried like any other.",
        parameters=[WEBHOOK_ID],
        request=None,
        responses={202: DeliverySerializer},
    )
    def post(self, request: Request, webhook_id: str) -> Response:
        delivery = services.test_send(subscription=_mine(request, webhook_id))
        return Response(delivery_document(delivery), status=status.HTTP_202_ACCEPTED)


class WebhookDeliveriesView(ApiView):
    @extend_schema(
        tags=["webhooks"],
        summary="The delivery log: attempts, status codes, timings, next retry",
        description="Newest first.",
        parameters=[WEBHOOK_ID, DeliveryQuerySerializer],
        responses={200: DeliveryListSerializer},
    )
    def get(self, request: Request, webhook_id: str) -> Response:
        sub = _mine(request, webhook_id)
        query = DeliveryQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        limit = params["limit"]
        rows = services.deliveries_of(
            subscription=sub,
            status=params.get("status"),
            before=params.get("before"),
            limit=limit + 1,
        )
        return Response(
            {
                "deliveries": [delivery_document(d) for d in rows[:limit]],
                "has_more": len(rows) > limit,
            }
        )


class WebhookRedeliverView(ApiView):
    takes_body = False

    @extend_schema(
        tags=["webhooks"],
        summary="Send a delivery again (same `webhook-id`)",
        description="No body. It goes out again in its game's order, with the same id and "
        "body, whatever its status.",
        parameters=[WEBHOOK_ID, DELIVERY_ID],
        request=None,
        responses={202: DeliverySerializer},
    )
    def post(self, request: Request, webhook_id: str, delivery_id: str) -> Response:
        sub = _mine(request, webhook_id)
        delivery = services.delivery_get(subscription=sub, delivery_id=delivery_id)
        delivery = services.redeliver(subscription=sub, delivery=delivery)
        return Response(delivery_document(delivery), status=status.HTTP_202_ACCEPTED)
