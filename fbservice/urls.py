from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("api.urls")),
    path("", include("web.urls")),
]

# Django's own 400/404/500 answers in the API's envelope on API paths (api/handlers.py).
handler400 = "api.handlers.bad_request"
handler404 = "api.handlers.not_found"
handler500 = "api.handlers.server_error"
