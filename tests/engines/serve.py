#!/usr/bin/env python3
"""serve.py DIR PORTFILE: serves DIR over HTTP on 127.0.0.1 at a port the system picks, written
to PORTFILE once listening (the engine tests' pages load modules and textures, which browsers
refuse from file://). /clock answers this machine's monotonic clock in milliseconds: the pages
time their frames by it, as a headless browser's virtual time stops their own. Runs until killed."""
import functools, http.server, os, sys, time


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path.split('?')[0] != '/clock':
            return super().do_GET()
        body = b'%.3f' % (time.monotonic() * 1000)
        self.send_response(200)
        self.send_header('Content-Type', 'text/plain')
        self.send_header('Cache-Control', 'no-store')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)


handler = functools.partial(Quiet, directory=sys.argv[1])
handler.func.extensions_map['.js'] = 'text/javascript'
server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
tmp = sys.argv[2] + '.tmp'
with open(tmp, 'w') as f:
    f.write(str(server.server_address[1]))
os.rename(tmp, sys.argv[2])
server.serve_forever()
