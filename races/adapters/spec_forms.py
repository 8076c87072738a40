"""The form fields generated from an engine spec now live in ``specforms`` (shared by the
cycling and motor adapters, which may not import each other); re-exported for races' imports."""

from specforms import (
    CHOICE_CONTEXT,
    IntPairsField,
    field_from_spec,
    orders_carried,
    rider_fields_from_spec,
    settings_fields_from_spec,
)

__all__ = [
    "CHOICE_CONTEXT",
    "IntPairsField",
    "field_from_spec",
    "orders_carried",
    "rider_fields_from_spec",
    "settings_fields_from_spec",
]
