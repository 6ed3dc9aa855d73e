"""The client against a running service. Needs PHOTO_MISSIONS_URL and credentials in the environment
(the app's suite passes them: clients/python/test/python-client.api.test.ts); skipped without them."""
import hashlib
import os
import sys
import threading
import time
import unittest
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from photo_missions import OAuthError, PhotoMissions, ProblemError  # noqa: E402

ENV = os.environ
URL = ENV.get("PHOTO_MISSIONS_URL")
SQUARE = {"type": "Polygon", "coordinates": [[[11.255, 43.768], [11.26, 43.768], [11.26, 43.773], [11.255, 43.773], [11.255, 43.768]]]}


@unittest.skipUnless(URL, "PHOTO_MISSIONS_URL is not set")
class ServiceTest(unittest.TestCase):
    def partner(self):
        return PhotoMissions(URL, client_id=ENV["PARTNER_CLIENT_ID"], client_secret=ENV["PARTNER_CLIENT_SECRET"])

    def test_token_is_discovered_cached_and_reused(self):
        client = self.partner()
        client.missions.list()
        client.missions.list()
        self.assertIsNotNone(client.credentials)
        self.assertEqual(client.credentials.tokens_fetched, 1)

    def test_wrong_secret_is_an_oauth_error(self):
        client = PhotoMissions(URL, client_id=ENV["PARTNER_CLIENT_ID"], client_secret="wrong")
        with self.assertRaises(OAuthError) as raised:
            client.missions.list()
        self.assertEqual(raised.exception.error, "invalid_client")

    def test_preview_names_and_paging(self):
        client = self.partner()
        tag = f"Py paged {time.time()}"
        ids = [client.missions.create(title=f"{tag} {i}", bounds=SQUARE, requiredImages=i + 1)["id"] for i in range(3)]
        self.assertEqual([client.missions.get(i)["required_images"] for i in ids], [1, 2, 3])
        self.assertEqual(client.missions.list(q=tag, per_page=2)["meta"]["total"], 3)
        self.assertEqual(sorted(m["id"] for m in client.missions.iterate(q=tag, per_page=2)), sorted(ids))

    def test_problems_are_typed(self):
        client = self.partner()
        with self.assertRaises(ProblemError) as raised:
            client.missions.create(title="Bad", bounds={"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [0, 0]]]}, required_images=1)
        self.assertEqual(raised.exception.status, 422)
        self.assertTrue(any("bounds" in e["pointer"] for e in raised.exception.field_errors))
        with self.assertRaises(ProblemError) as missing:
            client.missions.get("mission_doesnotexist")
        self.assertEqual(missing.exception.status, 404)
        self.assertTrue(missing.exception.request_id)

    def test_upload_and_streamed_downloads(self):
        client = self.partner()
        zoomer = PhotoMissions(URL, client_id=ENV["ZOOMER_CLIENT_ID"], client_secret=ENV["ZOOMER_CLIENT_SECRET"])
        mission = client.missions.create(title="Py downloads", bounds=SQUARE, required_images=1)
        with open(ENV["SQUARE_PHOTO_FILE"], "rb") as f:
            photo = f.read()
        submission = zoomer.submissions.create(mission["id"], [("x.jpg", photo)])
        self.assertEqual(submission["status"], "received")
        images = client.submissions.images(submission["id"])["data"]
        download = client.images.download(images[0]["url"])
        digest = hashlib.sha256()
        for chunk in download.iter_chunks(8192):
            digest.update(chunk)
        self.assertEqual(digest.hexdigest(), hashlib.sha256(photo).hexdigest())
        with client.missions.export(mission["id"]) as archive:
            first = next(archive.iter_chunks(1024))
        self.assertEqual(first[:2], b"PK")

    def test_api_key_reaches_orders_only_and_posts_are_idempotent(self):
        orders = PhotoMissions(URL, api_key=ENV["ORDERS_API_KEY"])
        body = {
            "client_reference": f"py-{time.time()}",
            "category": "cultural_exterior",
            "requirements": {"angles": ["front"]},
            "locations": [{"name": "Duomo", "coordinates": {"lat": 43.7731, "lng": 11.256}}],
        }
        first = orders.orders.create(body, idempotency_key="py-same-key-" + body["client_reference"])
        again = orders.orders.create(body, idempotency_key="py-same-key-" + body["client_reference"])
        self.assertEqual(first["id"], again["id"])
        self.assertEqual([o["id"] for o in orders.orders.iterate(client_reference=body["client_reference"])], [first["id"]])
        with self.assertRaises(ProblemError) as raised:
            orders.missions.list()
        self.assertEqual(raised.exception.status, 401)


class FlakyProxy:
    """A real HTTP proxy in front of the service that fails the way gateways do, on plan."""

    def __init__(self, upstream):
        self.plan = []  # [(method, path prefix, "429" | "forward-then-503")]
        self.seen = []  # [(method, path, idempotency key, status answered)]
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self):
                body = self.rfile.read(int(self.headers.get("content-length", "0") or 0))
                step = next((p for p in proxy.plan if p[0] == self.command and self.path.startswith(p[1])), None)
                if step:
                    proxy.plan.remove(step)
                key = self.headers.get("idempotency-key")
                if step and step[2] == "429":
                    proxy.seen.append((self.command, self.path, key, 429))
                    self.send_response(429)
                    self.send_header("retry-after", "1")
                    self.send_header("content-type", "application/problem+json")
                    self.end_headers()
                    self.wfile.write(b'{"type":"about:blank","title":"Too Many Requests","status":429,"code":"rate_limited"}')
                    return
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
                request = urllib.request.Request(upstream + self.path, data=body or None, headers=headers, method=self.command)
                try:
                    response = urllib.request.urlopen(request)
                except urllib.error.HTTPError as error:
                    response = error
                status = response.status if hasattr(response, "status") else response.code
                data = response.read()
                if step and step[2] == "forward-then-503":
                    # The service did the work; the caller never hears of it.
                    proxy.seen.append((self.command, self.path, key, 503))
                    self.send_response(503)
                    self.end_headers()
                    return
                proxy.seen.append((self.command, self.path, key, status))
                self.send_response(status)
                for name, value in response.headers.items():
                    if name.lower() not in ("transfer-encoding", "content-length", "connection"):
                        self.send_header(name, value)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _handle

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@unittest.skipUnless(URL, "PHOTO_MISSIONS_URL is not set")
class RetryTest(unittest.TestCase):
    def setUp(self):
        self.proxy = FlakyProxy(URL)
        self.addCleanup(self.proxy.close)

    def test_waits_out_retry_after_on_429(self):
        client = PhotoMissions(self.proxy.url, api_key=ENV["ORDERS_API_KEY"])
        self.proxy.plan.append(("GET", "/api/orders/v1/orders?", "429"))
        started = time.time()
        self.assertEqual(client.orders.list(per_page=5)["meta"]["page"], 1)
        self.assertGreaterEqual(time.time() - started, 0.95)
        self.assertEqual([s[3] for s in self.proxy.seen], [429, 200])

    def test_gives_up_after_max_retries_with_a_typed_429(self):
        client = PhotoMissions(self.proxy.url, api_key=ENV["ORDERS_API_KEY"], max_retries=1)
        self.proxy.plan += [("GET", "/api/orders/v1/orders?", "429"), ("GET", "/api/orders/v1/orders?", "429")]
        with self.assertRaises(ProblemError) as raised:
            client.orders.list(per_page=1)
        self.assertEqual((raised.exception.status, raised.exception.code, raised.exception.retry_after_seconds), (429, "rate_limited", 1))

    def test_retries_a_lost_post_with_the_same_idempotency_key(self):
        client = PhotoMissions(self.proxy.url, api_key=ENV["ORDERS_API_KEY"], base_delay=0.05)
        reference = f"py-retry-{time.time()}"
        self.proxy.plan.append(("POST", "/api/orders/v1/orders", "forward-then-503"))
        order = client.orders.create({
            "client_reference": reference,
            "category": "cultural_exterior",
            "requirements": {"angles": ["front"]},
            "locations": [{"name": "Duomo", "coordinates": {"lat": 43.7731, "lng": 11.256}}],
        })
        posts = [s for s in self.proxy.seen if s[0] == "POST"]
        self.assertEqual([p[3] for p in posts], [503, 201])
        self.assertTrue(posts[0][2])
        self.assertEqual(posts[0][2], posts[1][2])
        direct = PhotoMissions(URL, api_key=ENV["ORDERS_API_KEY"])
        self.assertEqual([o["id"] for o in direct.orders.iterate(client_reference=reference)], [order["id"]])

    def test_does_not_repeat_a_patch_after_a_5xx(self):
        client = PhotoMissions(self.proxy.url, client_id=ENV["PARTNER_CLIENT_ID"], client_secret=ENV["PARTNER_CLIENT_SECRET"], base_delay=0.05)
        mission = client.missions.create(title="Py patch once", bounds=SQUARE, required_images=1)
        self.proxy.plan.append(("PATCH", f"/api/v1/missions/{mission['id']}", "forward-then-503"))
        with self.assertRaises(ProblemError) as raised:
            client.missions.update(mission["id"], requiredImages=2)
        self.assertEqual(raised.exception.status, 503)
        self.assertEqual(len([s for s in self.proxy.seen if s[0] == "PATCH"]), 1)
        self.assertEqual(client.missions.get(mission["id"])["required_images"], 2)


if __name__ == "__main__":
    unittest.main()
