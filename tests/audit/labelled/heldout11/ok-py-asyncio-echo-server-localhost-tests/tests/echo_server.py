"""A local echo server fixture for client tests."""
import asyncio
import threading

import pytest


async def _echo(reader, writer):
    while data := await reader.read(4096):
        writer.write(data)
        await writer.drain()
    writer.close()


@pytest.fixture
def echo_server():
    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(asyncio.start_server(_echo, "127.0.0.1", 0))
    port = server.sockets[0].getsockname()[1]
    t = threading.Thread(target=loop.run_forever, daemon=True)
    t.start()
    yield ("127.0.0.1", port)
    loop.call_soon_threadsafe(server.close)
    loop.call_soon_threadsafe(loop.stop)
    t.join(timeout=5)
