"""End to end: `python -m bot` (or the real client in process) driven through the local Discord, as players would."""
