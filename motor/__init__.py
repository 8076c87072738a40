"""Motor racing: drivers, constructors, tracks, championships, Grands Prix, results, standings."""
