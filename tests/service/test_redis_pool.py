"""A process's Redis client under a burst (issue 28): Pushpin hands gunicorn a thousand stream
requests at once, each a few ms of Redis.  redis-py 8's default pool fails the 101st concurrent one
("Too many connections", answered 503, which Pushpin turned into hundreds of 502s); the service's
pool makes it wait for a free connection instead, and still bounds how many Redis sees."""
from __future__ import annotations

import threading

from service.wiring import REDIS_MAX_CONNECTIONS, connect

HOLDERS = REDIS_MAX_CONNECTIONS + 50


def test_more_threads_than_connections_all_get_answers(redis_client, redis_server):
    client = connect(redis_server.url)
    # its connections named, so Redis's count is of this client's, not of other tests' on the same server
    client.connection_pool.connection_kwargs["client_name"] = "pool-under-test"
    start = threading.Barrier(HOLDERS)
    errors: list[BaseException] = []

    def hold_a_connection() -> None:
        start.wait()
        try:
            client.blpop("nothing-ever-pushed", timeout=1)  # keeps its connection busy for 1 s
        except Exception as error:  # noqa: BLE001 - any failure is the finding
            errors.append(error)

    threads = [threading.Thread(target=hold_a_connection) for _ in range(HOLDERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    seen_by_redis = sum(1 for c in redis_client.client_list() if c.get("name") == "pool-under-test")
    client.close()
    assert not errors, f"{len(errors)} of {HOLDERS} requests failed, e.g. {errors[0]!r}"
    # the waiting threads reused the pool's connections: Redis never saw one per thread
    assert 0 < seen_by_redis <= REDIS_MAX_CONNECTIONS
