#!/usr/bin/env python3
"""Prints an HS256 Bearer token for perflab (stdlib only), signed with PERFLAB_SECURITY_JWT_SECRET or the dev secret.
usage: token.py [MEMBER_ID] [LOGIN] [ROLE,...]   e.g. curl -H "Authorization: Bearer $(scripts/route/token.py 1 route-admin admin)" ...
(the role admin is needed for /api/admin/** and /actuator/metrics, /actuator/configprops)"""
import base64, hashlib, hmac, json, os, sys, time

def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

secret = os.environ.get("PERFLAB_SECURITY_JWT_SECRET", "perflab-dev-secret-change-me-0123456789abcdef").encode()
member, login = (sys.argv[1] if len(sys.argv) > 1 else "1"), (sys.argv[2] if len(sys.argv) > 2 else "route-admin")
now = int(time.time())
head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
claims = {"iss": "perflab", "sub": member, "login": login, "iat": now, "exp": now + 3600}
if len(sys.argv) > 3 and sys.argv[3]:
    claims["roles"] = sys.argv[3].split(",")
body = b64(json.dumps(claims).encode())
sig = b64(hmac.new(secret, f"{head}.{body}".encode(), hashlib.sha256).digest())
print(f"{head}.{body}.{sig}")
