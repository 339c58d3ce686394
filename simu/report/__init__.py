"""Rendering findings: terminal (rich), JSON."""
