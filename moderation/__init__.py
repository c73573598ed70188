"""The moderation console: house rules owned by clubs, observer policies, kicks and
bans, the audit log and club-scoped admin access (docs/moderation.md).

Stands on accounts, games and league; none of them imports it. The live side asks it
through games.observing's watch gates, registered in MODERATION's AppConfig.ready.
"""
