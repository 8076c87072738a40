"""The races' charts, server-side SVG on the svg toolkit: the stage profile (profile) and the GC
gaps (gc). Each module draws with English words by default and says them in the active language
(``profile_texts``, ``gc_texts``) for the pages."""
