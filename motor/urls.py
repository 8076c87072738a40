from django.urls import path

from motor.views import public

# The real championships' pages (public); a league's championship is shown by its season.
urlpatterns = [
    path("", public.championship_list, name="motor-championships"),
    path("<slug:slug>/", public.championship_detail, name="motor-championship"),
    path("<slug:slug>/rounds/<int:number>/", public.round_detail, name="motor-round"),
    path("<slug:slug>/standings/<str:table>/", public.standings, name="motor-standings"),
    path("<slug:slug>/what-if/<str:table>/", public.what_if, name="motor-what-if"),
    path("<slug:slug>/drivers/<slug:driver>/", public.driver_detail, name="motor-driver"),
    path(
        "<slug:slug>/constructors/<slug:constructor>/",
        public.constructor_detail,
        name="motor-constructor",
    ),
]
