"""Motor names in the reader's language (motor/place_names.py): ``{{ gp.name|place }}``,
``{{ track.name|track_title }}``, ``{{ corner.name|corner }}``."""

from django import template

from motor.place_names import corner_name, place_name, track_title

register = template.Library()

register.filter("place", place_name)
register.filter("track_title", track_title)
register.filter("corner", corner_name)
