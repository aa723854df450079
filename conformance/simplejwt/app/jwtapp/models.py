"""A per-user object for the cross-user (broken object-level authorization) checks: a note belongs to one account."""
from django.conf import settings
from django.db import models


class Note(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notes")
    text = models.CharField(max_length=200, blank=True)
