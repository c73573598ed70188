"""The API's renderers: JSON, and DRF's browsable pages for a browser."""

from __future__ import annotations

from typing import Any

from rest_framework import renderers


def _names_no_serializer(view: Any) -> bool:
    """A view that names its serializers per method (games/api) rather than one for all."""
    # Here, not at the top: DRF reads this module while rest_framework.views loads.
    from rest_framework.generics import GenericAPIView

    return (isinstance(view, GenericAPIView) and view.serializer_class is None
            and type(view).get_serializer_class is GenericAPIView.get_serializer_class)


class BrowsableAPIRenderer(renderers.BrowsableAPIRenderer):
    """DRF's, without the forms a view with no ``serializer_class`` (or ``queryset``) cannot build: DRF
    asked it for one, and seven endpoints opened in a browser answered 500 (the lobby's
    /api/v1/games/ among them). Their answer is shown as ever; the docs say what to send."""

    def get_rendered_html_form(self, data: Any, view: Any, method: str, request: Any) -> Any:
        if _names_no_serializer(view) and method not in ("DELETE", "OPTIONS"):
            return None
        return super().get_rendered_html_form(data, view, method, request)

    def get_filter_form(self, data: Any, view: Any, request: Any) -> Any:
        from rest_framework.generics import GenericAPIView

        if (isinstance(view, GenericAPIView) and view.queryset is None
                and type(view).get_queryset is GenericAPIView.get_queryset):
            return None  # a list made by its view's own query (the lobby): no filter form to build
        return super().get_filter_form(data, view, request)

    def get_raw_data_form(self, data: Any, view: Any, method: str, request: Any) -> Any:
        if _names_no_serializer(view):
            return None
        return super().get_raw_data_form(data, view, method, request)
