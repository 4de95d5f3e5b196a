"""The class arena: a web site where students hand in their players and see them play."""
