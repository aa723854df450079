"""Settings of the simplejwt conformance app.

The default is the configuration simplejwt's docs describe for rotating refresh tokens with a blacklist
(https://django-rest-framework-simplejwt.readthedocs.io/en/latest/settings.html and .../blacklist_app.html),
with a short access-token lifetime so that a live run can wait one out.

AUTH_WEAKNESS selects one mistake a team could ship. Each is configuration only, never a patch:
  rotation_off           ROTATE_REFRESH_TOKENS = False (simplejwt's own default)
  blacklist_after_off    BLACKLIST_AFTER_ROTATION = False: a rotated-out refresh token keeps working
  blacklist_app_missing  token_blacklist not in INSTALLED_APPS: /api/token/blacklist/ answers 200, revokes nothing
  long_access_lifetime   ACCESS_TOKEN_LIFETIME of 7 days
  long_refresh_lifetime  REFRESH_TOKEN_LIFETIME of 365 days
  leeway                 LEEWAY of one hour: expired access tokens are still accepted
  inactive_user_accepted CHECK_USER_IS_ACTIVE = False: a deactivated account's tokens keep working
  notes_not_scoped       NOTES_OWNER_SCOPED = False: this app's note view looks a note up by id alone, so any
                         account reads any note (broken object-level authorization, OWASP API1:2023). simplejwt has
                         no such setting: it is this app's, modelling the most common API bug (a view that forgets
                         DRF's "filtering against the current user")
"""
import os
from datetime import timedelta

WEAKNESS = os.environ.get("AUTH_WEAKNESS", "")
KNOWN_WEAKNESSES = {"", "rotation_off", "blacklist_after_off", "blacklist_app_missing", "long_access_lifetime",
                    "long_refresh_lifetime", "leeway", "inactive_user_accepted", "notes_not_scoped"}
if WEAKNESS not in KNOWN_WEAKNESSES:
    raise RuntimeError(f"AUTH_WEAKNESS={WEAKNESS!r} is not one of {sorted(KNOWN_WEAKNESSES)}")

# A throwaway key per run (run.sh sets it); never a production setting.
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "conformance-only-not-a-secret-0123456789abcdef")
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "rest_framework",
    "rest_framework_simplejwt",
    "rest_framework_simplejwt.token_blacklist",
    "jwtapp",  # the Note model (per-user objects)
]
if WEAKNESS == "blacklist_app_missing":
    INSTALLED_APPS.remove("rest_framework_simplejwt.token_blacklist")

MIDDLEWARE = [
    "django.middleware.common.CommonMiddleware",
]
ROOT_URLCONF = "jwtapp.urls"
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("DJANGO_DB", "/tmp/simplejwt-conformance.sqlite3"),
    }
}
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ("rest_framework_simplejwt.authentication.JWTAuthentication",),
    "DEFAULT_RENDERER_CLASSES": ("rest_framework.renderers.JSONRenderer",),
}

SIMPLE_JWT = {
    "ACCESS_TOKEN_LIFETIME": timedelta(seconds=int(os.environ.get("ACCESS_TOKEN_SECONDS", "6"))),
    "REFRESH_TOKEN_LIFETIME": timedelta(days=1),
    "ROTATE_REFRESH_TOKENS": True,
    "BLACKLIST_AFTER_ROTATION": True,
    "LEEWAY": 0,
    "CHECK_USER_IS_ACTIVE": True,
}
if WEAKNESS == "rotation_off":
    SIMPLE_JWT["ROTATE_REFRESH_TOKENS"] = False
elif WEAKNESS == "blacklist_after_off":
    SIMPLE_JWT["BLACKLIST_AFTER_ROTATION"] = False
elif WEAKNESS == "long_access_lifetime":
    SIMPLE_JWT["ACCESS_TOKEN_LIFETIME"] = timedelta(days=7)
elif WEAKNESS == "long_refresh_lifetime":
    SIMPLE_JWT["REFRESH_TOKEN_LIFETIME"] = timedelta(days=365)
elif WEAKNESS == "leeway":
    SIMPLE_JWT["LEEWAY"] = timedelta(hours=1)
elif WEAKNESS == "inactive_user_accepted":
    SIMPLE_JWT["CHECK_USER_IS_ACTIVE"] = False

# This app's own setting, not simplejwt's: GET /api/notes/<id>/ looks the note up among the caller's own notes
# (https://www.django-rest-framework.org/api-guide/filtering/#filtering-against-the-current-user), so another
# account's note is a 404. notes_not_scoped turns that off, as a view written with Note.objects.get(pk=…) would.
NOTES_OWNER_SCOPED = WEAKNESS != "notes_not_scoped"
