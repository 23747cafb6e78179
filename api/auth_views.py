"""Sign-up, tokens for API clients, sessions for the browser."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model, login, logout
from django.db import transaction
from django.middleware.csrf import get_token
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.authentication import CSRFCheck, SessionAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from api import schema
from api.base import ApiView
from api.errors import ApiError
from api.serializers import (
    CredentialsSerializer,
    RegisteredSerializer,
    RegisterSerializer,
    SessionSerializer,
    TokenSerializer,
    UserSerializer,
)
from api.signin import authenticated
from api.throttles import AUTH_THROTTLES


def user_document(user: Any) -> dict[str, Any] | None:
    if user is None or not user.is_authenticated:
        return None
    return {"id": user.pk, "username": user.get_username(), "is_staff": bool(user.is_staff)}


def registered(data: Any) -> tuple[Any, Token]:
    """A new account and its API token from a body of credentials, or DRF's
    ``ValidationError`` (for the API and for the sign-up page's form alike)."""
    body = RegisterSerializer(data=data)
    body.is_valid(raise_exception=True)
    with transaction.atomic():
        user = get_user_model().objects.create_user(
            username=body.validated_data["username"],
            password=body.validated_data["password"],
        )
        token = Token.objects.create(user=user)
    return user, token


class RegisterView(ApiView):
    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = AUTH_THROTTLES

    @extend_schema(
        tags=["auth"],
        summary="Create an account; returns its API token",
        description="Passwords go through Django's validators (8+ characters, not common, "
        "not all digits); a taken username (in any case) is 400 `invalid`.",
        request=RegisterSerializer,
        examples=[schema.CREDENTIALS_EXAMPLE],
        responses={201: RegisteredSerializer},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        user, token = registered(request.data)
        return Response(
            {"token": token.key, "user": user_document(user)}, status=status.HTTP_201_CREATED
        )


class TokenView(ApiView):
    """POST: sign in for an API token (open to all). DELETE: revoke your token."""

    def get_authenticators(self):  # type: ignore[no-untyped-def]
        # Signing in needs no credentials but the body's: a stale or bad token sent along
        # must not turn it into a 401.
        if getattr(getattr(self, "request", None), "method", None) == "POST":
            return []
        return super().get_authenticators()

    def get_permissions(self):  # type: ignore[no-untyped-def]
        return [AllowAny()] if self.request.method == "POST" else super().get_permissions()

    def get_throttles(self):  # type: ignore[no-untyped-def]
        return [t() for t in AUTH_THROTTLES] if self.request.method == "POST" else []

    @extend_schema(
        tags=["auth"],
        summary="Exchange a username and password for an API token",
        description="Send the token as `Authorization: Token <token>` (or `Bearer "
        "<token>`) on every request. Failed sign-ins are counted per username from your "
        "address and per address (docs/api.md, Sign-in limits): over either, 429 "
        "`too_many_failed_sign_ins` with `Retry-After`, whatever the password.",
        request=CredentialsSerializer,
        examples=[schema.CREDENTIALS_EXAMPLE],
        responses={200: TokenSerializer},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        user = authenticated(request)
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})

    @extend_schema(
        tags=["auth"],
        summary="Revoke your API token (every client using it is signed out)",
        description="No body. Sign in again for a new token.",
        request=None,
        responses={204: None},
    )
    def delete(self, request: Request) -> Response:
        Token.objects.filter(user=request.user.pk).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class SessionView(ApiView):
    """Session sign-in for the browser. GET sets the CSRF cookie and returns the token;
    POST (signing in) checks it too, so no other site can sign a browser in."""

    permission_classes = (AllowAny,)

    def get_authenticators(self):  # type: ignore[no-untyped-def]
        # The browser's session only: a token header (bad or not) plays no part here, and
        # signing in (POST) checks its CSRF token itself.
        if getattr(getattr(self, "request", None), "method", None) == "POST":
            return []
        return [SessionAuthentication()]

    @extend_schema(
        tags=["auth"],
        summary="The signed-in user (or null) and a CSRF token; sets the csrftoken cookie",
        description="For the browser: send the token back as `X-CSRFToken` when signing in "
        "and on every unsafe request made with the session cookie.",
        responses={200: SessionSerializer},
        auth=[],
    )
    def get(self, request: Request) -> Response:
        return Response({"user": user_document(request.user), "csrf_token": get_token(request)})

    @extend_schema(
        tags=["auth"],
        summary="Sign in with a session cookie (browser); needs the X-CSRFToken header",
        description="Sets the session cookie; the CSRF token rotates (read the new one from "
        "the answer). Limited like POST /auth/token (429 `too_many_failed_sign_ins`).",
        request=CredentialsSerializer,
        examples=[schema.CREDENTIALS_EXAMPLE],
        responses={200: SessionSerializer},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        self._enforce_csrf(request)
        user = authenticated(request)
        login(request._request, user)
        return Response({"user": user_document(user), "csrf_token": get_token(request)})

    @extend_schema(
        tags=["auth"],
        summary="Sign out of the session",
        description="No body; needs the `X-CSRFToken` header.",
        request=None,
        responses={204: None},
    )
    def delete(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise ApiError("not_authenticated")
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def get_throttles(self):  # type: ignore[no-untyped-def]
        return [t() for t in AUTH_THROTTLES] if self.request.method == "POST" else []

    @staticmethod
    def _enforce_csrf(request: Request) -> None:
        check = CSRFCheck(lambda req: None)  # type: ignore[arg-type]
        check.process_request(request._request)
        reason = check.process_view(request._request, None, (), {})  # type: ignore[arg-type]
        if reason:
            raise ApiError("csrf_failed", f"CSRF Failed: {reason}")


class MeView(ApiView):
    @extend_schema(
        tags=["auth"],
        summary="The signed-in user",
        description="Your id, username and whether you are staff.",
        responses={200: UserSerializer},
    )
    def get(self, request: Request) -> Response:
        return Response(user_document(request.user))
