"""Optional peer packages: imported with an adapter's module, required when it is fitted.

A peer is imported when its adapter's module is (a workflow job imports it when it
builds the estimator, before the fit's stopwatch starts, as it imports ours): the
seconds Python takes to import torch, XGBoost or colboost are no part of the peer's
fit time. A missing peer is no error then, so that a config naming the adapter is read
and checked without it; fitting the adapter raises :class:`ImportError` naming
``pip install 'mkbench[peers]'``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["INSTALL", "Peer"]

#: What installs every peer.
INSTALL = "pip install 'mkbench[peers]'"


class Peer:
    """The modules of an optional package, imported now if it is installed.

    Parameters
    ----------
    package : str
        The package's name, for the message.
    *modules : str
        The modules to import.
    """

    def __init__(self, package: str, *modules: str) -> None:
        self.package = package
        self.error: ImportError | None = None
        self.modules: tuple[ModuleType, ...] = ()
        try:
            self.modules = tuple(importlib.import_module(name) for name in modules)
        except ImportError as exc:
            self.error = exc

    def require(self) -> tuple[ModuleType, ...]:
        """The imported modules.

        Raises
        ------
        ImportError
            If the package is not installed; the message names it and ``pip install 'mkbench[peers]'``.
        """
        if self.error is not None:
            raise ImportError(
                f"{self.package} is not installed ({self.error}); it is an optional peer of mkbench: {INSTALL}"
            ) from self.error
        return self.modules
