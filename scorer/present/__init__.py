"""Presentation helpers: how tiles, hands, seats and rounds are shown. No request handling."""
