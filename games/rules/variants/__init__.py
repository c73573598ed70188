"""One module per rule set."""
