"""The server economy: wallets and the ledger (every chip's movement), and players' preferences."""
