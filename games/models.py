"""Games, seats, the move log and house-rule sets come with live play (issue: live play).

The rules engine lives in games/rules/ and imports nothing from Django.
"""
