"""The Tripoley Discord bot."""

# The release's version (pyproject.toml reads it from here; CHANGELOG.md says what each one brought).
__version__ = "0.2.0"
