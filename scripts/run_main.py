"""Placeholder for the main job; will be replaced."""

print("main job not yet wired")
