"""The event store's models are shown in the admin by ``games.admin`` (as staff may see
each game's events): the event store itself knows no game."""
