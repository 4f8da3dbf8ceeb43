-- Start from an empty schema so the seed is deterministic.
\set ON_ERROR_STOP on
DROP SCHEMA IF EXISTS public CASCADE;
CREATE SCHEMA public;
GRANT ALL ON SCHEMA public TO public;
DO $$ BEGIN RAISE NOTICE 'schema reset'; END $$;
