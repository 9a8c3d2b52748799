"""Event envelope, the Redis Streams event store and the game runner with its parts (no HTTP, no particular game)."""
