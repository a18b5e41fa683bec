"""JSON Schemas of romecore's published formats, as package data (read them with
:func:`romecore.records.record_schema`)."""
