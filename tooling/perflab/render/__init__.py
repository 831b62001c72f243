"""Rendering: the text, Markdown and HTML of a result, its charts, and the tables the docs regenerate."""
