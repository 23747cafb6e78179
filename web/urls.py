from django.urls import path

from web import tournaments, views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("signup", views.signup, name="signup"),
    path("login", views.login_page, name="login"),
    path("lobby", views.lobby, name="lobby"),
    path("games/<uuid:game_id>", views.game, name="game"),
    path("games/<uuid:game_id>/replay", views.replay, name="replay"),
    path("games/<slug:name>/rules", views.rules, name="rules"),
    path("players/<str:username>", views.player, name="player"),
    path("tournaments", tournaments.tournament_list, name="tournaments"),
    path("tournaments/<uuid:tournament_id>", tournaments.tournament, name="tournament"),
]
