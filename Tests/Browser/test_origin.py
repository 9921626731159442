"""A loopback HTTP proxy that stands between a browser and the server under test.

The browser opens the pages on the proxy's port, so the proxy is the origin it sees; every
request goes on to the server unchanged, one request per connection. It lets a test do what an
engine gives no switch for:

- `inject`: the test's own scripts (Tests/Browser/shim/) are added at the top of every HTML page,
  served from `/__test__/` on the same origin, so the page's Content Security Policy (which
  allows `'self'`) admits them unchanged. WebKitGTK's driver has no way to run a script before
  the page's own, as Chromium's DevTools protocol does; this is that way. The shims never ship:
  the server knows nothing of them.
- `offline`: every request but the test's own scripts is refused, as with no network.
- `upload_rate`: uploads are read at that many bytes a second, a slow uplink.
- `fault`: the first upload's connection is broken: `cut-request` forwards half of its body and
  closes both sides (the server stores nothing); `lose-response` forwards it whole and closes
  the browser's side without the answer (the server stored the message, the page never heard).

With `certificate` (a (cert, key) pair of PEM files) it speaks https to the browser and to the
server, for a server started with --tls-cert and --tls-key.

It also keeps the status of every answer (`answers`), which the console check reads: WebKitGTK's
driver gives no console, so a failed request is seen here.
"""
import pathlib
import socket
import ssl
import threading
import time

SHIM_FOLDER = pathlib.Path(__file__).resolve().parent / "shim"
TEST_PREFIX = "/__test__/"


class TestOrigin:
    def __init__(self, upstream_port, inject=(), fault=None, settings="", certificate=None):
        """`inject` names the shim files (without .js) every page gets, in order; `settings`
        is JavaScript run before them (the browser's configuration: a denied permission, the
        microphone's file)."""
        self.upstream_port, self.inject, self.fault, self.settings = upstream_port, list(inject), fault, settings
        self.offline = False
        self._upload_rate = None
        self.uploads = 0
        self.spoiled = False
        self.answers = []
        self.files = {}
        self.lock = threading.Lock()
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.tls = None
        if certificate:
            self.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.tls.load_cert_chain(*certificate)
            self.upstream_tls = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            self.upstream_tls.check_hostname = False
            self.upstream_tls.verify_mode = ssl.CERT_NONE
        self.base = f"{'https' if certificate else 'http'}://127.0.0.1:{self.port}"
        threading.Thread(target=self.accept, daemon=True).start()

    @property
    def upload_rate(self):
        return self._upload_rate

    @upload_rate.setter
    def upload_rate(self, bytes_per_second):
        """Uploads are read at this many bytes a second (None: as fast as they come). While it
        is set, connections accepted get a small receive buffer, so what the browser counts as
        sent follows what the proxy reads, from the first byte."""
        self._upload_rate = bytes_per_second
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096 if bytes_per_second else 1 << 20)

    def serve_file(self, path, content, content_type):
        """Serves `content` at `/__test__/path` (a fixture the shim loads, such as a WAV)."""
        self.files[TEST_PREFIX + path] = (content, content_type)

    def close(self):
        try:
            self.listener.close()
        except OSError:
            pass

    def failed_answers(self):
        """(request line, status) of every answer of 400 or more, and of every request refused."""
        with self.lock:
            return [(line, status) for line, status in self.answers if status is None or status >= 400]

    # -----------------------------------------------------------------------------------------

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.handle, args=(client,), daemon=True).start()

    def handle(self, client):
        upstream = None
        try:
            if self.tls:
                client = self.tls.wrap_socket(client, server_side=True)
            head, body = read_head(client)
            if head is None:
                return
            lines = head.decode("latin-1").split("\r\n")
            request_line = lines[0]
            path = request_line.split(" ")[1] if " " in request_line else "/"
            if path.startswith(TEST_PREFIX):
                self.answer_test_file(client, path)
                return
            if self.offline:
                self.note(request_line, None)
                return
            # A page the shims go into is asked for as it is: the server sends what the browser
            # accepts, and a gzipped or Brotli page has no <head> to add them to. Its files keep
            # the browser's Accept-Encoding, so each engine still decodes what the server
            # compressed.
            rewrites_page = self.inject and not path.startswith(("/static/", "/v1/"))
            length, kept = 0, [request_line]
            for line in lines[1:]:
                key, _, value = line.partition(":")
                name = key.strip().lower()
                if name == "content-length":
                    length = int(value.strip())
                if name in ("connection", "keep-alive", "proxy-connection"):
                    continue
                if rewrites_page and name == "accept-encoding":
                    continue
                kept.append(line)
            if rewrites_page:
                kept.append("Accept-Encoding: identity")
            kept.append("Connection: close")
            is_upload = request_line.startswith("POST ") and "/messages?" in request_line
            spoil = False
            with self.lock:
                if is_upload:
                    self.uploads += 1
                    if self.fault and not self.spoiled:
                        self.spoiled = spoil = True
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            if self.tls:
                upstream = self.upstream_tls.wrap_socket(upstream)
            upstream.sendall("\r\n".join(kept).encode("latin-1") + b"\r\n\r\n")
            if spoil and self.fault == "cut-request":
                body = read_body(client, body, length // 2, None)
                upstream.sendall(body[: length // 2])
                time.sleep(0.2)
                self.note(request_line, None)
                return
            rate = self.upload_rate if is_upload else None
            body = read_body(client, body, length, rate)
            upstream.sendall(body)
            answer = read_all(upstream)
            status_line = answer.split(b"\r\n", 1)[0].decode("latin-1")
            status = int(status_line.split(" ")[1]) if status_line.count(" ") >= 1 else None
            if spoil and self.fault == "lose-response":
                self.note(request_line, None)
                return
            self.note(request_line, status)
            if self.inject and status == 200 and is_html(answer):
                answer = self.with_shims(answer)
            client.sendall(answer)
        except OSError:
            pass
        finally:
            for sock in (client, upstream):
                if sock is not None:
                    try:
                        sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    sock.close()

    def note(self, request_line, status):
        with self.lock:
            self.answers.append((request_line, status))

    def answer_test_file(self, client, path):
        path = path.split("?")[0]
        if path == TEST_PREFIX + "settings.js":
            content, content_type = self.settings.encode(), "text/javascript"
        elif path in self.files:
            content, content_type = self.files[path]
        else:
            name = path[len(TEST_PREFIX):]
            source = SHIM_FOLDER / name
            if "/" in name or not source.is_file():
                client.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return
            content, content_type = source.read_bytes(), "text/javascript"
        client.sendall(f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {len(content)}\r\n"
                       "Cache-Control: no-store\r\nConnection: close\r\n\r\n".encode("latin-1") + content)

    def with_shims(self, answer):
        """The page with the shims' script tags first in its head, and its length corrected."""
        head, _, body = answer.partition(b"\r\n\r\n")
        if b"transfer-encoding: chunked" in head.lower():
            body = unchunk(body)
            head = b"\r\n".join(line for line in head.split(b"\r\n") if not line.lower().startswith(b"transfer-encoding"))
        tags = "".join(f'<script src="{TEST_PREFIX}{name}.js"></script>' for name in ["settings", *self.inject])
        body = body.replace(b"<head>", b"<head>" + tags.encode(), 1)
        lines = [line for line in head.split(b"\r\n") if not line.lower().startswith(b"content-length")]
        lines.append(f"Content-Length: {len(body)}".encode())
        return b"\r\n".join(lines) + b"\r\n\r\n" + body


def read_head(sock):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None, b""
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    return head, rest


def read_body(sock, body, length, rate):
    """The request body up to `length` bytes; at most `rate` bytes a second when given."""
    started = time.time()
    while len(body) < length:
        chunk = sock.recv(min(65536, rate // 10) if rate else 65536)
        if not chunk:
            break
        body += chunk
        if rate:
            ahead = len(body) / rate - (time.time() - started)
            if ahead > 0:
                time.sleep(ahead)
    return body


def read_all(sock):
    answer = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return answer
        answer += chunk


def is_html(answer):
    head = answer.split(b"\r\n\r\n", 1)[0].lower()
    return b"content-type: text/html" in head


def unchunk(body):
    out, rest = b"", body
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out, rest = out + rest[:size], rest[size + 2:]
    return out
