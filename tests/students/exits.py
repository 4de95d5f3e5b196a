"""Searches that end the process."""
import os
import sys


def minmax_decision(state, game):
    sys.exit(3)


def alpha_beta_search(state, game):
    os._exit(1)
