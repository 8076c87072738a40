# Les dates courtes des calendriers et des échéances (settings.FORMAT_MODULE_PATH) :
# "sam. 1 juil.", "sam. 1 juil. 20:00" (Django's "M" gives "Jul" in French; "N" gives "juil.").
# Every other format is Django's French one.
SHORT_DATE_FORMAT = "D. j N"
SHORT_DATETIME_FORMAT = "D. j N H:i"
