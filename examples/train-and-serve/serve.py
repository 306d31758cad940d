"""The serve step: loads the model the train step saved (MODEL_PATH, handed on by Gantry) and serves predictions
over HTTP on 127.0.0.1. As an example it answers REQUESTS requests of its own, prints them and stops; a real service
would keep serving (leave REQUESTS unset) behind a load balancer.
"""
import json
import math
import os
import sys
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main():
    path = os.environ.get("MODEL_PATH", "")
    if not os.path.isfile(path):
        sys.exit(f"MODEL_PATH={path!r} is not a file: this step takes the train step's output MODEL_PATH")
    with open(path) as f:
        model = json.load(f)
    print(f"loaded the model from {path}", flush=True)

    class Predict(BaseHTTPRequestHandler):
        def do_POST(self):
            features = json.loads(self.rfile.read(int(self.headers["Content-Length"])))["features"]
            z = sum(w * v for w, v in zip(model["weights"], features)) + model["bias"]
            body = json.dumps({"probability": round(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z)))), 3)}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Predict)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/predict"
    print("serving POST /predict", flush=True)
    requests = os.environ.get("REQUESTS")
    if requests is None:
        threading.Event().wait()
    for features in [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, -1.0, 0.5], [-1.0, -1.0, 1.0, 0.0]][:int(requests)]:
        request = urllib.request.Request(url, json.dumps({"features": features}).encode(),
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as reply:
            print(f"predict {features} -> {json.loads(reply.read())}", flush=True)
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
