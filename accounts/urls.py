from django.contrib.auth.views import LoginView
from django.urls import include, path, reverse_lazy

from accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    # After logging in without a "next", a player lands on his seasons.
    path("login/", LoginView.as_view(next_page=reverse_lazy("my-seasons")), name="login"),
    path("notifications/", views.notification_settings, name="notification-settings"),
    path("api/", views.api_token, name="api-token"),
    path("password_reset/", views.LimitedPasswordResetView.as_view(), name="password_reset"),
    path("", include("django.contrib.auth.urls")),
]
