from django.urls import path, re_path
from drf_spectacular.renderers import OpenApiJsonRenderer, OpenApiYamlRenderer
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from season.api import views

urlpatterns = [
    # The schema in JSON by default (?format=yaml, or Accept: application/yaml, for YAML).
    path(
        "schema/",
        SpectacularAPIView.as_view(renderer_classes=[OpenApiJsonRenderer, OpenApiYamlRenderer]),
        name="api-schema",
    ),
    # Swagger UI from our static files (drf-spectacular-sidecar), its start script a file of
    # its own: the site's Content-Security-Policy allows scripts from this site only.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="api/swagger_ui.html"
        ),
        name="api-docs",
    ),
    path("seasons/", views.SeasonList.as_view(), name="api-seasons"),
    path("seasons/<slug:slug>/", views.SeasonDetail.as_view(), name="api-season"),
    path("seasons/<slug:slug>/calendar/", views.SeasonCalendar.as_view(), name="api-calendar"),
    path("seasons/<slug:slug>/competitors/", views.Competitors.as_view(), name="api-competitors"),
    path("seasons/<slug:slug>/tables/<str:table>/", views.SeasonTable.as_view(), name="api-table"),
    path("seasons/<slug:slug>/rounds/<int:number>/", views.RoundDetail.as_view(), name="api-round"),
    path(
        "seasons/<slug:slug>/rounds/<int:number>/results/",
        views.RoundResults.as_view(),
        name="api-round-results",
    ),
    path(
        "seasons/<slug:slug>/rounds/<int:number>/standings/<str:table>/",
        views.RoundStanding.as_view(),
        name="api-round-standing",
    ),
    path(
        "seasons/<slug:slug>/rounds/<int:number>/events/",
        views.RoundEvents.as_view(),
        name="api-round-events",
    ),
    path(
        "seasons/<slug:slug>/rounds/<int:number>/dice/",
        views.RoundDice.as_view(),
        name="api-round-dice",
    ),
    re_path(r"^(?P<rest>.*)$", views.not_found),
]
