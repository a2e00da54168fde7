"""golfsolve: solve and analyse the card games called Golf."""

__version__ = "0.1.0"
