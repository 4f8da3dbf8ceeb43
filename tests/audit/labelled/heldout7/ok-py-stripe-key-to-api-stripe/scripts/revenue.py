import os
import time

import requests

key = os.environ["STRIPE_API_KEY"]
since = int(time.time()) - 7 * 86400
r = requests.get("https://api.stripe.com/v1/charges", params={"created[gte]": since, "limit": 100},
                 auth=(key, ""), timeout=30)
r.raise_for_status()
charges = r.json()["data"]
gross = sum(c["amount"] for c in charges if c["paid"]) / 100
refunded = sum(c["amount_refunded"] for c in charges) / 100
print(f"gross {gross:.2f} refunded {refunded:.2f} net {gross - refunded:.2f}")
