"""The admin in French (issue 17): every model of the apps and every field a person edits or
reads in the admin has a name marked for translation (gettext_lazy), so the French catalogue
names them; a name left out would show in English whatever the language."""

import pytest
from django.apps import apps
from django.utils.functional import Promise

APPS = ("accounts", "riders", "races", "motor", "season")


def _models():
    return [model for label in APPS for model in apps.get_app_config(label).get_models()]


@pytest.mark.parametrize("model", _models(), ids=lambda m: m._meta.label)
def test_every_model_and_field_has_a_translated_name(model):
    meta = model._meta
    assert isinstance(meta.verbose_name, Promise), f"{meta.label}: verbose_name"
    assert isinstance(meta.verbose_name_plural, Promise), f"{meta.label}: verbose_name_plural"
    for field in meta.get_fields():
        if field.auto_created or not field.concrete:
            continue
        assert isinstance(field.verbose_name, Promise), f"{meta.label}.{field.name}"
