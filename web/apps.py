from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Play-by-web and replay pages"
