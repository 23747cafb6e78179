"""What every page's template may read besides its own context."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, str]:
    """The site's name (``FB_SITE_NAME``): the header's brand and the pages' titles. It names
    no game: the service hosts several, and each game's pages show its own title."""
    return {"site_name": str(settings.FB_SITE_NAME)}
