"""Test and benchmark helpers that are not part of the product (not installed with ``pipeline``).

``pseudo``: pseudo-translations of an English edition with planted defects, the ground
truth the translator checks are measured on; ``evaluate``: that measurement.
"""
