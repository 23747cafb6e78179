"""Lobby models (Table, Seat) will live here; game state is in the event store."""
