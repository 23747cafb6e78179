"""Scarface 1920 (Toni Serradesanferm & Daniel Simón, Redzen Games, 2022): the pure rules
engine. Imports nothing but the standard library and the platform's pure modules
(``games.core``, ``games.rng``, ``games.twins``).

Specification: ../shared/rules/scarface.md; the digital game: docs/rules-scarface.md.
"""
