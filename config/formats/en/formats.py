# The short dates of calendars and deadlines (settings.FORMAT_MODULE_PATH): "Sat 1 Jul",
# "Sat 1 Jul 20:00". Every other format is Django's English one.
SHORT_DATE_FORMAT = "D j M"
SHORT_DATETIME_FORMAT = "D j M H:i"
