"""Rome: Rise to Power (placeholder docstring, replaced below)."""
