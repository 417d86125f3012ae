"""Why a change of e-mail preferences was refused: each error has a stable ``code``."""

from django.utils.translation import gettext_lazy as _

from core.errors import ServiceError


class InvalidPreference(ServiceError):
    code = "invalid_preference"
    default_message = _("These e-mail settings are not valid.")


class BadUnsubscribeLink(ServiceError):
    code = "bad_unsubscribe_link"
    default_message = _(
        "This unsubscribe link is not valid: it may have been changed or cut. "
        "Change your e-mail settings on the site instead."
    )


class ExpiredUnsubscribeLink(BadUnsubscribeLink):
    code = "expired_unsubscribe_link"
    default_message = _(
        "This unsubscribe link has expired. Use the link of a newer e-mail, or change your "
        "e-mail settings on the site."
    )


class UsedUnsubscribeLink(BadUnsubscribeLink):
    code = "used_unsubscribe_link"
    default_message = _(
        "This unsubscribe link was already used (each works once): nothing was changed. "
        "Your e-mail settings are on the site."
    )


class InvalidPushSubscription(ServiceError):
    code = "invalid_push_subscription"
    default_message = _("This browser's push subscription is not valid: nothing was saved.")


class PushUnavailable(ServiceError):
    code = "push_unavailable"
    default_message = _("Notifications on devices are not offered on this site.")
