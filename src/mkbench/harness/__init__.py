"""The benchmark harness: the machinery that reproduces the papers' tables and figures.

It holds the data sets (:mod:`~mkbench.harness.datasets`: registry, download and
checksums), the seeded train/test splits (:mod:`~mkbench.harness.splits`), the
workflow configuration and its schema (:mod:`~mkbench.harness.config`), the method
registry (:mod:`~mkbench.harness.methods`), one experiment job and its record
(:mod:`~mkbench.harness.experiment`, :mod:`~mkbench.harness.prepare`), the tables
and figures (:mod:`~mkbench.harness.report`, :mod:`~mkbench.harness.figures`, :mod:`~mkbench.harness.boundary`), the
reproduction dashboard (:mod:`~mkbench.harness.reproduction`) and the ``mkbench``
command (:mod:`~mkbench.harness.cli`).

The harness depends on the library (estimators, masters, oracles, kernels,
learners, ``cg``), never the other way round.
"""
