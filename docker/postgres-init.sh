#!/bin/sh
# First start of the compose Postgres only (docker-entrypoint-initdb.d): the service's role and
# database, and a role for Temporal that creates its own two databases (temporal-schema).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres <<SQL
CREATE ROLE rescue LOGIN PASSWORD '${APP_DB_PASSWORD}';
CREATE DATABASE payment_rescue OWNER rescue;
CREATE ROLE temporal LOGIN CREATEDB PASSWORD '${TEMPORAL_DB_PASSWORD}';
SQL
