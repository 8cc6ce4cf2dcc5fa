"""Segmentation: decoded text -> the rules model."""
