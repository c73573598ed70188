"""The league's pages, one module per domain; league/urls.py routes them."""
