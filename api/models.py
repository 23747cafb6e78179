"""What the API itself keeps: the hits its shared rate limits count (``api.limits``)."""

from __future__ import annotations

from django.db import models


class LimitHit(models.Model):
    """One counted request of a shared limit (a failed sign-in, an attempt to sign up or
    in) of ``scope``, by ``key`` (a client address) and ``sub`` (for a sign-in, a digest of
    the username: never the name as typed, which may be a password typed in the wrong
    box). A limit counts the hits of a key, or of a key and sub, within its window. In
    PostgreSQL, so every web process counts the same hits."""

    scope = models.CharField(max_length=32)
    key = models.CharField(max_length=100)
    sub = models.CharField(max_length=64, blank=True, default="")
    at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["scope", "key", "sub", "at"], name="api_limithit_count"),
            models.Index(fields=["scope", "at"], name="api_limithit_expiry"),
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.key} {self.sub} at {self.at:%Y-%m-%d %H:%M:%S}"
