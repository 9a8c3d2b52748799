"""Tests of the Python SDK and the `cartel` CLI against a real server."""
