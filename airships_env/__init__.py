"""airships-env."""
