-- a test migration
CREATE TABLE {schema}.first (id integer PRIMARY KEY);
INSERT INTO {schema}.first VALUES (1);
