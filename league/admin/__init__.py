"""The league app's admin, one module per domain; Django's autodiscovery imports this
package, and importing the modules registers their admins."""

from . import clubs, competitions, ratings

__all__ = ["clubs", "competitions", "ratings"]
