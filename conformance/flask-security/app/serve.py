"""Serves the app on 127.0.0.1 on a free port, under a path prefix as behind a reverse proxy, and writes its base
URL (prefix included) to the file given, once it listens.

  python serve.py URL_FILE          (APP_PREFIX: the path prefix, default /fs; empty for none)
"""

import os
import sys

from werkzeug.exceptions import NotFound
from werkzeug.middleware.dispatcher import DispatcherMiddleware
from werkzeug.serving import make_server

from app import create_app


def main():
    prefix = os.environ.get("APP_PREFIX", "/fs").rstrip("/")
    app = create_app()
    if prefix:
        # Everything outside the prefix is a 404, as a proxy that forwards only /fs/… would answer.
        app = DispatcherMiddleware(NotFound(), {prefix: app})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    with open(sys.argv[1] + ".tmp", "w") as out:
        out.write(f"http://127.0.0.1:{server.port}{prefix}\n")
    os.replace(sys.argv[1] + ".tmp", sys.argv[1])
    server.serve_forever()


if __name__ == "__main__":
    main()
