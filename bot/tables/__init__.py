"""The table service: one table per channel, its lobby, its game, its timers and its saved state.

Nothing here imports discord: the Discord side (:mod:`bot.discordio`) calls the manager
(:mod:`bot.tables.manager`) and turns its updates into messages.
"""
