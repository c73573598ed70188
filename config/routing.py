"""Websocket routes of every app."""

from django.urls import path

from accounts.realtime import NotificationsConsumer
from games.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/notifications/", NotificationsConsumer.as_asgi()),
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
]
