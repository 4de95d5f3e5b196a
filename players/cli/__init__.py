"""The command line of tournament.py: its options, checking what a user gives it
(usage errors), running a tournament or an SPRT, and printing and writing its results."""
