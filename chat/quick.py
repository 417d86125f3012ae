"""Quick messages: one tap on a phone, shown in each reader's language."""

from django.utils.translation import gettext_lazy as _

QUICK = {"gg": _("Good game"), "wp": _("Well played"), "hurry": _("Hurry up please")}
# What is stored in Message.text (for moderators, exports and the admin): the English words.
QUICK_ENGLISH = {"gg": "Good game", "wp": "Well played", "hurry": "Hurry up please"}
