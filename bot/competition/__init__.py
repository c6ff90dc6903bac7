"""Competition: the players' rating (:mod:`bot.competition.rating`), its storage
(:mod:`bot.competition.store`) and the server's seasons (:mod:`bot.competition.seasons`).

docs/competition.md says how it works in the players' words.
"""
