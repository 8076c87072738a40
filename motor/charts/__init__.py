"""The motor pages' charts (track map, lap chart, points chart): pure functions over plain data
(a track file's content, positions, points), built on the ``svg`` toolkit; no Django."""
