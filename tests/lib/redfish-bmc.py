#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A Redfish service for tests/unit/test_redfish.c: https on 127.0.0.1 with
the certificate given, HTTP Basic authentication, one ComputerSystem read
from a fixture, and its Reset action, which records what it was asked and
answers 204 (the power never goes: there is no server behind it).

Usage: redfish-bmc.py DATA CERT KEY USER:PASSWORD SYSTEM-FIXTURE LOG PORTFILE

DATA is tests/unit/data.  /redfish/v1/Systems lists the one system,
/redfish/v1/Systems/1, which is SYSTEM-FIXTURE (its Reset target rewritten
to this service's path).  Each request goes to LOG as a JSON line: method,
path, whether its account was right, body.  The port chosen goes to
PORTFILE once the service listens.
"""
import base64
import http.server
import json
import os
import ssl
import sys

data, cert, key, account, fixture, log_path, port_file = sys.argv[1:8]
SYSTEM = "/redfish/v1/Systems/1"
TARGET = SYSTEM + "/Actions/ComputerSystem.Reset"


def system():
    with open(os.path.join(data, fixture)) as f:
        s = json.load(f)
    reset = s.get("Actions", {}).get("#ComputerSystem.Reset")
    if reset is not None and "target" in reset:
        reset["target"] = TARGET
    s["@odata.id"] = SYSTEM
    return s


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, obj=None):
        body = json.dumps(obj).encode() if obj is not None else b""
        self.send_response(status)
        if body:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def record(self, body):
        auth = self.headers.get("Authorization", "")
        good = auth == "Basic " + base64.b64encode(account.encode()).decode()
        with open(log_path, "a") as f:
            f.write(json.dumps({"method": self.command, "path": self.path,
                                "account": good, "body": body}) + "\n")
        if not good:
            self.answer(401, {"error": {"code": "Base.1.8.GeneralError",
                                        "message": "Authentication required",
                                        "@Message.ExtendedInfo": [
                                            {"Message": "The request requires user authentication."}]}})
        return good

    def do_GET(self):
        if not self.record(None):
            return
        if self.path == "/redfish/v1/Systems":
            self.answer(200, {"@odata.id": "/redfish/v1/Systems",
                              "Members": [{"@odata.id": SYSTEM}],
                              "Members@odata.count": 1})
        elif self.path == SYSTEM:
            self.answer(200, system())
        else:
            self.answer(404, {"error": {"message": "no such resource"}})

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n).decode()
        if not self.record(body):
            return
        if self.path == TARGET:
            self.answer(204)
        else:
            self.answer(404, {"error": {"message": "no such action"}})


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(cert, key)
server.socket = ctx.wrap_socket(server.socket, server_side=True)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
