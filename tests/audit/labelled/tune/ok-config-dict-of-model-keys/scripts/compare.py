import json
import os
import sys

KEYS = {
    "openai": os.environ.get("OPENAI_API_KEY"),
    "anthropic": os.environ.get("ANTHROPIC_API_KEY"),
}
available = [name for name, key in KEYS.items() if key]
print(json.dumps({"question": sys.argv[1], "providers": available}, indent=2))
