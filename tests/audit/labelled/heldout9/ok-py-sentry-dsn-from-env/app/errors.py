import os

import sentry_sdk
from sentry_sdk.integrations.flask import FlaskIntegration


def init_errors():
    dsn = os.environ.get("SENTRY_DSN")
    if not dsn:
        return
    sentry_sdk.init(dsn=dsn, integrations=[FlaskIntegration()],
                    send_default_pii=False, traces_sample_rate=0.1,
                    environment=os.environ.get("APP_ENV", "production"))
