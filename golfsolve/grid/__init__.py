"""Grid Golf, the 2-6 player game: rules, referee engine, player views, bots, tournaments.

Modules: :mod:`.rules` (the rule value), :mod:`.scoring`, :mod:`.view` (what a player
may see), :mod:`.engine` (the plain-Python referee), :mod:`.bots` (random, greedy, Monte
Carlo), :mod:`.rollout` (numba kernels), :mod:`.tournament` and :mod:`.report`. Nothing
is imported here, so the CLI starts without compiling anything.
"""
