"""Results: the schema of result.json (versioned, migrated), the metrics' names and units, and storage."""
