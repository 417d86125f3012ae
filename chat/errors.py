"""Why a chat message was refused: each error has a stable ``code`` (docs/protocol.md)."""

from django.utils.translation import gettext_lazy as _

from core.errors import ServiceError


class ChatError(ServiceError):
    code = "chat_refused"
    default_message = _("Your message was not sent.")


class ChatEmpty(ChatError):
    code = "chat_empty"
    default_message = _("Type a message first.")


class ChatTooLong(ChatError):
    code = "chat_too_long"


class ChatRateLimited(ChatError):
    code = "chat_rate_limited"


class ChatSilenced(ChatError):
    code = "chat_silenced"


class ChatOff(ChatError):
    code = "chat_off"
    default_message = _("Your chat is turned off: turn it on to send messages.")


class ChatNotAllowed(ChatError):
    code = "chat_not_allowed"
    default_message = _("You cannot chat here.")
