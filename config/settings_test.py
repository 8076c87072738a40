"""Test override: the same settings, made fast and self-contained."""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
CELERY_TASK_ALWAYS_EAGER = True
STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}
LOGGING["root"] = {"handlers": ["console"], "level": "WARNING"}  # noqa: F405
# Each test process keeps its pages in its own memory, even where REDIS_URL is set (the
# redis-marked tests of the page cache choose Redis themselves).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
