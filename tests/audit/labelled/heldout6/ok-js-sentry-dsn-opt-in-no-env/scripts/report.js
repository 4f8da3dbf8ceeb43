const Sentry = require('@sentry/node');

let ready = false;
if (process.env.SENTRY_DSN) {
  Sentry.init({ dsn: process.env.SENTRY_DSN, sendDefaultPii: false });
  ready = true;
}

module.exports.report = function report(err) {
  if (ready) Sentry.captureException(new Error(err.message));
};
