"""Rules engine: executable behaviour traced to the Comprehensive Rules (see registry)."""
