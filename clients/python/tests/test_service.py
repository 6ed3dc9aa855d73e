"""The client against a running service. Needs PHOTO_MISSIONS_URL and credentials in the environment
(the app's suite passes them: clients/python/test/python-client.api.test.ts); skipped without them."""
import hashlib
import os
import sys
import time
import unittest

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


if __name__ == "__main__":
    unittest.main()
