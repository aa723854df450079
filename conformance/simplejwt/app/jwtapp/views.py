"""The protected endpoints: who am I, and per-user notes, for a valid access token only."""
from django.conf import settings
from django.shortcuts import get_object_or_404
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework_simplejwt.authentication import JWTAuthentication

from .models import Note


@api_view(["GET"])
@authentication_classes([JWTAuthentication])
@permission_classes([IsAuthenticated])
def me(request):
    return Response({"username": request.user.get_username()})


@api_view(["POST"])
@authentication_classes([JWTAuthentication])
@permission_classes([IsAuthenticated])
def notes(request):
    """POST /api/notes/ {"text": …} → 201 {"id": …, "text": …}: a note owned by the caller."""
    note = Note.objects.create(owner=request.user, text=str(request.data.get("text", ""))[:200])
    return Response({"id": note.id, "text": note.text}, status=201)


@api_view(["GET"])
@authentication_classes([JWTAuthentication])
@permission_classes([IsAuthenticated])
def note(request, note_id):
    """GET /api/notes/<id>/ → 200 {"id", "text", "owner"} to the note's owner; 404 to anyone else, so a note's
    existence is not disclosed either (DRF's "filtering against the current user"). With NOTES_OWNER_SCOPED off
    (the notes_not_scoped weakness) it looks the note up by id alone and answers every account."""
    visible = Note.objects.filter(owner=request.user) if settings.NOTES_OWNER_SCOPED else Note.objects.all()
    found = get_object_or_404(visible, pk=note_id)
    return Response({"id": found.id, "text": found.text, "owner": found.owner.get_username()})
