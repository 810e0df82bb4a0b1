CREATE TABLE {schema}.second (id integer PRIMARY KEY);
