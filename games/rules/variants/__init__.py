"""One package per rule set: its rules, AI, house rules in words, presets and board builder."""
