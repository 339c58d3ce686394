"""Rendering findings and scans: terminal (rich), JSON (schema/scan.schema.json), SARIF 2.1.0."""
