import base64
import json
import zlib

# recorded GET /users/1, compressed to keep the repo small
USER_1 = "eJyrVspMUbJSMNRRUMpLzE0FMpUcUxIVfPLLUnMSk1OVgOKpuYmZOSCJxJREh9SKxNyCnFS95PxcpVoAHYkSqg=="


def load(blob):
    return json.loads(zlib.decompress(base64.b64decode(blob)))


def test_user_shape():
    user = load(USER_1)
    assert set(user) >= {"id", "name"}
