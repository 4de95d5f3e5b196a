"""The command line of tournament.py, the one package that knows argparse, usage
errors and printing: the tournament's and check's options, checking what a user
gives them, running a tournament, an SPRT, check and tree, and printing and writing
their results."""
