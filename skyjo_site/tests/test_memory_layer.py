"""The embedded default's channel layer: channels' in-memory layer with a cheaper copy and a
cleaning walk at most once per CLEAN_EVERY seconds; what a receiver gets is unchanged."""

import asyncio

import pytest

from skyjo_site import memory_layer as layers


@pytest.fixture
def layer():
    return layers.InMemoryChannelLayer()


def test_each_member_of_a_group_gets_its_own_copy(layer):
    async def run():
        a, b = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("game.1", a)
        await layer.group_add("game.1", b)
        message = {"type": "game.updated", "view": {"grids": [[1, "?", None]]}, "version": 3}
        await layer.group_send("game.1", message)
        first, second = await layer.receive(a), await layer.receive(b)
        first["view"]["grids"][0][0] = 99
        return message, first, second

    message, first, second = asyncio.run(run())
    assert second == message and second is not message
    assert message["view"]["grids"][0][0] == 1 and first["view"]["grids"][0][0] == 99


def test_a_message_pickle_refuses_is_deep_copied(layer):
    async def run():
        channel = await layer.new_channel()
        message = {"type": "x", "call": lambda: 1}  # a lambda does not pickle
        await layer.send(channel, message)
        return message, await layer.receive(channel)

    message, got = asyncio.run(run())
    assert got["call"] is message["call"] and got is not message


def test_expired_messages_are_still_dropped_at_the_next_walk(layer, monkeypatch):
    layer.expiry = 0  # every message expires at once
    now = [1000.0]
    monkeypatch.setattr(layers.time, "monotonic", lambda: now[0])

    async def run():
        stale, live = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("game.1", stale)
        await layer.send(stale, {"type": "old"})
        layer._clean_expired()  # the first walk: drops it, and its channel from the group
        assert stale not in layer.channels and stale not in layer.groups.get("game.1", {})
        await layer.group_add("game.1", stale)
        await layer.send(stale, {"type": "old"})
        layer._clean_expired()  # within CLEAN_EVERY: no walk
        kept = stale in layer.channels
        now[0] += layers.CLEAN_EVERY
        layer._clean_expired()
        return kept, stale in layer.channels, live

    kept, after, _live = asyncio.run(run())
    assert kept and not after
