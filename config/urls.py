from django.contrib import admin
from django.urls import include, path

from accounts import views as accounts_views

urlpatterns = [
    path("favicon.ico", accounts_views.favicon),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", accounts_views.set_language, name="set_language"),
    path("accounts/", include("accounts.urls")),
    path("api/", include("season.api.urls")),
    path("championships/", include("motor.urls")),
    path("", include("season.urls")),
]

# The site's missing page: the way home and the reader's leagues.
handler404 = "season.views.public.page_not_found"
