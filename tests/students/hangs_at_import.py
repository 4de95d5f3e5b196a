"""A file that never finishes loading."""
while True:
    pass
