import * as Sentry from '@sentry/node';

const dsn = process.env.SENTRY_DSN;
if (!dsn) {
  console.warn('SENTRY_DSN not set: error reporting off');
} else {
  Sentry.init({
    dsn,
    sendDefaultPii: false,
    tracesSampleRate: 0.1,
    beforeSend(event) {
      if (event.request) {
        delete event.request.cookies;
        delete event.request.headers;
      }
      return event;
    },
  });
}

export default Sentry;
