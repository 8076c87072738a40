"""Printable A4 sheets (issue 34): a sheet is plain data (a title, a subtitle and blocks:
headings, paragraphs, tables, a stage's profile) and :func:`sheets.pdf.sheet_pdf` makes its PDF
with ReportLab, in DejaVu Sans (shipped under fonts/, with its licence) so that every name
prints, Pogačar's and Gaël's alike.

Pure Python and ReportLab: no Django, no app (import-linter). Each game's adapter builds the
blocks of its rounds and events in the active language; the season layer adds the title and
serves the bytes (season/views/sheets.py)."""

from sheets.blocks import Block, Heading, Profile, ProfilePiece, Sheet, Table, Text

__all__ = ["Block", "Heading", "Profile", "ProfilePiece", "Sheet", "Table", "Text"]
