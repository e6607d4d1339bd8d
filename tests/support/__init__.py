"""What the tests share: drivers, readers and fixtures' helpers, kept out of the test
modules so that no test module imports another (tests/site/test_structure.py checks it)."""
