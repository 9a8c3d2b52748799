"""A TCP proxy in front of a real server that cuts every connection after a while.

It is how a test breaks a live stream for real (as a proxy's idle timeout or a
network blip would) without touching the server: the client sees its response
end mid-body.  `close()` stops listening, so new connections are refused, and
ends every connection still open.

Every socket is shut down before it is closed: on Linux, close() alone neither
wakes a thread blocked in accept() or recv() on that socket nor ends the
connection (the blocked call keeps it alive), so a connection younger than
`cut_after` when the proxy closed stayed open, silent, until the client's read
timeout, and the listener accepted one more connection after close().
"""
from __future__ import annotations

import socket
import threading
import time


class CuttingProxy:
    def __init__(self, upstream_port: int, cut_after: float):
        self.upstream_port = upstream_port
        self.cut_after = cut_after
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.accepted = 0
        self.cuts = 0
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            with self._lock:
                if self._closed:  # accepted as close() ran
                    client.close()
                    upstream.close()
                    return
                self.accepted += 1
                self._open += [client, upstream]
            for source, target in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, target), daemon=True).start()
            threading.Thread(target=self._cut_later, args=(client, upstream), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass  # the other side was cut
        finally:
            for sock in (source, target):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def _cut_later(self, client: socket.socket, upstream: socket.socket) -> None:
        time.sleep(self.cut_after)
        cut = False
        for sock in (client, upstream):
            try:
                sock.shutdown(socket.SHUT_RDWR)
                cut = True
            except OSError:
                pass  # already closed by its owner
        if cut:
            with self._lock:
                self.cuts += 1

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for sock in [self.listener, *self._open]:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass  # not connected, or already shut down
                sock.close()
