from tests.importing.conftest import tour

__all__ = ["tour"]
