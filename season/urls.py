from django.urls import path

from season import views

urlpatterns = [
    path("", views.home, name="home"),
    path("seasons/<slug:slug>/", views.season_detail, name="season-detail"),
    path(
        "seasons/<slug:slug>/standings/<str:classification>/",
        views.standings,
        name="season-standings",
    ),
]
