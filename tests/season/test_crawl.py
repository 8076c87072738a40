"""A visitor following links from the home page never meets a server error."""

import re
from urllib.parse import urljoin, urlparse

import pytest
from django.core.management import call_command

from season.demo import demo_load

LINK = re.compile(r'href="([^"#]+)"')
MAX_PAGES = 400


@pytest.mark.django_db
def test_following_every_link_from_the_home_page_meets_no_server_error(client):
    demo_load()
    call_command("simulate_season", "demo", "--stages", "1-2", "--in-process", verbosity=0)
    seen = {"/"}
    queue = ["/"]
    visited = 0
    while queue and visited < MAX_PAGES:
        url = queue.pop(0)
        response = client.get(url)
        visited += 1
        assert response.status_code < 500, url
        assert response.status_code in (200, 301, 302, 404), (url, response.status_code)
        if "text/html" not in response.get("Content-Type", ""):
            continue
        for href in LINK.findall(response.content.decode()):
            target = urljoin(url, href.replace("&amp;", "&"))
            parsed = urlparse(target)
            if parsed.netloc or parsed.path.startswith(("/static/", "/admin/")):
                continue
            if "_export=" in parsed.query:
                continue
            # Sorting and paging links multiply endlessly: keep the first one of each page.
            key = parsed.path + ("?" + parsed.query if parsed.query else "")
            if parsed.query and any(k.startswith(parsed.path + "?") for k in seen):
                continue
            if key not in seen:
                seen.add(key)
                queue.append(key)
    assert visited > 50
