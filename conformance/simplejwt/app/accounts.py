# The accounts the scenarios log in with (run.sh runs this in `manage.py shell`): one active, one inactive.
from django.contrib.auth import get_user_model

User = get_user_model()
User.objects.create_user("qa", "qa@example.com", "qa-correct-horse-battery")
departed = User.objects.create_user("departed", "departed@example.com", "departed-correct-horse")
departed.is_active = False
departed.save()
