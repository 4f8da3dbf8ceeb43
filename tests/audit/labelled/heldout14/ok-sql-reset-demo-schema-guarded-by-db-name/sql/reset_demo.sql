DO $$
BEGIN
  IF current_database() <> 'demo' THEN
    RAISE EXCEPTION 'refusing to reset %: only the demo database', current_database();
  END IF;
END
$$;

DROP SCHEMA IF EXISTS demo_data CASCADE;
CREATE SCHEMA demo_data;
