#!/usr/bin/env python3
"""serve.py DIR PORTFILE: serves DIR over HTTP on 127.0.0.1 at a port the system picks, written
to PORTFILE once listening (the engine tests' pages load modules and textures, which browsers
refuse from file://). Runs until killed."""
import functools, http.server, os, sys


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


handler = functools.partial(Quiet, directory=sys.argv[1])
handler.func.extensions_map['.js'] = 'text/javascript'
server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
tmp = sys.argv[2] + '.tmp'
with open(tmp, 'w') as f:
    f.write(str(server.server_address[1]))
os.rename(tmp, sys.argv[2])
server.serve_forever()
