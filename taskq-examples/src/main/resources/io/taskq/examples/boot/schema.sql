-- The orders example's own tables (TaskQ migrates its own schema when it starts).
CREATE TABLE IF NOT EXISTS orders (
  id           bigserial PRIMARY KEY,
  item         text NOT NULL,
  quantity     int NOT NULL,
  confirmed_at timestamptz
);
CREATE TABLE IF NOT EXISTS stock (
  item      text PRIMARY KEY,
  available int NOT NULL CHECK (available >= 0)
);
INSERT INTO stock (item, available) VALUES ('book', 100), ('lamp', 2) ON CONFLICT DO NOTHING;
