"""The embedded default's result backend: Celery's file-system backend in a folder it makes.

The odds of a round (season/services/odds.py) fan out as a chord, and a chord needs a result
backend to know when its chunks are all back. With REDIS_URL, Redis keeps the results; without
it, files under CELERY_FILESYSTEM_DIR/results do, shared by the web process and the local
worker. Celery's own backend refuses a folder that does not exist yet: this one makes it first,
in whichever process starts first.
"""

from pathlib import Path
from typing import Any

from celery.backends.filesystem import FilesystemBackend
from django.conf import settings


class FolderBackend(FilesystemBackend):  # type: ignore[misc]
    def __init__(self, url: str | None = None, *args: Any, **kwargs: Any) -> None:
        folder = Path(settings.CELERY_FILESYSTEM_DIR) / "results"
        folder.mkdir(parents=True, exist_ok=True)
        super().__init__(url or f"file://{folder}", *args, **kwargs)
