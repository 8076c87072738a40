"""The league's writes, one module per job (reads are in season.selectors):

- lifecycle: open, lock and publish a round, the deadline lock, rounds resolve in order;
- orders: a team's orders for a round;
- jobs: "resolve now", beat's deadline check, handing jobs to the workers;
- resolution: resolving a round exactly once;
- reinstate: keeping a rider who finished outside the time limit.
"""
