"""The database: SQLite or PostgreSQL behind one connection type, numbered migrations (package
data in ``migrations/``), the SQL dialect, and copying a database from one to the other."""
