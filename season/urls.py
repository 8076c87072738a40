from django.urls import path

from season import views

urlpatterns = [
    path("", views.home, name="home"),
]
