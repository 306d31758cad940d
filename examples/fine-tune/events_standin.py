"""A stand-in for the Azure Instance Metadata Service's Scheduled Events, on 127.0.0.1:18180, for one VM.

It answers only what the manual backend asks a Spot VM's metadata service (GET /metadata/scheduledevents with the
header Metadata: true, in the contract's JSON) and lives as long as the process that started it. Nothing else of
Gantry is simulated: the backend reads this endpoint, decides on the eviction and recovers the run itself.
"""
import json
import threading
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = 18180
VM_NAME = "fine-tune-vm"


class StandIn:
    def __init__(self):
        self.events = []
        self.incarnation = 1
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                if self.headers.get("Metadata") != "true":
                    return self.reply(400, {"error": "Bad request. Required metadata header not specified"})
                if self.path.startswith("/metadata/scheduledevents"):
                    return self.reply(200, {"DocumentIncarnation": standin.incarnation, "Events": standin.events})
                self.reply(404, {"error": "Not found"})

            def reply(self, code, document):
                body = json.dumps(document).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def preempt(self):
        """Announces the eviction of this VM in 30 seconds, as Azure does for Spot VMs."""
        self.events = [{"EventId": "5B2C1E77-0000-4000-8000-00000000F17E", "EventStatus": "Scheduled",
                        "EventType": "Preempt", "ResourceType": "VirtualMachine", "Resources": [VM_NAME],
                        "NotBefore": formatdate(time.time() + 30, usegmt=True), "Description": "",
                        "EventSource": "Platform", "DurationInSeconds": -1}]
        self.incarnation += 1


def start():
    """Serves on PORT; waits up to 10 s for the port, which the attempt before this one may still hold as it ends."""
    deadline = time.time() + 10
    while True:
        try:
            return StandIn()
        except OSError as e:
            if time.time() < deadline:
                time.sleep(0.2)
                continue
            raise SystemExit(f"cannot serve the stand-in metadata service on 127.0.0.1:{PORT} ({e}); free the port, "
                         "or change it here and in gantry.yaml's scheduledEvents.endpoint")
