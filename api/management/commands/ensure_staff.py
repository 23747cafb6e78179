"""Create or update a staff account non-interactively (idempotent).

    python manage.py ensure_staff --username admin --password s3cret
    FB_STAFF_PASSWORD=s3cret python manage.py ensure_staff --username admin

By default the account is also a superuser, so the admin shows every model; pass
--no-superuser for a plain staff account.
"""

from __future__ import annotations

import os
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction


class Command(BaseCommand):
    help = "Create or update a staff user with the given password (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", required=True)
        parser.add_argument(
            "--password",
            default=None,
            help="defaults to the FB_STAFF_PASSWORD environment variable",
        )
        parser.add_argument("--email", default="")
        parser.add_argument(
            "--no-superuser",
            dest="superuser",
            action="store_false",
            help="staff only (default: staff and superuser)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        password = options["password"] or os.environ.get("FB_STAFF_PASSWORD", "")
        if not password:
            raise CommandError("give --password or set FB_STAFF_PASSWORD")
        user_model = get_user_model()
        with transaction.atomic():
            user, created = user_model._default_manager.get_or_create(
                **{user_model.USERNAME_FIELD: options["username"]}
            )
            if options["email"]:
                user.email = options["email"]
            user.is_active = True
            user.is_staff = True
            user.is_superuser = options["superuser"]
            user.set_password(password)
            user.save()
        verb = "created" if created else "updated"
        role = "superuser" if user.is_superuser else "staff user"
        self.stdout.write(self.style.SUCCESS(f"{verb} {role} {options['username']!r}"))
