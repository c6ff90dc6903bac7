-- Every finished game keeps its replay (the engine's Game.to_replay(): each round's deck and
-- decisions), so /tripoley history can hand it out as a file. NULL for games finished before.
ALTER TABLE tables ADD COLUMN replay_json TEXT;
