"""Simulation: seeded, multiprocess self-play (``paohuzi simulate``) and the arena."""
