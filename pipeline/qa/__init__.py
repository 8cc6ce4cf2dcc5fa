"""Quality checks over parsed documents."""
