import pytest

from tests.factories import SeasonFactory, UserFactory


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_home_and_admin_render_in_chromium_without_console_errors(live_server, page, screenshot):
    SeasonFactory(name="Chromium League")
    UserFactory(username="admin", is_staff=True, is_superuser=True)

    page.goto(live_server.url + "/")
    assert page.locator("h1").inner_text() == "Racing seasons among friends"
    assert page.locator("#rules-links a").count() == 4  # every game's rules
    assert "Chromium League" in page.content()
    screenshot(page, "home")

    page.goto(live_server.url + "/admin/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "pass-for-tests")
    page.click("input[type=submit]")
    page.wait_for_url(live_server.url + "/admin/")
    assert "Riders" in page.content()
    screenshot(page, "admin-index")
    assert page.console_errors == []
