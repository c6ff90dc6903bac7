"""Tournaments: sign-ups with buy-ins into a pot, stages of tables in threads, a final table, prizes by place."""
