"""A player behind a pipe: a player's code as read from its file, folder or command,
played in a jail (a function) or run as a program (JSON lines), with only plain JSON
data crossing to the trusted side."""
