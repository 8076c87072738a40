"""What motor tells the apps built on it, which it never imports (the layers: season imports
motor, never the reverse)."""

from django.dispatch import Signal

#: Sent inside track_version_apply's transaction once an admin moved leagues' unraced Grands
#: Prix to another version of a track: ``track`` (the version now raced), ``events`` (the
#: Grands Prix moved) and ``by`` (the admin, or None). season writes each league's history.
track_version_applied = Signal()
