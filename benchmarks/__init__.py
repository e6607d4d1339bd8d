"""Benchmarks: scripts that print medians, never timed tests (see docs/performance.md)."""
