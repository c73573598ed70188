"""Signals games sends for the layers above it (league rates and advances rounds).

Sent after commit, with ids only: listeners read what they need.
"""

from django.dispatch import Signal

#: A game reached FINISHED (not aborted). Arguments: game_id.
game_finished = Signal()
