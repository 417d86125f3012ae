import uuid

from channels.layers import get_channel_layer


async def test_the_default_layer_relays_a_group_message():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("lobby", channel)
    await layer.group_send("lobby", {"type": "game.updated", "version": 1})
    assert await layer.receive(channel) == {"type": "game.updated", "version": 1}


async def test_redis_relays_a_group_message(redis_channel_layer):
    layer = get_channel_layer()
    assert type(layer).__name__ == "RedisChannelLayer"
    group = f"test-{uuid.uuid4().hex}"  # the Redis may be shared with other test runs
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    await layer.group_send(group, {"type": "game.updated", "version": 2})
    assert await layer.receive(channel) == {"type": "game.updated", "version": 2}
    await layer.group_discard(group, channel)
