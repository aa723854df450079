"""The URLs simplejwt's "Getting started" page lists, plus the protected endpoints (views.py)."""
from django.urls import path
from rest_framework_simplejwt.views import (
    TokenBlacklistView,
    TokenObtainPairView,
    TokenRefreshView,
    TokenVerifyView,
)

from .views import me, note, notes

urlpatterns = [
    path("api/token/", TokenObtainPairView.as_view(), name="token_obtain_pair"),
    path("api/token/refresh/", TokenRefreshView.as_view(), name="token_refresh"),
    path("api/token/verify/", TokenVerifyView.as_view(), name="token_verify"),
    path("api/token/blacklist/", TokenBlacklistView.as_view(), name="token_blacklist"),
    path("api/me/", me, name="me"),
    path("api/notes/", notes, name="notes"),
    path("api/notes/<int:note_id>/", note, name="note"),
]
