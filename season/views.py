from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from season.selectors import season_list_public


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "season/home.html", {"seasons": season_list_public()})
