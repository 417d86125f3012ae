import uuid

from channels.layers import channel_layers, get_channel_layer

from skyjo_site.layers import redis_channel_layer


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


async def test_redis_pubsub_relays_a_group_message(settings, redis_url):
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(redis_url, kind="pubsub")}
    channel_layers.backends.clear()
    try:
        layer = get_channel_layer()
        group = f"test-{uuid.uuid4().hex}"
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        await layer.group_send(group, {"type": "game.updated", "version": 3})
        assert await layer.receive(channel) == {"type": "game.updated", "version": 3}
        await layer.group_discard(group, channel)
        await layer.flush()
    finally:
        channel_layers.backends.clear()
