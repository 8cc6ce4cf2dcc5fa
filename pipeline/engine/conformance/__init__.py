"""The Comprehensive Rules' own examples as an executable conformance suite.

Each YAML file under ``examples/`` holds the examples of one rule section (``6xx.yaml``
holds 600-699).  A scenario quotes its example word for word (checked against the edition
the suite was written against), sets a board, lists the actions and the answers to
prompts, and states the observations the example implies.  The same file runs on phase.rs
(:mod:`.phase_driver`, through PyPI ``phase-python``) and, where the kernel has a matching
entry point, on our own kernel (:mod:`.kernel_driver`).  :mod:`.verdicts` turns the runs
into one verdict per example and per rule: agrees, disagrees or unsupported.
"""
