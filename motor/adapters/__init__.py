"""One adapter per motor ruleset (grandprix, ludicitude), registered in MotorConfig.ready()."""
