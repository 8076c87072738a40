"""The motor pages: reusable page functions (``pages``) over a championship, and the public
views of the real championships (``public``); a league season wraps ``pages`` with its own
``links`` and access checks."""
