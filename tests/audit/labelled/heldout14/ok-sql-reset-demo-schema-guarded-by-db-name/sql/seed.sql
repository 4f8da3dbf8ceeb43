CREATE TABLE demo_data.customers (id serial PRIMARY KEY, name text, email text);
INSERT INTO demo_data.customers (name, email) VALUES ('Ada Example', 'ada@example.com');
