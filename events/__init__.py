"""Event envelope, the Redis Streams event store and the game runner (no HTTP, no particular game)."""
