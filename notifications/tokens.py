"""The signed token of a one-click unsubscribe link: the player, the kind of e-mail and the
player's token generation, signed with SECRET_KEY (its own salt), valid MAX_AGE."""

from datetime import timedelta

from django.core import signing

from notifications.errors import BadUnsubscribeLink, ExpiredUnsubscribeLink

SALT = "notifications.unsubscribe"
MAX_AGE = timedelta(days=60)
KINDS = ("turn", "reminder", "digest")


def make(*, user_id: int, kind: str, generation: int) -> str:
    return signing.dumps({"u": user_id, "k": kind, "g": generation}, salt=SALT, compress=True)


def read(token: str) -> tuple[int, str, int]:
    """``(user_id, kind, generation)`` of ``token``; ``ExpiredUnsubscribeLink`` past MAX_AGE,
    ``BadUnsubscribeLink`` if it was not signed here (forged, cut, another salt)."""
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise ExpiredUnsubscribeLink() from None
    except signing.BadSignature:
        raise BadUnsubscribeLink() from None
    try:
        user_id, kind, generation = int(data["u"]), str(data["k"]), int(data["g"])
    except (TypeError, KeyError, ValueError):
        raise BadUnsubscribeLink() from None
    if kind not in KINDS:
        raise BadUnsubscribeLink()
    return user_id, kind, generation
