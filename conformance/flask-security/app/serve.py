"""Serves the app on 127.0.0.1 on a free port and writes the URL to the file given, once it listens.

  python serve.py URL_FILE
"""

import sys

from werkzeug.serving import make_server

from app import create_app


def main():
    server = make_server("127.0.0.1", 0, create_app(), threaded=True)
    with open(sys.argv[1] + ".tmp", "w") as out:
        out.write(f"http://127.0.0.1:{server.port}\n")
    import os

    os.replace(sys.argv[1] + ".tmp", sys.argv[1])
    server.serve_forever()


if __name__ == "__main__":
    main()
