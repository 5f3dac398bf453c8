"""The data layer: a registry of every data set the papers use, fetched and verified.

>>> from mkbench.harness.datasets import load
>>> ds = load("sonar", mirror="/path/to/mirror")   # doctest: +SKIP
>>> ds.X.shape, ds.metadata["positive_class"]       # doctest: +SKIP
((208, 60), 'M (mine)')

Raw files are looked up in the cache (``data_home``), then in a mirror folder
(``mirror`` or ``$MKBENCH_DATA_MIRROR``), then downloaded from their canonical
URL, and always verified against the digests in :mod:`._files` (see
:mod:`._fetch` for the checksum design).
"""

from . import bundled, raetsch, synthetic, uci, uci_multiclass, vision  # noqa: F401  (importing registers the specs)
from ._fetch import fetch
from ._load import Dataset, load
from ._registry import DatasetSpec, RawFile, get_spec, list_datasets

__all__ = ["Dataset", "DatasetSpec", "RawFile", "fetch", "get_spec", "list_datasets", "load"]
