"""Grid Golf, the 2-6 player game: rules, the hole state, referee engine, player views, bots, tournaments.

Modules: :mod:`.rules` (the rule value), :mod:`.scoring`, :mod:`.view` (what a player
may see), :mod:`.state` (one hole as a steppable state), :mod:`.engine` (the referee that
seats players at it), :mod:`.bots` (the bots and their registry), the compiled kernels
(:mod:`.layout` the state layout and turn procedure, :mod:`.greedy`, :mod:`.policy`,
:mod:`.search`), :mod:`.spiel` (the OpenSpiel adapter) and :mod:`.tournament`. Nothing
is imported here, so the CLI starts without compiling anything.
"""
