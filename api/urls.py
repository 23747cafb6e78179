from django.conf import settings
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularSwaggerView

from api import (
    auth_views,
    game_views,
    mark_views,
    metrics_views,
    player_views,
    review_views,
    standing_views,
    table_views,
    tournament_views,
    views,
    webhook_views,
)
from api.feed import views as feed_views

v1 = [
    path("auth/register", auth_views.RegisterView.as_view(), name="register"),
    path("auth/token", auth_views.TokenView.as_view(), name="token"),
    path("auth/session", auth_views.SessionView.as_view(), name="session"),
    path("auth/me", auth_views.MeView.as_view(), name="me"),
    path("tables", table_views.TableListView.as_view(), name="tables"),
    path("tables/<str:table_id>", table_views.TableDetailView.as_view(), name="table"),
    path("tables/<str:table_id>/join", table_views.TableJoinView.as_view(), name="table-join"),
    path("tables/<str:table_id>/leave", table_views.TableLeaveView.as_view(), name="table-leave"),
    path("tables/<str:table_id>/bots", table_views.TableBotView.as_view(), name="table-bots"),
    path("tables/<str:table_id>/start", table_views.TableStartView.as_view(), name="table-start"),
    path("games/<str:game_id>", game_views.GameView.as_view(), name="game"),
    path("games/<str:game_id>/commands", game_views.CommandView.as_view(), name="game-commands"),
    path("games/<str:game_id>/resign", game_views.ResignView.as_view(), name="game-resign"),
    path("games/<str:game_id>/claim", game_views.ClaimView.as_view(), name="game-claim"),
    path("games/<str:game_id>/undo", game_views.UndoView.as_view(), name="game-undo"),
    path(
        "games/<str:game_id>/takeback/<str:request_id>",
        game_views.TakebackView.as_view(),
        name="game-takeback",
    ),
    path(
        "games/<str:game_id>/standing",
        standing_views.StandingView.as_view(),
        name="game-standing",
    ),
    # The feed's waiting routes are async (api.feed.views); the DRF classes document them.
    path(
        "games/<str:game_id>/events",
        feed_views.served_by(game_views.FeedView, feed_views.feed),  # type: ignore[arg-type]
        name="game-events",
    ),
    path(
        "games/<str:game_id>/events/stream",
        feed_views.served_by(game_views.FeedStreamView, feed_views.feed_stream),  # type: ignore[arg-type]
        name="game-events-stream",
    ),
    path("games/<str:game_id>/replay", game_views.ReplayView.as_view(), name="game-replay"),
    path("games/<str:game_id>/marks", mark_views.MarksView.as_view(), name="game-marks"),
    path("games/<str:game_id>/audit", game_views.AuditView.as_view(), name="game-audit"),
    path("games/<str:game_id>/export", game_views.ExportView.as_view(), name="game-export"),
    path("games/<str:game_id>/sandbox", game_views.SandboxView.as_view(), name="game-sandbox"),
    path("tournaments", tournament_views.TournamentListView.as_view(), name="tournaments"),
    path(
        "tournaments/<str:tournament_id>",
        tournament_views.TournamentView.as_view(),
        name="tournament",
    ),
    path(
        "tournaments/<str:tournament_id>/entries",
        tournament_views.RegisterView.as_view(),
        name="tournament-entries",
    ),
    path(
        "tournaments/<str:tournament_id>/withdraw",
        tournament_views.WithdrawView.as_view(),
        name="tournament-withdraw",
    ),
    path(
        "tournaments/<str:tournament_id>/rounds",
        tournament_views.RoundStartView.as_view(),
        name="tournament-rounds",
    ),
    path(
        "tournaments/<str:tournament_id>/pairings",
        tournament_views.PairingsView.as_view(),
        name="tournament-pairings",
    ),
    path(
        "tournaments/<str:tournament_id>/flags",
        tournament_views.FlagsView.as_view(),
        name="tournament-flags",
    ),
    path(
        "tournaments/<str:tournament_id>/flags/<int:flag>/close",
        tournament_views.FlagCloseView.as_view(),
        name="tournament-flag-close",
    ),
    path(
        "tournaments/<str:tournament_id>/queue",
        tournament_views.QueueView.as_view(),
        name="tournament-queue",
    ),
    path(
        "tournaments/<str:tournament_id>/export",
        tournament_views.ExportView.as_view(),
        name="tournament-export",
    ),
    path("players/<str:username>", player_views.PlayerView.as_view(), name="player"),
    path("webhooks", webhook_views.WebhookListView.as_view(), name="webhooks"),
    path("webhooks/<str:webhook_id>", webhook_views.WebhookDetailView.as_view(), name="webhook"),
    path(
        "webhooks/<str:webhook_id>/rotate",
        webhook_views.WebhookRotateView.as_view(),
        name="webhook-rotate",
    ),
    path(
        "webhooks/<str:webhook_id>/test",
        webhook_views.WebhookTestView.as_view(),
        name="webhook-test",
    ),
    path(
        "webhooks/<str:webhook_id>/deliveries",
        webhook_views.WebhookDeliveriesView.as_view(),
        name="webhook-deliveries",
    ),
    path(
        "webhooks/<str:webhook_id>/deliveries/<str:delivery_id>/redeliver",
        webhook_views.WebhookRedeliverView.as_view(),
        name="webhook-redeliver",
    ),
    path(
        "games/<str:game_id>/annotations",
        review_views.AnnotationsView.as_view(),
        name="game-annotations",
    ),
    path("games/<str:game_id>/rulings", review_views.RulingsView.as_view(), name="game-rulings"),
    path("schema", views.SchemaView.as_view(), name="schema"),
    path("docs", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
]
if settings.FB_BENCH_ENDPOINTS:  # benchmark-only (bench.api_load); off by default
    from api import bench_views

    v1.append(path("bench/bare", bench_views.BareView.as_view(), name="bench-bare"))
v1 += [
    # Anything else under /api/v1/ is a 404 in the API's envelope, not an HTML page; a
    # path with a newline in it (%0A) too, which "." would not match.
    re_path(r"^[\s\S]*$", views.NotFoundView.as_view(), name="not-found"),
]

urlpatterns = [
    path("healthz", views.HealthView.as_view(), name="healthz"),
    path("metrics", metrics_views.MetricsView.as_view(), name="metrics"),
    path("api/v1/", include((v1, "api"), namespace="api")),
]
