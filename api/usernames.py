"""Usernames that look alike are one username.

Django stores usernames NFKC-normalised (``AbstractUser.normalize_username``), which folds
fullwidth and compatibility forms; what it leaves is case, letters of other scripts that
have Latin twins (Cyrillic ``а``, Greek ``ο``) and the digit/letter pairs ``0``/``O`` and
``1``/``l`` (``I`` and ``l`` stay apart: folding them would merge ``i`` with ``l`` too).
A new username is refused when its skeleton (confusables mapped, then upper-cased) equals
an existing one's. The comparison runs in PostgreSQL on both sides with the same map, so
the two never disagree; it scans the users table, which sign-up's rate limits keep cheap
enough (an expression index on the skeleton would make it a lookup).
"""

from __future__ import annotations

import hashlib
import unicodedata

from django.contrib.auth import get_user_model
from django.db.models import F, Func, Value
from django.db.models.functions import Upper

# Each character on the left reads as the one under it on the right (a small subset of
# Unicode's confusables.txt: the letters of Cyrillic and Greek that have Latin twins).
_CONFUSABLE = (
    "аеорсухіјѕԁԛԝһӏ"  # Cyrillic small
    "АВЕКМНОРСТХУІЈЅ"  # Cyrillic capital
    "οαικνρτυχ"  # Greek small
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ"  # Greek capital
    "ı01"  # dotless i, zero, one
)
_LATIN = "aeopcyxijsdqwhlABEKMHOPCTXYIJSoaikvptuxABEZHIKMNOPTYXiol"
assert len(_CONFUSABLE) == len(_LATIN)  # noqa: S101 - a typo here would shift the map
_TABLE = str.maketrans(_CONFUSABLE, _LATIN)


def normalize(username: str) -> str:
    """As Django stores it (NFKC)."""
    return unicodedata.normalize("NFKC", username)


def username_key(username: str) -> str:
    """A short stable key for counting attempts per username (rate limits): the skeleton,
    hashed so any string makes a safe cache key."""
    skeleton = normalize(username).translate(_TABLE).casefold()
    return hashlib.sha256(skeleton.encode()).hexdigest()[:32]


def _skeleton(expression: F | Value) -> Upper:
    return Upper(Func(expression, Value(_CONFUSABLE), Value(_LATIN), function="translate"))


def taken(username: str) -> bool:
    """Whether a user exists whose username looks like ``username``."""
    users = get_user_model()
    field = users.USERNAME_FIELD
    return bool(
        users._default_manager.annotate(fb_skeleton=_skeleton(F(field)))
        .filter(fb_skeleton=_skeleton(Value(normalize(username))))
        .exists()
    )
