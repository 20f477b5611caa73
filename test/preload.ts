// Loaded before every test file (bunfig.toml). Keeps test output quiet and deterministic.
process.env.TZ = 'UTC';
