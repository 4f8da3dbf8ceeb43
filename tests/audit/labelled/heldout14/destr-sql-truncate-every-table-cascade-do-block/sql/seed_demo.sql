INSERT INTO customers (name, email) VALUES
  ('Ada Example', 'ada@example.com'),
  ('Linus Sample', 'linus@example.org');
