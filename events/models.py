"""The append-only event store (events, snapshots, command log) will live here."""
