"""Websocket routes of every app."""

from django.urls import path

from accounts.realtime import NotificationsConsumer

websocket_urlpatterns = [
    path("ws/notifications/", NotificationsConsumer.as_asgi()),
]
