"""The import of real F1 results (the tables races reads hand over): motor/importing/service.py."""
