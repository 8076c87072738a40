"""The one settings module. Production differs from development only by environment variables.

DATABASE_URL  default sqlite:///db.sqlite3 (the embedded default)
REDIS_URL     Celery broker; without it Celery uses a filesystem broker under var/celery
SECRET_KEY, DEBUG, ALLOWED_HOSTS, EMAIL_URL-like SMTP settings (EMAIL_HOST ...)
"""

from datetime import timedelta
from pathlib import Path

import dj_database_url

from config.env import env_bool, env_float, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

DEBUG = env_bool("DEBUG", default=True)
SECRET_KEY = env_str("SECRET_KEY", "dev-only-secret-key-change-me" if DEBUG else "")
if not SECRET_KEY:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_filters",
    "django_celery_beat",
    "django_htmx",
    "import_export",
    "rules",
    "axes",
    "csp",
    # The read API (season/api): Django REST framework, its OpenAPI 3 schema and the Swagger
    # UI of its docs page served from our static files (docs/api.md).
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "riders",
    "races",
    "motor",
    "season",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Season pages kept whole for anonymous visitors, before sessions (season/cache.py).
    "config.page_cache_middleware.AnonymousPagesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A signed-in member's own language, over the browser's (accounts/language.py).
    "accounts.language.MemberLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.AllowedMethodsMiddleware",
    # Last, as django-axes asks: it turns a lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]
if env_bool("CSP_ENABLED", default=not DEBUG):
    MIDDLEWARE.insert(1, "csp.middleware.CSPMiddleware")

AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out login before any password is checked (django-axes).
    "accounts.backends.LoginThrottleBackend",
    "rules.permissions.ObjectPermissionBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "season.context_processors.notices",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DB_CONN_MAX_AGE", 0),
    )
}
# A worker host that vanishes in the middle of a transaction (power cut, network lost) says
# nothing to PostgreSQL: its session stays open, the round's row locked, until TCP gives up
# (hours). The server ends a session left idle inside a transaction for this long (0: never),
# so that another worker can resolve that round (README, "Workers on other hosts"). Far longer
# than any pause between two statements of the app's transactions.
DB_IDLE_IN_TRANSACTION_SECONDS = env_int("DB_IDLE_IN_TRANSACTION_SECONDS", 60)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and (
    DB_IDLE_IN_TRANSACTION_SECONDS > 0
):
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"]["options"] = (
        f"-c idle_in_transaction_session_timeout={DB_IDLE_IN_TRANSACTION_SECONDS * 1000}"
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves a web process and a worker process on one file.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Paris")
USE_I18N = True
USE_TZ = True
# Short dates per language ("Sat 1 Jul", "sam. 1 juil."): config/formats/<language>/formats.py.
FORMAT_MODULE_PATH = ["config.formats"]

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Grand Tour <noreply@localhost>")

# Celery. Without REDIS_URL the embedded default uses a filesystem broker that a local
# worker process reads (no server to install); with it, Redis is the broker.
REDIS_URL = env_str("REDIS_URL")
# A test runs a whole embedded deployment in a temporary folder of its own.
CELERY_FILESYSTEM_DIR = Path(env_str("CELERY_FILESYSTEM_DIR", str(VAR_DIR / "celery")))
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        # A task whose worker died is redelivered after this many seconds (acks_late).
        "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 120),
        # How often a worker looks for such tasks: every interval x throttle seconds.
        "unacked_restore_interval": env_int("CELERY_UNACKED_RESTORE_INTERVAL", 10),
        "unacked_restore_throttle": env_int("CELERY_UNACKED_RESTORE_THROTTLE", 3),
        # A worker takes a lock in Redis (the "unacked_mutex" key) while it looks for such tasks;
        # a host lost in the middle keeps it until it expires, and no worker restores any task
        # meanwhile: this many seconds instead of kombu's 300 (a look takes milliseconds).
        "unacked_mutex_expire": env_int("CELERY_UNACKED_MUTEX_EXPIRE", 30),
    }
else:
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_FILESYSTEM_DIR / "out"),
        "data_folder_out": str(CELERY_FILESYSTEM_DIR / "out"),
        "processed_folder": str(CELERY_FILESYSTEM_DIR / "processed"),
        "control_folder": str(CELERY_FILESYSTEM_DIR / "control"),
        "store_processed": False,
    }
# A chord (the odds of a round, season/services/odds.py) needs a result backend: Redis, or files
# under CELERY_FILESYSTEM_DIR/results (config/celery_results.py). Every other task ignores its
# result (CELERY_TASK_IGNORE_RESULT).
CELERY_RESULT_BACKEND = REDIS_URL or "config.celery_results:FolderBackend"
CELERY_RESULT_EXPIRES = env_int("CELERY_RESULT_EXPIRES", 3600)
# The rendered season pages (season/cache.py): Redis when REDIS_URL is set, shared by every
# process; this process's memory otherwise (other processes' changes show within
# PAGE_CACHE_STATE_SECONDS).
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        # A Redis that stops answering costs a page a second, then it is served uncached.
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
    if REDIS_URL
    else {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "OPTIONS": {"MAX_ENTRIES": 2000},
    }
}
CACHES["default"]["KEY_PREFIX"] = env_str("CACHE_KEY_PREFIX", "grandtour")
# The odds of a round (season/services/odds.py): its inputs for the workers' chunks, their
# progress and the table, shared by the web process and every worker: Redis, or files.
CACHES["odds"] = (
    {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    if REDIS_URL
    else {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(CELERY_FILESYSTEM_DIR / "odds"),
    }
)
CACHES["odds"]["KEY_PREFIX"] = env_str("CACHE_KEY_PREFIX", "grandtour") + "-odds"
PAGE_CACHE_SECONDS = env_int("PAGE_CACHE_SECONDS", 600)
PAGE_CACHE_STATE_SECONDS = env_int("PAGE_CACHE_STATE_SECONDS", 2)
# Separate queues let several deployments (or test runs) share one Redis.
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "grandtour")
# The odds' chunks and merge go to "<default queue>-odds" (config.celery.task_route), so that a
# resolution never waits behind them; a worker serves it with -Q (docs/odds.md, "Queues").
CELERY_TASK_ROUTES = ("config.celery.task_route",)
# The odds' budget: runs counted an hour for each member of a season and for the whole season
# (season.services.odds.odds_budget_take; a table already counted costs nothing).
ODDS_MEMBER_RUNS_PER_HOUR = env_int("ODDS_MEMBER_RUNS_PER_HOUR", 20_000)
ODDS_SEASON_RUNS_PER_HOUR = env_int("ODDS_SEASON_RUNS_PER_HOUR", 60_000)
# A request for odds stops early once every chance it shows has a 95 % interval (Wilson) of at
# most this half-width, in percentage points (plugins.odds.settled; 0: every run is counted).
ODDS_SETTLED_POINTS = env_float("ODDS_SETTLED_POINTS", 1.0)
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A worker (and beat) outlives its broker's restart: it retries the connection forever, at
# startup too, every few seconds up to half a minute. Celery's default gave up after 100 tries
# (some 45 minutes of Redis down) and the worker exited for good.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 120)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 180)
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_TIMEZONE = TIME_ZONE

DJANGO_TABLES2_TEMPLATE = "tables/table.html"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

# Fault injection for the worker-kill test: seconds to wait before committing a stage's
# results. Always 0 outside that test.
STAGE_RESOLVE_PAUSE_BEFORE_COMMIT = env_int("STAGE_RESOLVE_PAUSE_BEFORE_COMMIT", 0)

# Beat's DatabaseScheduler copies this schedule into its tables when it starts (an interval
# changed here replaces the stored one). Every 5 s in production (issue 33: a check every minute
# let a round wait up to a minute past its deadline): a check with nothing due costs a few
# indexed queries (docs/busy-evening.md); the beat test checks every second.
STAGE_DEADLINE_CHECK_SECONDS = env_int("STAGE_DEADLINE_CHECK_SECONDS", 5)
# A queued or running job that has not reported for this long has lost its worker (longer than
# the stage resolution's hard time limit, 90 s): the page says "waiting for a worker" and the
# deadline check queues it again.
JOB_SILENT_AFTER_SECONDS = env_int("JOB_SILENT_AFTER_SECONDS", 120)
# How often beat looks for a draft whose team on turn ran out of time (the pick clock, in minutes:
# a check every few seconds makes its automatic pick within them).
DRAFT_CLOCK_CHECK_SECONDS = env_int("DRAFT_CLOCK_CHECK_SECONDS", 15)
# How often beat posts the chat webhooks' due deliveries (season.services.chat_hooks).
CHAT_DELIVERIES_CHECK_SECONDS = env_int("CHAT_DELIVERIES_CHECK_SECONDS", 30)
# The chat webhooks post to public https addresses only (season.services.webhook_guard); on,
# they may post to private ones and over http: for the tests' receivers on 127.0.0.1, never in
# production.
CHAT_HOOKS_ALLOW_PRIVATE = env_bool("CHAT_HOOKS_ALLOW_PRIVATE", default=False)
CELERY_BEAT_SCHEDULE = {
    "lock-due-stages": {
        "task": "season.stages_lock_due",
        "schedule": float(STAGE_DEADLINE_CHECK_SECONDS),
        # A check still queued when the next is sent (behind a busy evening's resolutions on
        # the league queue) is dropped by the worker: the next one does the same work. The key is
        # django_celery_beat's (its DatabaseScheduler drops an "expires" given here).
        "options": {"expire_seconds": STAGE_DEADLINE_CHECK_SECONDS},
    },
    "expire-draft-clocks": {
        "task": "season.draft_clocks_expire",
        "schedule": float(DRAFT_CLOCK_CHECK_SECONDS),
    },
    "send-notifications": {"task": "season.notifications_send", "schedule": 300.0},
    # The chat webhooks' due deliveries (their retries' moments are seconds to hours apart).
    "send-chat-deliveries": {
        "task": "season.chat_deliveries_send",
        "schedule": float(CHAT_DELIVERIES_CHECK_SECONDS),
    },
}

# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one username
# from one address, that pair is locked out for AXES_COOLOFF_MINUTES.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# Behind a proxy that sets X-Forwarded-For, name it so the client's address is the real one.
AXES_IPWARE_META_PRECEDENCE_ORDER = env_list("AXES_IP_HEADERS", "REMOTE_ADDR")

# HTTPS and browser protections: on by default in production (DEBUG=0), each settable.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=not DEBUG)
# Only behind a proxy that always sets it (and strips it from clients): "HTTP_X_FORWARDED_PROTO".
_PROXY_SSL_HEADER = env_str("SECURE_PROXY_SSL_HEADER")
SECURE_PROXY_SSL_HEADER = (_PROXY_SSL_HEADER, "https") if _PROXY_SSL_HEADER else None
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp): scripts and everything else from this site only;
# inline style attributes are allowed (the SVG charts and a few widths use them).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# The read API (season/api, docs/api.md): JSON only, members' tokens only (no session: a
# browser's cookies never act on it), the limits per client and window below.
REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": ["season.api.auth.ApiTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_THROTTLE_CLASSES": ["season.api.limits.ApiRateThrottle"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "season.api.errors.api_exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Grand Tour read API",
    "DESCRIPTION": "The seasons' calendars, results, standings and competitors (docs/api.md).",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # No deep links: Swagger UI nests them in each operation's button (an axe-core failure).
    "SWAGGER_UI_SETTINGS": {"deepLinking": False, "displayOperationId": False},
    "COMPONENT_SPLIT_REQUEST": True,
}
# Requests a client may make to the API per window: an address without a token, a token.
API_RATE_ANONYMOUS = env_int("API_RATE_ANONYMOUS", 120)
API_RATE_TOKEN = env_int("API_RATE_TOKEN", 600)
API_RATE_SECONDS = env_int("API_RATE_SECONDS", 60)
#: The largest page of any list of the API (``limit``), and the page when none is asked.
API_MAX_LIMIT = 200
API_DEFAULT_LIMIT = 50

# The address of the site in emails.
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")
