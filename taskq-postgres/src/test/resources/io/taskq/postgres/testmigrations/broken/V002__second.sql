CREATE TABLE {schema}.second (id integer PRIMARY KEY);
SELECT 1 / 0;
