"""The games app: pure rules packages (games/<name>/) plus the Django side that runs them.

Keep this file free of Django imports: importing a rules package imports it first.
"""
