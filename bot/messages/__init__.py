"""What players read and click, as data: texts, components, button ids, the game's story,
refusals in words and the rule book's pages. No discord import: :mod:`bot.discordio` sends them."""
