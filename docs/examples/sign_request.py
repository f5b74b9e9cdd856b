"""Sends one HMAC-signed request and prints the answer's body, then its status on a line of its own.

    BASE_URL=http://localhost:3000 SECRET=<the API key's secret> python3 sign_request.py METHOD PATH [BODY]

INSTANCE=<name> adds X-Service-Instance. Python 3 standard library only. Exits 1 on a status of 400 or more.
"""
import hashlib
import hmac
import os
import secrets
import sys
import urllib.error
import urllib.request

if len(sys.argv) < 3:
    sys.exit("usage: python3 sign_request.py METHOD PATH [BODY]")
method, path = sys.argv[1], sys.argv[2]
body = sys.argv[3].encode("utf-8") if len(sys.argv) > 3 else b""
nonce = secrets.token_hex(16)
# The signed text is the nonce, a colon and the body exactly as sent (nothing after the colon without a body).
signed = nonce.encode("ascii") + b":" + body
signature = hmac.new(os.environ["SECRET"].encode("utf-8"), signed, hashlib.sha256).hexdigest()
headers = {"X-Service-Nonce": nonce, "X-Service-Hash": signature}
if os.environ.get("INSTANCE"):
    headers["X-Service-Instance"] = os.environ["INSTANCE"]
if body:
    headers["Content-Type"] = "application/json"
request = urllib.request.Request(os.environ["BASE_URL"] + path, data=body or None, headers=headers, method=method)
try:
    with urllib.request.urlopen(request) as response:
        status, answer = response.status, response.read()
except urllib.error.HTTPError as error:
    status, answer = error.code, error.read()
print(answer.decode("utf-8"))
print(status)
sys.exit(0 if status < 400 else 1)
