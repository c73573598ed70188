"""The league's REST API, one module per domain; league/api_urls.py routes them."""
