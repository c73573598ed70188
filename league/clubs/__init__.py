"""Clubs and their memberships: services.py writes them, selectors.py reads them."""
