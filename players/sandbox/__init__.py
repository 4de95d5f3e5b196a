"""The sandbox: jails, the jail servers that fork them, and what confines them. It
knows no game: what a jail runs, and the packages it may import, are handed to it."""
