# The accounts the scenarios and the probe log in with (run.sh runs this in `manage.py shell`): one active, one
# inactive, one that a scenario deactivates, one that the probe deactivates, and a second active one whose token
# must not open the first one's notes.
from django.contrib.auth import get_user_model

User = get_user_model()
User.objects.create_user("qa", "qa@example.com", "qa-correct-horse-battery")
departed = User.objects.create_user("departed", "departed@example.com", "departed-correct-horse")
departed.is_active = False
departed.save()
# Deactivated during a scenario, to check that its tokens stop working.
User.objects.create_user("leaver", "leaver@example.com", "leaver-correct-horse")
# Another account of the same kind as qa: the cross-user checks read qa's notes with its token.
User.objects.create_user("colleague", "colleague@example.com", "colleague-correct-horse")
# Deactivated (and reactivated) by the probe's deactivated_account check.
User.objects.create_user("throwaway", "throwaway@example.com", "throwaway-correct-horse")
