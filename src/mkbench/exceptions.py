"""Library-owned exceptions.

Every error raised on bad input names the bad value and says how to fix it.
They all derive from :class:`MkbenchError`, so a caller can catch the family.
"""


class MkbenchError(Exception):
    """Base class of every error raised by mkbench."""


class UnknownNameError(MkbenchError, KeyError, ValueError):
    """A name (data set, method, kernel, protocol...) that is not registered.

    A KeyError (a failed lookup) and a ValueError (a bad parameter value, which is
    what scikit-learn raises for an unknown option), so either ``except`` catches it.
    """

    def __str__(self) -> str:  # KeyError would quote the message otherwise
        return str(self.args[0]) if self.args else ""


class DataError(MkbenchError):
    """A raw data file is missing, cannot be downloaded, or is corrupt."""


class ChecksumError(DataError):
    """A file's sha256 does not match the registry; the file was put aside."""


class ConfigError(MkbenchError, ValueError):
    """A workflow configuration that does not validate."""


class SolverError(MkbenchError, RuntimeError):
    """A solver returned a status other than optimal."""
