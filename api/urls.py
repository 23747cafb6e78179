from django.urls import path

from api import views

urlpatterns = [
    path("healthz", views.HealthView.as_view(), name="healthz"),
]
