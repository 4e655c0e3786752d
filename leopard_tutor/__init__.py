"""Leopard Tutor: learn, teach and play Robert Abbott's card game Leopard."""

__version__ = "0.1.0"
